import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import ImageLab
@testable import ImageCorpus

/// `imglab bless` is crash-safe: killed (SIGKILL) after any file write, the previous goldens
/// stay intact and loadable. The kill comes from the command's own fault point
/// (`IMGLAB_FAULT_AFTER_WRITES=N`: SIGKILL right after the N-th file write), so every point checked
/// is exactly the one asked for.
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

    /// The golden PNGs in a store (content-addressed names: 16 hex digits + `.png`).
    static func goldenFiles(_ store: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/files")) ?? []
        return names.count { $0.count == 20 && $0.hasSuffix(".png") && $0.prefix(16).allSatisfy(\.isHexDigit) }
    }

    /// Every entry of `files/`, goldens or not (a write cut short would leave a temporary file).
    static func entries(_ store: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: store + "/files")) ?? []).count
    }

    /// Exit status of a process that SIGKILL ended, as `ImglabRun` reports it (128 + 9).
    static let killed: Int32 = 128 + SIGKILL

    @Test("a bless killed (SIGKILL) after the 1st, ⅓, ⅔ and last golden file leaves the previous goldens intact and loadable; after the index, the new ones")
    func killedBless() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-goldens-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let filter = "colorPatches"
        let first = try ImglabRun.run(["bless", "--corpus", Self.corpus, "--goldens", folder, "--filter", filter, "--threads", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try #require(try Self.state(folder))
        let beforeFiles = Self.goldenFiles(folder)
        try #require(beforeFiles > 0, "the first bless wrote no golden")

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
        try #require(added >= 3, "too few new goldens (\(added)) to stop the bless between writes")

        // Killed after k golden files (k ≤ added): the old index, exactly k new files, nothing half-written.
        for k in Set([1, added / 3, 2 * added / 3, added]).sorted() {
            let store = try copy("kill\(k)")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let run = try ImglabRun.run(second(store), environment: ["IMGLAB_FAULT_AFTER_WRITES": "\(k)"])
            #expect(run.status == Self.killed, "fault point \(k): exit status \(run.status), \(run.stderr)")
            #expect(try Self.state(store) == before, "killed after \(k) of \(added) files, the index is not the previous one")
            #expect(Self.goldenFiles(store) == beforeFiles + k, "killed after \(k) files")
            #expect(Self.entries(store) == beforeFiles + k, "killed after \(k) files, a temporary file is left")
        }
        // Killed right after the index (write added + 1): the new goldens, complete.
        let last = try copy("index")
        defer { try? FileManager.default.removeItem(atPath: last) }
        let indexed = try ImglabRun.run(second(last), environment: ["IMGLAB_FAULT_AFTER_WRITES": "\(added + 1)"])
        #expect(indexed.status == Self.killed, "fault point after the index: exit status \(indexed.status)")
        #expect(try Self.state(last) == after)
        #expect(Self.goldenFiles(last) == beforeFiles + added)

        // A fault point that is not a positive integer is a usage error; nothing is written.
        let bad = try ImglabRun.run(second(folder), environment: ["IMGLAB_FAULT_AFTER_WRITES": "0"])
        #expect(bad.status == 2 && bad.stderr.contains("IMGLAB_FAULT_AFTER_WRITES"), "\(bad.status): \(bad.stderr)")
        #expect(try Self.state(folder) == before && Self.goldenFiles(folder) == beforeFiles)

        // Blessing the same outputs again adds nothing and writes nothing.
        let again = try ImglabRun.run(second(complete))
        #expect(again.status == 0 && again.stdout.contains("0 golden(s) added"), "\(again.stdout)")
        #expect(try Self.state(complete) == after)
    }
}

/// `imglab bless --obsolete` and `--prune` against the committed corpus's manifest.
@Suite("bless --obsolete and --prune")
struct ObsoleteGoldensCommandTests {
    @Test("a golden of a pair the corpus does not have is listed by --obsolete (nothing changes), removed by --prune; run still reads the store")
    func listedThenPruned() throws {
        let dir = try RunCommandTests.temporaryFolder().path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let filter = "png-rgba8-colorPatches-48x32/orient"
        let bless = try ImglabRun.run(["bless", "--corpus", RunCommandTests.corpus, "--goldens", "g", "--filter", filter], in: dir)
        #expect(bless.status == 0, "\(bless.stderr)")
        // A pair renamed away: its entry copied under a name no manifest has.
        var index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/g/index.json"))) as? [String: Any])
        var goldens = try #require(index["goldens"] as? [String: Any])
        goldens["renamed-case-48x32/orient"] = goldens[filter]
        index["goldens"] = goldens
        try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: dir + "/g/index.json"))
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/g/index.json"))
        let listed = try ImglabRun.run(["bless", "--corpus", RunCommandTests.corpus, "--goldens", "g", "--obsolete"], in: dir)
        #expect(listed.status == 0 && listed.stdout.contains("1 obsolete pair(s) with 1 golden(s), 0 unreferenced file(s)")
                && listed.stdout.contains("  renamed-case-48x32/orient"), "\(listed.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/g/index.json")) == before)
        let pruned = try ImglabRun.run(["bless", "--corpus", RunCommandTests.corpus, "--goldens", "g", "--prune"], in: dir)
        #expect(pruned.status == 0 && pruned.stdout.contains("removed"), "\(pruned.stdout)")
        let again = try ImglabRun.run(["bless", "--corpus", RunCommandTests.corpus, "--goldens", "g", "--obsolete"], in: dir)
        #expect(again.stdout.contains("nothing obsolete"), "\(again.stdout)")
        let run = try ImglabRun.run(["run", "--corpus", RunCommandTests.corpus, "--goldens", "g", "--filter", filter, "--report", "none"], in: dir)
        #expect(run.status == 0 && run.stdout.contains("1 pairs: 1 pass"), "\(run.stdout)")
        #expect(try ImglabRun.run(["bless", "--obsolete", "--prune", "--goldens", "g"], in: dir).status == 2)
    }
}
