import Foundation
import Testing
@testable import ImageLab
@testable import ImageCorpus

/// `RunSession`: the corpus's profile, the golden store, and the declared-policy counts as data.
@Suite("Run session")
struct RunSessionTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    @Test("a corpus of another profile is refused before anything runs")
    func profileMismatch() {
        #expect(throws: RunError.corpusProfile("\(Self.corpus) holds the quick profile, not full; generate it with 'imglab corpus --profile full --out DIR' and pass --corpus DIR")) {
            try RunSession(corpus: Self.corpus, resizer: BuiltinResizer(), profile: .full, filter: "*/orient", threads: 1).run()
        }
    }

    @Test("a golden store whose index cannot be read is a run error, not an empty store")
    func unreadableGoldens() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("not json".utf8).write(to: dir.appendingPathComponent("index.json"))
        #expect {
            try RunSession(corpus: Self.corpus, resizer: BuiltinResizer(), filter: "*/orient", threads: 1, goldens: dir.path).run()
        } throws: { error in
            guard case RunError.goldens = error else { return false }
            return true
        }
    }

    @Test("a resizer that declares it does not orient: one orientation label per rotated case, counted by kind")
    func policyCountsAreTyped() throws {
        let manifest = try LabRunner.manifest(corpus: Self.corpus)
        let rotated = manifest.cases.filter { $0.id.hasPrefix("png-rgba8-") && $0.orientation != 1 }.count
        let resizer = CommandResizer(name: "cp", template: try CommandTemplate("cp {in} {out}"), policy: ResizerPolicy(appliesOrientation: false))
        let outcome = try RunSession(corpus: Self.corpus, resizer: resizer, filter: "png-rgba8-*/orient", threads: 2).run()
        #expect(rotated == 7)
        #expect(outcome.results.policyCounts.map(\.kind) == [.orientationNotApplied])
        #expect(outcome.results.policyCounts.first?.count == rotated)
        #expect(outcome.results.summary.pass == outcome.results.pairs.count, "the upright PNG copied back is the upright picture")
        #expect(outcome.evidence.allSatisfy { $0 == nil }, "no evidence unless asked for")
    }

    @Test("a policy label is its text in JSON and reads back as the same kind and detail")
    func policyLabelRoundTrip() throws {
        let labels = [PolicyLabel(.rounding(.floor), "expected 40×26, built-in rule 40×27"), PolicyLabel(.srgbLightSpace, "judged against the oracle averaged in sRGB")]
        let data = try JSONEncoder().encode(labels)
        #expect(String(decoding: data, as: UTF8.self) == #"["policy: rounding floor (declared): expected 40×26, built-in rule 40×27","policy: srgb light space (declared): judged against the oracle averaged in sRGB"]"#)
        #expect(try JSONDecoder().decode([PolicyLabel].self, from: data) == labels)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PolicyLabel].self, from: Data(#"["policy: telepathy (declared): x"]"#.utf8)) }
    }
}
