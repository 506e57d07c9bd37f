import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import TestSupport

/// `imglab accept` as a library call, in temporary folders: which files a name chooses, what the
/// baseline folder holds after an acceptance and after its undo (compared byte for byte with the
/// files written here), and what is refused before anything changes.
@Suite("baseline acceptance")
struct BaselineAcceptanceTests {
    /// PNG bytes of a 6×4 picture of one grey level.
    static func png(_ level: UInt8) throws -> [UInt8] {
        try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 6, height: 4, format: .rgb8, bytes: [UInt8](repeating: level, count: 72))),
                               as: .png)
    }

    static func put(_ bytes: [UInt8], _ folder: String, _ relative: String) throws {
        let url = URL(fileURLWithPath: folder + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    static func bytes(_ folder: String, _ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: folder + "/" + relative).map { [UInt8]($0) }
    }

    /// baseline/ and actual/: `home.png` and `icons/a.png` changed, `icons/b.png` new, `icons/gone.png`
    /// deleted, `same.png` equal; returns the folders and every file's bytes by side.
    static func folders() throws -> (baseline: String, actual: String, old: [String: [UInt8]], new: [String: [UInt8]]) {
        let root = try ScratchFolder.new("imglab-accept").path
        let baseline = root + "/baseline", actual = root + "/actual"
        let old = ["home.png": try png(10), "icons/a.png": try png(20), "icons/gone.png": try png(30), "same.png": try png(40)]
        let new = ["home.png": try png(11), "icons/a.png": try png(21), "icons/b.png": try png(50), "same.png": try png(40)]
        for (name, data) in old { try put(data, baseline, name) }
        for (name, data) in new { try put(data, actual, name) }
        return (baseline, actual, old, new)
    }

    @Test("accepting one file by name copies the actual over its baseline and keeps the old bytes in the history; nothing else changes")
    func acceptOneFile() throws {
        let f = try Self.folders()
        let outcome = try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["home.png"]).run()
        let entry = try #require(outcome.entry)
        #expect(entry.id == "0001" && entry.kind == .accept && entry.state == .done)
        #expect(entry.files.map(\.path) == ["home.png"])
        #expect(entry.files.first?.before == f.old["home.png"]?.count && entry.files.first?.after == f.new["home.png"]?.count)
        #expect(Self.bytes(f.baseline, "home.png") == f.new["home.png"])
        #expect(Self.bytes(f.baseline, ".imglab-history/0001/before/home.png") == f.old["home.png"])
        for name in ["icons/a.png", "icons/gone.png", "same.png"] { #expect(Self.bytes(f.baseline, name) == f.old[name], "\(name)") }
        #expect(Self.bytes(f.baseline, "icons/b.png") == nil)
    }

    @Test("a glob chooses every file it matches across subfolders: changed files replaced, new ones added, deleted ones removed")
    func acceptGlob() throws {
        let f = try Self.folders()
        let outcome = try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["icons/*.png"]).run()
        let entry = try #require(outcome.entry)
        #expect(entry.files.map(\.path) == ["icons/a.png", "icons/b.png", "icons/gone.png"])
        #expect(entry.files.map(\.verb) == ["replaced", "new", "removed"])
        #expect(Self.bytes(f.baseline, "icons/a.png") == f.new["icons/a.png"])
        #expect(Self.bytes(f.baseline, "icons/b.png") == f.new["icons/b.png"])
        #expect(Self.bytes(f.baseline, "icons/gone.png") == nil)
        #expect(Self.bytes(f.baseline, "home.png") == f.old["home.png"])
        // `*` crosses `/`: "*.png" is every file; the equal one is reported as already accepted.
        let all = try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["*.png"]).run()
        #expect(all.entry?.files.map(\.path) == ["home.png"])
        #expect(all.alreadyAccepted == ["icons/a.png", "icons/b.png", "same.png"])
    }

    @Test("undo puts every file of the latest acceptance back byte for byte (added files removed, removed ones restored), and an undo can be undone")
    func undoFromHistory() throws {
        let f = try Self.folders()
        _ = try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["icons/*", "home.png"]).run()
        let undo = try BaselineAcceptance.undo(f.baseline)
        #expect(undo.entry?.kind == .undo && undo.entry?.undoes == "0001" && undo.entry?.id == "0002")
        for (name, data) in f.old { #expect(Self.bytes(f.baseline, name) == data, "\(name) after undo") }
        #expect(Self.bytes(f.baseline, "icons/b.png") == nil)
        // Nothing left to undo: 0001 is undone, and an undo is not an acceptance.
        #expect(throws: AcceptError.nothingToUndo(f.baseline)) { try BaselineAcceptance.undo(f.baseline) }
        // Undoing the undo (by id) is the acceptance again.
        _ = try BaselineAcceptance.undo(f.baseline, entry: "0002")
        #expect(Self.bytes(f.baseline, "icons/b.png") == f.new["icons/b.png"] && Self.bytes(f.baseline, "icons/gone.png") == nil)
        #expect(try BaselineHistory(baseline: f.baseline).entries().map(\.id) == ["0001", "0002", "0003"])
        #expect(throws: AcceptError.unknownEntry("9", f.baseline + "/.imglab-history")) { try BaselineAcceptance.undo(f.baseline, entry: "9") }
    }

    @Test("a name that chooses no file is refused with that name, and nothing is written, not even a history folder")
    func unmatchedName() throws {
        let f = try Self.folders()
        #expect(throws: AcceptError.nothingChosen(["hme.png"])) {
            try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["home.png", "hme.png"]).run()
        }
        #expect(Self.bytes(f.baseline, "home.png") == f.old["home.png"])
        #expect(!FileManager.default.fileExists(atPath: f.baseline + "/.imglab-history"))
    }

    @Test("a baseline that is a symbolic link is refused before anything changes; its target keeps its bytes")
    func symbolicLinkRefused() throws {
        let f = try Self.folders()
        let target = f.baseline + "/../elsewhere.png"
        try Self.put(try Self.png(99), f.baseline + "/..", "elsewhere.png")
        try FileManager.default.removeItem(atPath: f.baseline + "/home.png")
        try FileManager.default.createSymbolicLink(atPath: f.baseline + "/home.png", withDestinationPath: target)
        #expect(throws: AcceptError.self) { try BaselineAcceptance(baseline: f.baseline, actual: f.actual, names: ["*"]).run() }
        #expect(FileManager.default.contents(atPath: target).map { [UInt8]($0) } == (try Self.png(99)))
        #expect(Self.bytes(f.baseline, "icons/a.png") == f.old["icons/a.png"], "another file changed although one was refused")
        #expect((try BaselineHistory(baseline: f.baseline).entries()).isEmpty)
    }

    @Test("--match stem: accepting a.jpg's key over a.png adds a.jpg and removes a.png (both kept in the history)")
    func stemMatch() throws {
        let root = try ScratchFolder.new("imglab-accept-stem").path
        let baseline = root + "/b", actual = root + "/a"
        let jpeg = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 6, height: 4, format: .rgb8,
                                                                   bytes: [UInt8](repeating: 128, count: 72))), as: .jpeg)
        try Self.put(try Self.png(10), baseline, "photo.png")
        try Self.put(jpeg, actual, "photo.jpg")
        let entry = try #require(try BaselineAcceptance(baseline: baseline, actual: actual, match: .stem, names: ["photo"]).run().entry)
        #expect(entry.files.map(\.path) == ["photo.jpg", "photo.png"] && entry.files.map(\.verb) == ["new", "removed"])
        #expect(Self.bytes(baseline, "photo.jpg") == jpeg && Self.bytes(baseline, "photo.png") == nil)
        #expect(Self.bytes(baseline, ".imglab-history/0001/before/photo.png") == (try Self.png(10)))
    }

    @Test("accepting the failing files of a folder diff's results leaves the folder diff passing, and the history is never paired")
    func acceptFromResults() throws {
        let f = try Self.folders()
        let before = try FolderDiff(expected: f.baseline, actual: f.actual, threads: 1).run()
        #expect(before.exitStatus == 1 && before.results.summary.changed == 2)
        let json = f.baseline + "/../diff.json"
        try Data(before.json.utf8).write(to: URL(fileURLWithPath: json))
        let outcome = try BaselineAcceptance(resultsFile: json).run()
        #expect(outcome.entry?.files.count == 4)
        let after = try FolderDiff(expected: f.baseline, actual: f.actual, threads: 1).run()
        #expect(after.exitStatus == 0, "\(after.results.summary.line)")
        #expect(after.results.summary.keys == 4, "history files paired: \(after.results.items.map(\.key))")
        // The same results again: every key already accepted (a deleted key is gone from both folders).
        let again = try BaselineAcceptance(resultsFile: json).run()
        #expect(again.entry == nil && again.alreadyAccepted.sorted() == ["home.png", "icons/a.png", "icons/b.png", "icons/gone.png"])
    }
}
