import Foundation
import Testing
import ImageCore
@testable import ImageLab

/// Goldens of pairs the corpus no longer has: listed against the corpus's pair ids, removed by a
/// prune that writes the index first and only then the files no remaining golden names, never a
/// file of the user's.
@Suite("Obsolete goldens")
struct ObsoleteGoldensTests {
    static func image(_ v: UInt8) throws -> Image {
        Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgb8, bytes: [v, 20, 30, 40, 50, 60]))
    }

    /// A store: `a/orient` (image 1), `b/orient` (image 2, and image 3), `gone/orient` (image 2,
    /// shared with b, and image 4, its own); a user's note and a PNG not named by a hash in `files/`.
    static func store() throws -> GoldenStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-obsolete-\(UUID().uuidString)").path
        let store = GoldenStore(folder: folder)
        try store.bless([("a/orient", try image(1), "t", [:]), ("b/orient", try image(2), "t", [:]), ("b/orient", try image(3), "t", [:]),
                         ("gone/orient", try image(2), "t", [:]), ("gone/orient", try image(4), "t", [:])])
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/files/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/files/logo.png"))
        return store
    }

    @Test("listed: the pair the corpus no longer has, its two goldens, and the one file only it names; nothing changes")
    func listed() throws {
        let store = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: store.folder) }
        let index = try String(contentsOfFile: store.folder + "/index.json", encoding: .utf8)
        let own = "files/" + (try GoldenStore.pixelHash(Self.image(4))) + ".png"
        let found = try store.obsolete(current: ["a/orient", "b/orient"])
        #expect(found == ObsoleteGoldens(pairs: ["gone/orient"], goldens: 2, files: [own]))
        #expect(try String(contentsOfFile: store.folder + "/index.json", encoding: .utf8) == index)
        #expect(FileManager.default.fileExists(atPath: store.folder + "/" + own))
        #expect(try store.obsolete(current: ["a/orient", "b/orient", "gone/orient"]).isEmpty)
    }

    @Test("pruned: the index keeps the corpus's pairs, every file it names is there, the obsolete file is gone, the user's files stay")
    func pruned() throws {
        let store = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: store.folder) }
        let own = "files/" + (try GoldenStore.pixelHash(Self.image(4))) + ".png"
        let removed = try store.prune(current: ["a/orient", "b/orient"])
        #expect(removed.pairs == ["gone/orient"] && removed.files == [own])
        let index = try store.load()
        #expect(Set(index.goldens.keys) == ["a/orient", "b/orient"] && index.goldens["b/orient"]?.count == 2)
        for golden in index.goldens.values.flatMap({ $0 }) {
            #expect(try GoldenStore.pixelHash(store.image(golden)) == golden.hash, "\(golden.file)")
        }
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/" + own))
        for mine in ["notes.txt", "logo.png"] { #expect(FileManager.default.fileExists(atPath: store.folder + "/files/" + mine)) }
        #expect(try store.obsolete(current: ["a/orient", "b/orient"]).isEmpty)
        // A prune killed after its index, before its files: the next one removes what was left.
        let left = "files/" + (try GoldenStore.pixelHash(Self.image(9))) + ".png"
        try Data("left".utf8).write(to: URL(fileURLWithPath: store.folder + "/" + left))
        #expect(try store.prune(current: ["a/orient", "b/orient"]) == ObsoleteGoldens(pairs: [], goldens: 0, files: [left]))
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/" + left))
    }
}
