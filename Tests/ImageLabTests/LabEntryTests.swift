import Foundation
import Testing
@testable import ImageLab
@testable import ImageCorpus

/// The library entries behind `imglab bless`, `merge` and `corpus`.
@Suite("Lab entries")
struct LabEntryTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    @Test("blessing a failing pair adds one golden and counts the failure; blessing it again adds none")
    func blessing() throws {
        let goldens = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-bless-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: goldens) }
        let swapped = try #require(ResizerChoice.resolve("swap-rb"))
        let blessing = Blessing(corpus: Self.corpus, goldens: goldens, resizer: swapped, filter: "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24", threads: 1)
        #expect(try blessing.run() == Blessing.Outcome(added: 1, outputs: 1, failing: 1))
        #expect(try blessing.run() == Blessing.Outcome(added: 0, outputs: 1, failing: 1))
        let index = try GoldenStore(folder: goldens).load()
        #expect(index.goldens["png-rgba8-colorPatches-48x32/resize-aspectFit-24x24"]?.first?.oracleDistance.keys.sorted() == Blessing.distanceMetrics.sorted())
        #expect(throws: BlessError.self) { try Blessing(corpus: "/nonexistent-corpus", goldens: goldens).run() }
    }

    @Test("merging files: an unreadable path and a file that is no results are named")
    func mergeFiles() throws {
        #expect(throws: ShardMerge.MergeError.unreadable(path: "/nonexistent/shard1.json")) {
            try ShardMerge.merge(files: ["/nonexistent/shard1.json"], corpus: Self.corpus)
        }
        let manifest = Self.corpus + "/manifest.json"
        #expect {
            try ShardMerge.merge(files: [manifest], corpus: Self.corpus)
        } throws: { error in
            guard case ShardMerge.MergeError.notResults(let path, _) = error else { return false }
            return path == manifest
        }
    }

    @Test("a check build compares the committed corpus bit for bit, counts it, and writes nothing")
    func corpusCheck() throws {
        let outcome = try CorpusBuild(profile: .quick, folder: Self.corpus, action: .check, counts: true, threads: 2).run()
        let check = try #require(outcome.check)
        #expect(check.passed, "missing \(check.missing), unexpected \(check.unexpected)")
        #expect(check.checked == outcome.corpus.files.count)
        #expect(outcome.stats != nil && outcome.written == nil)
        #expect(outcome.corpus.cases.count == (try LabRunner.manifest(corpus: Self.corpus)).cases.count)
    }
}
