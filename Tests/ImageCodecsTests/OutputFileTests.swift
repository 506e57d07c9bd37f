import Foundation
import Testing
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// ``OutputFile``: writes land only on new paths and regular files, through a rename; a FIFO,
/// a directory, a symbolic link or a device is refused before anything is created, and a
/// replaced file keeps its permission bits.
@Suite("output file rules")
struct OutputFileTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-output-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The folder's entries, sorted: no temporary file may be left behind.
    static func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test("a new path and a regular file are written; a replaced mode-600 file stays 600")
    func regularFiles() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.txt"
        try ImageCodecs.writeAtomically([1, 2, 3], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
        #expect(chmod(path, 0o600) == 0)
        try ImageCodecs.writeAtomically([4, 5], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(try Self.entries(dir) == ["a.txt"])
    }

    @Test("a FIFO is refused without opening it: no reader is needed, nothing is created")
    func fifo() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pipe"
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: EncodeError.refusedTarget(path: path, found: "a FIFO")) { try ImageCodecs.writeAtomically([1], to: path) }
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try Self.entries(dir) == ["pipe"])
    }

    @Test("a symbolic link is refused, whatever it points to; the link and its target are untouched")
    func symlink() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/target.txt", link = dir + "/link.txt"
        try ImageCodecs.writeAtomically([7, 7], to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: EncodeError.refusedTarget(path: link, found: "a symbolic link")) { try ImageCodecs.writeAtomically([1], to: link) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(FileManager.default.contents(atPath: target) == Data([7, 7]))
        #expect(try Self.entries(dir) == ["link.txt", "target.txt"])
    }

    @Test("a directory is refused and stays a directory")
    func directory() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        #expect(throws: EncodeError.refusedTarget(path: dir + "/sub", found: "a directory")) { try ImageCodecs.writeAtomically([1], to: dir + "/sub") }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir + "/sub", isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("/dev/null is refused as a character device by the check alone; it is never opened for writing")
    func device() throws {
        // Only read-only calls touch /dev/null here: the check is an lstat, and the refusal comes
        // before any temporary file or rename (the write below never reaches them).
        #expect(throws: EncodeError.refusedTarget(path: "/dev/null", found: "a character device")) { _ = try OutputFile.check("/dev/null") }
        var before = stat()
        #expect(lstat("/dev/null", &before) == 0 && before.st_mode & S_IFMT == S_IFCHR)
        #expect(throws: EncodeError.refusedTarget(path: "/dev/null", found: "a character device")) { try ImageCodecs.writeAtomically([1], to: "/dev/null") }
        var after = stat()
        #expect(lstat("/dev/null", &after) == 0 && after.st_mode & S_IFMT == S_IFCHR && after.st_ino == before.st_ino)
    }

    @Test("the identity of a path follows links: a file and a link to it are the same file")
    func identity() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageCodecs.writeAtomically([1], to: dir + "/a")
        try ImageCodecs.writeAtomically([1], to: dir + "/b")
        try FileManager.default.createSymbolicLink(atPath: dir + "/c", withDestinationPath: dir + "/a")
        #expect(OutputFile.identity(dir + "/a") == OutputFile.identity(dir + "/c"))
        #expect(OutputFile.identity(dir + "/a") != OutputFile.identity(dir + "/b"))
        #expect(OutputFile.identity(dir + "/missing") == nil)
    }
}
