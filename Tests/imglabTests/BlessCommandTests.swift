import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import ImageLab
@testable import ImageCorpus

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

    /// The golden PNGs in a store (content-addressed names: 16 hex digits + `.png`; a killed
    /// atomic write may leave a temporary file, which is not a golden).
    static func goldenFiles(_ store: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/files")) ?? []
        return names.count { $0.count == 20 && $0.hasSuffix(".png") && $0.prefix(16).allSatisfy(\.isHexDigit) }
    }

    /// Starts `imglab bless`, watches its golden folder from outside and sends SIGKILL once it
    /// holds `threshold` golden files. Returns whether the signal killed it (false: it finished first).
    static func blessKilled(_ arguments: [String], store: String, threshold: Int) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ImglabRun.executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning {
            if goldenFiles(store) >= threshold {
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(200)
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    @Test("a bless killed from outside (SIGKILL) at several points of its writes leaves the previous goldens intact and loadable")
    func killedBless() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-goldens-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let filter = "colorPatches"
        let first = try ImglabRun.run(["bless", "--corpus", Self.corpus, "--goldens", folder, "--filter", filter, "--threads", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try #require(try Self.state(folder))
        let beforeFiles = Self.goldenFiles(folder)

        func copy(_ name: String) throws -> String {
            let target = folder + "-" + name
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: folder, toPath: target)
            return target
        }
        // The broken resizer's outputs of the same pairs: new golden files, then the index.
        func second(_ store: String) -> [String] {
            ["bless", "--corpus", Self.corpus, "--goldens", store, "--filter", filter, "--resizer", "swap-rb", "--threads", "2"]
        }
        // The state a complete second bless reaches.
        let complete = try copy("complete")
        defer { try? FileManager.default.removeItem(atPath: complete) }
        let done = try ImglabRun.run(second(complete))
        #expect(done.status == 0, "\(done.stderr)")
        let after = try #require(try Self.state(complete))
        #expect(after != before)
        let added = Self.goldenFiles(complete) - beforeFiles
        try #require(added >= 12, "too few new goldens (\(added)) to kill the bless between writes")

        // Kill after the first new file, a third and two thirds of them. The store must always be
        // the previous state or the complete new one; a kill before the index leaves `before`.
        var midWrite: [Int] = []
        for k in [1, added / 3, 2 * added / 3] {
            let store = try copy("kill\(k)")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let killed = try Self.blessKilled(second(store), store: store, threshold: beforeFiles + k)
            #expect(killed, "bless finished before \(k) new golden files appeared")
            let state = try Self.state(store)
            let files = Self.goldenFiles(store)
            #expect(state == before || state == after, "after a kill at \(k) of \(added) files the index is neither the old nor the new one")
            #expect(files >= beforeFiles + k)
            if state == before && files < beforeFiles + added { midWrite.append(k) }
        }
        // Watching from outside cannot pin the exact write, but the write phase is long (a PNG per
        // pair) next to the 0.2 ms poll: several kills land between writes, before the index.
        #expect(midWrite.count >= 2, "only the kills at \(midWrite) landed between the file writes and the index")

        // Blessing the same outputs again adds nothing and writes nothing.
        let again = try ImglabRun.run(second(complete))
        #expect(again.status == 0 && again.stdout.contains("0 golden(s) added"), "\(again.stdout)")
        #expect(try Self.state(complete) == after)
    }
}
