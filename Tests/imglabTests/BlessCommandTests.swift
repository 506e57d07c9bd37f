import Foundation
import Testing
import ImageLab

/// `imglab bless` is crash-safe: killed (SIGKILL) after any file write, the previous goldens
/// stay intact and loadable.
@Suite("Bless command")
struct BlessCommandTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus").path

    /// The index bytes, and a check that every golden it names decodes to pixels with its hash.
    static func state(_ folder: String) throws -> Data? {
        let store = GoldenStore(folder: folder)
        let index = try store.load()
        for (pair, goldens) in index.goldens {
            for g in goldens {
                let image = try store.image(g)
                #expect(try GoldenStore.pixelHash(image) == g.hash, "\(pair): \(g.file) does not hold its pixels")
            }
        }
        return FileManager.default.contents(atPath: folder + "/index.json")
    }

    @Test("a bless killed after each of its writes leaves the previous goldens intact and loadable")
    func killedBless() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-goldens-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = ["bless", "--corpus", Self.corpus, "--goldens", folder]
        let first = try ImglabRun.run(base + ["--filter", "png-rgba8-colorPatches"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try #require(try Self.state(folder))
        #expect(try GoldenStore(folder: folder).load().goldens.count == 5)

        // The broken resizer's outputs of the same 5 pairs: 5 new images, then the index (6 writes).
        // Each kill point starts from a copy of the first state (files a killed bless wrote are
        // content-addressed, so a later bless would skip them and shift the points).
        func copy(_ name: String) throws -> String {
            let target = folder + "-" + name
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: folder, toPath: target)
            return target
        }
        func second(_ store: String) -> [String] {
            ["bless", "--corpus", Self.corpus, "--goldens", store, "--filter", "png-rgba8-colorPatches", "--resizer", "swap-rb"]
        }
        for point in 1...5 {
            let store = try copy("kill\(point)")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let killed = try ImglabRun.run(second(store), environment: ["IMGLAB_BLESS_KILL_AFTER": "\(point)"])
            #expect(killed.status == 128 + 9, "bless was not killed after write \(point): \(killed.stdout) \(killed.stderr)")
            #expect(try Self.state(store) == before, "the index changed after a kill at write \(point)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/files").count == 5 + point)
        }
        // Killed right after the index write: the new state is complete.
        let store = try copy("kill6")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let last = try ImglabRun.run(second(store), environment: ["IMGLAB_BLESS_KILL_AFTER": "6"])
        #expect(last.status == 128 + 9)
        let after = try #require(try Self.state(store))
        #expect(after != before)
        let goldens = try GoldenStore(folder: store).load().goldens
        #expect(goldens.count == 5 && goldens.values.allSatisfy { $0.count == 2 })
        #expect(goldens.values.allSatisfy { $0[1].resizer == "swap-rb(builtin)" && $0[1].oracleDistance["visible.mean"] != nil })

        // Blessing the same outputs again adds nothing and writes nothing.
        let again = try ImglabRun.run(second(store))
        #expect(again.status == 0 && again.stdout.contains("0 golden(s) added"), "\(again.stdout)")
        #expect(try Self.state(store) == after)
    }
}
