import Foundation
import Testing
import ImageCorpus
@testable import ImageLab

/// What imglab carries inside its binary, so that it judges from any folder: the reviewed gates
/// and the bundled resizer configs are the files of the repository, byte for byte, and a folder
/// without a corpus of its own gets one generated into the cache.
@Suite("Files built into imglab")
struct BuiltInFilesTests {
    @Test("the built-in gates are Corpus/gates.json byte for byte, and parse as a gate book with canaries")
    func gates() throws {
        let file = try #require(FileManager.default.contents(atPath: QuickCorpus.packageRoot.appendingPathComponent("Corpus/gates.json").path))
        #expect(file == Data(ReviewedGates.text.utf8), "run scripts/derive-gates.py, or copy Corpus/gates.json into ReviewedGates.swift")
        let book = GateBook.builtIn
        #expect(!book.file.families.isEmpty && !book.file.canaries.isEmpty)
    }

    @Test("the bundled resizer files are benchmarks/resizers/ byte for byte (scripts/bundle-resizers writes them)")
    func resizers() throws {
        let folder = QuickCorpus.packageRoot.appendingPathComponent("benchmarks/resizers").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(BundledResizers.files.map(\.name) == names)
        for file in BundledResizers.files {
            #expect(FileManager.default.contents(atPath: folder + "/" + file.name) == Data(file.text.utf8), "\(file.name) differs: run scripts/bundle-resizers")
        }
    }

    @Test("a bundled config is found by name, and its {dir} holds the scripts it runs")
    func bundledConfigByName() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        #expect(try ResizerChoice.adapter("pillow").name == "pillow")
        #expect(try ResizerChoice.adapter("config:imglab-cli").name == "imglab-cli")
        let folder = try BundledResizers.folder(cache: cache)
        #expect(folder.hasPrefix(cache))
        #expect(FileManager.default.contents(atPath: folder + "/pillow_resize.py") == Data(try #require(BundledResizers.files.first { $0.name == "pillow_resize.py" }).text.utf8))
        #expect(throws: ResizerConfigError.self) { try ResizerChoice.adapter("no-such-resizer") }
    }

    @Test("with no corpus in the working folder, the quick corpus is generated once into the cache folder, gates.json included, and found there the second time")
    func corpusInCache() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-cache-\(UUID().uuidString)").path
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-no-corpus-\(UUID().uuidString)/Corpus").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let first = try CorpusLocation.resolve(nil, profile: .quick, threads: 2, local: local, cache: cache)
        #expect(first.folder.hasPrefix(cache))
        #expect(first.note?.contains("generated the quick corpus into") == true)
        #expect(FileManager.default.contents(atPath: first.folder + "/gates.json") == Data(ReviewedGates.text.utf8))
        #expect(try LabRunner.manifest(corpus: first.folder).profile == "quick")
        let second = try CorpusLocation.resolve(nil, profile: .quick, threads: 2, local: local, cache: cache)
        #expect(second.folder == first.folder)
        #expect(second.note?.contains("using the quick corpus") == true)
        // A corpus of the profile in the working folder is used; what the user names is taken as named.
        let committed = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path
        #expect(try CorpusLocation.resolve(nil, profile: .quick, local: committed, cache: cache) == .init(folder: committed, note: nil))
        #expect(try CorpusLocation.resolve("elsewhere", profile: .quick, cache: cache).folder == "elsewhere")
    }
}
