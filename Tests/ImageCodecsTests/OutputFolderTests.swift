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

    /// Publishes a generation holding only `index.html` with `text` at `target`.
    static func publishIndex(_ text: String, at target: String) throws {
        let generation = try OutputFolder(target)
        try generation.write(Array(text.utf8), to: "index.html")
        try generation.publish()
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

    @Test("an empty folder, and a report whose empty marker predates the manifest and holds only report files, are accepted")
    func acceptsEmptyAndOldReports() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let old = parent + "/old"
        try FileManager.default.createDirectory(atPath: old + "/pairs", withIntermediateDirectories: true)
        for file in ["index.html", "pairs/0001-a.html", "results.json", OutputFolder.marker] {
            try Data().write(to: URL(fileURLWithPath: old + "/" + file))
        }
        for target in [parent + "/empty", old] {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            try Self.publishIndex("new", at: target)
            #expect(Self.files(target) == [".imglab-output", "index.html"])
        }
    }

    @Test("the manifest lists every file of the generation; a file it does not list, anywhere in the folder, is kept and the folder refused")
    func manifestGuardsUserFiles() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let target = parent + "/report"
        let first = try OutputFolder(target)
        try first.write(Array("one".utf8), to: "index.html")
        try first.write(Array("a".utf8), to: "pairs/a.html")
        try first.publish()
        let manifest = try #require(FileManager.default.contents(atPath: target + "/" + OutputFolder.marker))
        let object = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
        #expect(object["files"] as? [String] == ["index.html", "pairs/a.html"])
        #expect(object["schema"] as? String == OutputFolder.manifestSchema)

        // A note beside the pages, a page of the same name as a listed folder's, a symbolic link: each refused.
        for (extra, isLink) in [("pairs/notes.txt", false), ("notes.txt", false), ("pairs/b.html", false), ("link", true)] {
            let path = target + "/" + extra
            if isLink { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: parent) }
            else { try Data("mine".utf8).write(to: URL(fileURLWithPath: path)) }
            #expect(throws: EncodeError.self, "\(extra)") { _ = try OutputFolder(target) }
            do { _ = try OutputFolder(target) } catch { #expect("\(error)".contains("'\(extra)'"), "the refusal names \(extra)") }
            #expect(FileManager.default.fileExists(atPath: path) || isLink)
            try FileManager.default.removeItem(atPath: path)
        }
        // The user's folder of their own inside a report is theirs too.
        try FileManager.default.createDirectory(atPath: target + "/mine", withIntermediateDirectories: true)
        #expect(throws: EncodeError.self) { _ = try OutputFolder(target) }
        try FileManager.default.removeItem(atPath: target + "/mine")
        // With nothing added, the next generation replaces the folder.
        try Self.publishIndex("two", at: target)
        #expect(Self.files(target) == [".imglab-output", "index.html"])
    }

    @Test("a user's own index.html with no marker, and a marker-less pairs/ folder, are refused and kept")
    func refusesReportLookalikes() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let own = parent + "/site"
        try FileManager.default.createDirectory(atPath: own + "/pairs", withIntermediateDirectories: true)
        try Data("my page".utf8).write(to: URL(fileURLWithPath: own + "/index.html"))
        try Data("note".utf8).write(to: URL(fileURLWithPath: own + "/pairs/notes.txt"))
        #expect(throws: EncodeError.self) { _ = try OutputFolder(own) }
        #expect(FileManager.default.contents(atPath: own + "/index.html") == Data("my page".utf8))
        // An old empty marker does not make a user's note a report file.
        try Data().write(to: URL(fileURLWithPath: own + "/" + OutputFolder.marker))
        #expect(throws: EncodeError.self) { _ = try OutputFolder(own) }
        #expect(FileManager.default.contents(atPath: own + "/pairs/notes.txt") == Data("note".utf8))
    }

    @Test("a new folder inside a report folder or inside a corpus is refused: imglab writes those whole")
    func refusesInsideWholeFolders() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try Self.publishIndex("x", at: parent + "/report")
        #expect(throws: EncodeError.self) { _ = try OutputFolder(parent + "/report/nested") }
        #expect(throws: EncodeError.self) { _ = try OutputFolder(parent + "/report/a/b") }
        let corpus = parent + "/Corpus"
        try FileManager.default.createDirectory(atPath: corpus + "/oracle", withIntermediateDirectories: true)
        for file in ["manifest.json", "gates.json"] { try Data("{}".utf8).write(to: URL(fileURLWithPath: corpus + "/" + file)) }
        #expect(throws: EncodeError.self) { _ = try OutputFolder(corpus + "/oracle/report") }
        #expect(throws: EncodeError.self) { _ = try OutputFolder(corpus + "/report") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() == ["gates.json", "manifest.json", "oracle"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: corpus + "/oracle").isEmpty)
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

    @Test("the temporary files and staging folders killed writers left in a folder are removed by the next write into it, whatever they were for")
    func staleTemporaryFileRemoved() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try Data("half".utf8).write(to: URL(fileURLWithPath: parent + "/.out.json.imglab-99999999-k1"))
        // Another output's, another run's staging folder and its previous generation set aside: all of dead writers.
        try Data("half".utf8).write(to: URL(fileURLWithPath: parent + "/.junit.xml.imglab-99999998-zz9"))
        for folder in [".report.imglab-99999997-a1", ".report.imglab-99999997-a1-old"] {
            try FileManager.default.createDirectory(atPath: parent + "/" + folder + "/pairs", withIntermediateDirectories: true)
        }
        // A user's file that only looks alike (no process id) stays.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: parent + "/.notes.imglab-draft"))
        try ImageCodecs.writeAtomically(Array("{}".utf8), to: parent + "/out.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == [".notes.imglab-draft", "out.json"])
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
