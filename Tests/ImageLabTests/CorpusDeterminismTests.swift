import Foundation
import Testing
@testable import ImageLab
@testable import ImageCorpus

/// Acceptance 1: the same bytes on every run and for any thread count, and the committed
/// `Corpus/` is exactly what the generator makes.
@Suite("Corpus determinism")
struct CorpusDeterminismTests {
    @Test("one thread and two threads produce identical bytes (a second, independent run)")
    func threadCountDoesNotMatter() throws {
        let single = try CorpusGenerator.generate(.quick, threads: 1)
        let double = QuickCorpus.generated
        #expect(single.files.keys.sorted() == double.files.keys.sorted())
        let different = single.files.keys.filter { single.files[$0] != double.files[$0] }.sorted()
        #expect(different.isEmpty, "differ: \(different.prefix(5))")
    }

    @Test("the committed Corpus/ matches the quick profile bit for bit")
    func committedCorpusMatches() throws {
        let folder = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path
        let report = CorpusFolder.check(QuickCorpus.generated, against: folder)
        #expect(report.missing.isEmpty, "missing: \(report.missing.prefix(5))")
        #expect(report.differing.isEmpty, "different: \(report.differing.prefix(5).map(\.path))")
        #expect(report.unexpected.isEmpty, "unexpected: \(report.unexpected.prefix(5))")
        #expect(report.passed)
    }

    @Test("--check fails on a changed byte, a missing file and a stray file")
    func checkFailsClosed() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tmp) }
        var small = QuickCorpus.generated
        small.files = small.files.filter { $0.key.hasPrefix("sources/png-rgba8") || $0.key == "manifest.json" }
        try CorpusFolder.write(small, to: tmp.path)
        #expect(CorpusFolder.check(small, against: tmp.path).passed)

        let victim = try #require(small.files.keys.sorted().first { $0.hasPrefix("sources/") })
        var bytes = try #require(small.files[victim])
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: tmp.appendingPathComponent(victim))
        try Data([1, 2, 3]).write(to: tmp.appendingPathComponent("sources/stray.png"))
        try FileManager.default.removeItem(at: tmp.appendingPathComponent("manifest.json"))
        let report = CorpusFolder.check(small, against: tmp.path)
        #expect(!report.passed)
        #expect(report.differing.map(\.path) == [victim])
        #expect(report.differing.first?.offset == bytes.count / 2)
        #expect(report.unexpected == ["sources/stray.png"])
        #expect(report.missing == ["manifest.json"])

        // Writing again repairs the folder and removes the stray file.
        try CorpusFolder.write(small, to: tmp.path)
        #expect(CorpusFolder.check(small, against: tmp.path).passed)
    }
}
