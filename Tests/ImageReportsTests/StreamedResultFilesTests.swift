import Foundation
import Testing
import TestSupport
import ImageCore
import ImageCodecs
import ImageCorpus
import ImageReports
@testable import ImageLab

/// A streamed run (`imglab run`) writes its JSON, JUnit and report as the pairs are judged;
/// the bytes must be those of the all-at-once writer (``ResultFiles``) over the kept results.
@Suite("Streamed result files")
struct StreamedResultFilesTests {
    /// Refusing `orient`, R↔B swapped on `resize`, built-in otherwise: passes, failures and errors in one run,
    /// so the report's order (worst first) differs from the manifest's and pages link across verdicts.
    struct MixedResizer: Resizer {
        var name: String { "mixed" }
        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
            switch operation.name {
            case "orient": throw .unsupported("refused by the test")
            case "resize": return try ChannelSwapMutant(BuiltinResizer()).apply(operation, to: source)
            default: return try BuiltinResizer().apply(operation, to: source)
            }
        }
    }

    static let filter = "png-rgba8-colorPatches*,png-rgb8-constant*"

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-streamed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A JUnit file with its report folder written as `REPORT` and every `time` attribute as `0`:
    /// what two runs of the same pairs share.
    static func comparable(_ path: String, folder: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.replacingOccurrences(of: folder + "/", with: "REPORT/")
            .replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="0""#, options: .regularExpression)
    }

    @Test("a streamed run writes the same JSON, JUnit and report bytes as the all-at-once writer, at any thread count", arguments: [1, 2, 3])
    func sameBytes(threads: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var runner = try LabRuns.runner(MixedResizer(), filter: Self.filter)
        runner.keepEvidence = true

        // The reference: every result kept, then written at once (single-threaded run).
        runner.threads = 1
        let kept = try runner.run()
        let verdicts = Set(kept.results.pairs.map(\.verdict))
        try #require(verdicts.isSuperset(of: [.pass, .fail, .error]), "the mixed resizer gives every verdict: \(verdicts)")
        try ResultFiles.write(kept.results, evidence: kept.evidence, json: dir + "/all.json", junit: dir + "/all.xml", report: dir + "/all")

        runner.threads = threads
        let files = try StreamedResultFiles(json: dir + "/streamed.json", junit: dir + "/streamed.xml", report: dir + "/streamed")
        let streamed = try runner.run(into: files)
        try files.finish(streamed.results)

        #expect(streamed.results.pairs.isEmpty)
        #expect(streamed.tally.summary == kept.results.summary)
        #expect(FileManager.default.contents(atPath: dir + "/streamed.json") == FileManager.default.contents(atPath: dir + "/all.json"))
        // The JUnit files name each pair's page in its own report folder, and time each pair as it ran.
        #expect(Self.comparable(dir + "/streamed.xml", folder: dir + "/streamed") == Self.comparable(dir + "/all.xml", folder: dir + "/all"))
        #expect(try String(contentsOfFile: dir + "/all.xml", encoding: .utf8).contains("report page: \(dir)/all/pairs/"))
        let reference = FolderSnapshot.files(dir + "/all"), written = FolderSnapshot.files(dir + "/streamed")
        // One page per pair with evidence, a difference thumbnail per such pair whose output differs, the index,
        // results.json, junit.xml and the marker.
        let differing = kept.evidence.count { $0.map { !$0.comparison.identical } ?? false }
        #expect(differing > 0 && reference.keys.count { $0.hasPrefix("thumbs/") } == differing)
        #expect(reference.count == kept.evidence.count { $0 != nil } + differing + 4)
        #expect(written.keys.sorted() == reference.keys.sorted())
        #expect(written["results.json"] == FileManager.default.contents(atPath: dir + "/all.json"))
        for (path, bytes) in reference where path != "junit.xml" { #expect(written[path] == bytes, "\(path) differs") }
        #expect(Self.comparable(dir + "/streamed/junit.xml", folder: dir + "/streamed") == Self.comparable(dir + "/all/junit.xml", folder: dir + "/all"))
        // The JSON read back holds the kept pairs, in manifest order.
        let data = try #require(FileManager.default.contents(atPath: dir + "/streamed.json"))
        #expect(try RunResults.decode(data).pairs == kept.results.pairs)
        // Nothing but the outputs is left beside them (the scratch files have no name).
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["all", "all.json", "all.xml", "streamed", "streamed.json", "streamed.xml"])
    }

    @Test("a run whose pairs are all left out writes the results' own JSON, empty pairs array included")
    func noPairs() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let header = RunResults(resizer: "r", profile: "quick", corpus: "C", filter: [], shard: [1, 1], gatesFile: "gates.json",
                                gates: [.init(family: "f", gate: "visible.max <= 1")], metricDefinitions: [:], canaries: [], pairs: [],
                                summary: RunResults.summarize([]), warnings: ["w"])
        let files = try StreamedResultFiles(json: dir + "/r.json", junit: dir + "/r.xml", report: nil)
        try files.finish(header)
        #expect(FileManager.default.contents(atPath: dir + "/r.json") == (try header.jsonData()))
        #expect(FileManager.default.contents(atPath: dir + "/r.xml") == Data(JUnitReport.xml(header).utf8))
    }

    @Test("a failed run abandons its report: the previous report stays, and no staging folder is left")
    func abandoned() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var runner = try LabRuns.runner(BuiltinResizer(), filter: "png-rgb8-constant*")
        runner.keepEvidence = true
        let first = try StreamedResultFiles(json: nil, junit: nil, report: dir + "/report")
        try first.finish(try runner.run(into: first).results)
        let before = FolderSnapshot.files(dir + "/report")
        try #require(!before.isEmpty)

        let second = try StreamedResultFiles(json: nil, junit: nil, report: dir + "/report")
        _ = try runner.run(into: second)
        second.abandon()
        #expect(FolderSnapshot.files(dir + "/report") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["report"])
    }
}
