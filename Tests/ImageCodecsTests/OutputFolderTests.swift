import Foundation
import Testing
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// ``OutputFolder``: a folder is written as one generation, staged beside it and swapped in
/// whole; the previous generation stays whole until then; stale pages never survive; a folder
/// imglab did not write is refused; what a killed writer left is removed by the next one.
@Suite("output folder generations")
struct OutputFolderTests {
    static func parent() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-generation-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file under `folder`, relative, sorted.
    static func files(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &d) && !d.boolValue }
            .sorted()
    }

    @Test("a second generation replaces the first whole: its pages only, the stale page gone, no staging left")
    func replacesWhole() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let target = parent + "/report"
        let first = try OutputFolder(target)
        try first.write(Array("one".utf8), to: "index.html")
        try first.write(Array("a".utf8), to: "pairs/a.html")
        try first.write(Array("b".utf8), to: "pairs/b.html")
        try first.publish()
        #expect(Self.files(target) == [".imglab-output", "index.html", "pairs/a.html", "pairs/b.html"])

        let second = try OutputFolder(target)
        try second.write(Array("two".utf8), to: "index.html")
        try second.write(Array("a2".utf8), to: "pairs/a.html")
        // Until it is published, the first generation is untouched.
        #expect(FileManager.default.contents(atPath: target + "/index.html") == Data("one".utf8))
        #expect(FileManager.default.fileExists(atPath: target + "/pairs/b.html"))
        try second.publish()
        #expect(Self.files(target) == [".imglab-output", "index.html", "pairs/a.html"])
        #expect(FileManager.default.contents(atPath: target + "/index.html") == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["report"])
    }

    @Test("an abandoned generation leaves nothing: not its staging folder, nor the empty folders made to hold it, while a folder that held something stays")
    func abandonedLeavesNothing() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let generation = try OutputFolder(parent + "/Reports/nested/quick")
        try generation.write(Array("x".utf8), to: "index.html")
        #expect(FileManager.default.fileExists(atPath: parent + "/Reports/nested"))
        generation.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)

        try FileManager.default.createDirectory(atPath: parent + "/Reports", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: parent + "/Reports/notes.txt"))
        let second = try OutputFolder(parent + "/Reports/new/quick")
        second.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent + "/Reports") == ["notes.txt"])
    }

    @Test("a folder holding files imglab did not write is refused, and left as it was")
    func refusesForeignFolder() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try Data("mine".utf8).write(to: URL(fileURLWithPath: parent + "/notes.txt"))
        #expect(throws: EncodeError.self) { _ = try OutputFolder(parent) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["notes.txt"])
        // A regular file where the folder should be is refused too.
        #expect(throws: EncodeError.self) { _ = try OutputFolder(parent + "/notes.txt") }
    }

    @Test("an empty folder and a report folder from before the marker (index.html and pairs/ only) are accepted")
    func acceptsEmptyAndOldReports() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let old = parent + "/old"
        try FileManager.default.createDirectory(atPath: old + "/pairs", withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: old + "/index.html"))
        for target in [parent + "/empty", old] {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let generation = try OutputFolder(target)
            try generation.write(Array("new".utf8), to: "index.html")
            try generation.publish()
            #expect(Self.files(target) == [".imglab-output", "index.html"])
        }
    }

    @Test("the staging folder a killed writer left (its process is gone) is removed by the next writer; a live one's is kept")
    func staleStagingRemoved() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        // A process id that cannot exist (above Linux's pid_max of 2^22) stands for a killed writer.
        let dead = parent + "/.report.imglab-99999999-abc", live = parent + "/.report.imglab-\(getpid())-xyz"
        for folder in [dead, live] { try FileManager.default.createDirectory(atPath: folder + "/pairs", withIntermediateDirectories: true) }
        let generation = try OutputFolder(parent + "/report")
        try generation.write(Array("x".utf8), to: "index.html")
        try generation.publish()
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test("a temporary file a killed writer left beside an output is removed by the next write of that output")
    func staleTemporaryFileRemoved() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try Data("half".utf8).write(to: URL(fileURLWithPath: parent + "/.out.json.imglab-99999999-k1"))
        try ImageCodecs.writeAtomically(Array("{}".utf8), to: parent + "/out.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["out.json"])
    }

    @Test("an abandoned generation leaves the previous folder as it was")
    func abandon() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let first = try OutputFolder(parent + "/r")
        try first.write(Array("one".utf8), to: "index.html")
        try first.publish()
        let second = try OutputFolder(parent + "/r")
        try second.write(Array("two".utf8), to: "index.html")
        second.abandon()
        #expect(FileManager.default.contents(atPath: parent + "/r/index.html") == Data("one".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["r"])
    }
}
