import Foundation
#if canImport(Glibc)
import Glibc
private let writeDescriptor = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let writeDescriptor = Darwin.write
#endif

/// The rules of every file imglab writes (docs/safe-writes.md): a file is written whole to a
/// temporary file in the same folder, then renamed over the path, and only onto a new path or
/// an existing regular file, whose permission bits the new file keeps. Anything else at the
/// path — a directory, a FIFO, a socket, a character or block device, or a symbolic link (of
/// any target) — is refused before anything is created or renamed.
public enum OutputFile {
    /// Which file a path names: its device and inode numbers (`stat`, following symbolic links).
    public struct Identity: Sendable, Hashable {
        /// `st_dev`.
        public var device: UInt64
        /// `st_ino`.
        public var inode: UInt64
    }

    /// The file `path` names, following symbolic links, or `nil` when nothing is there.
    public static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard FileSystemName.withRepresentation(path, { stat($0, &info) }) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Checks that `path` may be written: nothing is there, or a regular file (not a symbolic link).
    /// - Returns: the permission bits (`st_mode & 0o7777`) of the regular file there, `nil` for a new path.
    /// - Throws: ``EncodeError/refusedTarget(path:found:)`` naming what is there, or
    ///   ``EncodeError/io(path:reason:)`` when the path cannot be examined.
    public static func check(_ path: String) throws(EncodeError) -> mode_t? {
        try checkNameLength(path)
        var info = stat()
        guard FileSystemName.withRepresentation(path, { lstat($0, &info) }) == 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw .refusedTarget(path: path, found: description(ofKind: kind)) }
        return info.st_mode & 0o7777
    }

    /// What a file of type `kind` (`st_mode & S_IFMT`) is, with its article.
    public static func description(ofKind kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// The path that names standard output (`-o -`).
    public static let standardOutput = "-"

    /// Writes `bytes` to `path` by the rules above: the path is checked first, the bytes go to
    /// a new temporary file beside it (created with mode 0666 less the umask, then given the
    /// replaced file's permission bits), and a rename puts it in place, so a reader never sees
    /// a half-written file. The temporary file is removed when anything fails; one left by a
    /// killed process (its name holds the dead process's id) is removed by the next write
    /// beside it. `-` (``standardOutput``) writes the bytes to standard output instead.
    public static func write(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        if path == standardOutput {
            if let failure = writeAll(bytes, to: STDOUT_FILENO) { throw .io(path: "standard output", reason: failure) }
            return
        }
        let keptMode = try check(path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        StaleTemporaries.remove(in: folder)
        try writeNew(bytes, to: path, folder: folder, name: url.lastPathComponent, keptMode: keptMode)
    }

    /// The start of the names of `name`'s temporary files: `.NAME.imglab-`, then the writing
    /// process's id, `-` and a random suffix.
    static func temporaryPrefix(_ name: String) -> String { "." + name + ".imglab-" }

    /// The longest file name the temporary name beside it leaves room for, in bytes: a name has at
    /// most 255 (`NAME_MAX`), and the temporary one adds ``temporaryPrefix(_:)``'s 9 bytes, a
    /// process id (up to 7 digits) and a dash with 13 random base-36 digits.
    public static let maxNameBytes = 255 - 9 - 7 - 1 - 13

    /// Refuses a path whose last component is too long for its temporary name beside it, before
    /// any work (the write would fail with ENAMETOOLONG after it).
    /// - Throws: ``EncodeError/io(path:reason:)``.
    static func checkNameLength(_ path: String) throws(EncodeError) {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.utf8.count <= maxNameBytes else {
            throw .io(path: path, reason: "its name is \(name.utf8.count) bytes, and imglab writes through a temporary file "
                + "beside it whose name is 30 bytes longer: a name may have at most \(maxNameBytes) bytes")
        }
    }

    /// The temporary name for `name` in `folder`, unique to this process and call.
    static func temporaryPath(folder: String, name: String) -> String {
        folder + "/" + temporaryPrefix(name) + String(getpid()) + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    /// Writes through a temporary file and a rename, without checking the target or sweeping.
    static func writeNew(_ bytes: [UInt8], to path: String, folder: String, name: String, keptMode: mode_t?) throws(EncodeError) {
        let temporary = temporaryPath(folder: folder, name: name)
        let fd = FileSystemName.withRepresentation(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
        guard fd >= 0 else { throw .io(path: path, reason: "cannot create a temporary file beside it: \(String(cString: strerror(errno)))") }
        var failure = writeAll(bytes, to: fd)
        if failure == nil, let keptMode, fchmod(fd, keptMode) != 0 { failure = "cannot keep the mode \(String(keptMode, radix: 8)): \(String(cString: strerror(errno)))" }
        if close(fd) != 0, failure == nil { failure = "cannot write: \(String(cString: strerror(errno)))" }
        if failure == nil, FileSystemName.withRepresentation(temporary, { t in FileSystemName.withRepresentation(path) { rename(t, $0) } }) != 0 { failure = "cannot rename the temporary file over it: \(String(cString: strerror(errno)))" }
        if let failure {
            _ = FileSystemName.withRepresentation(temporary) { unlink($0) }
            throw .io(path: path, reason: failure)
        }
    }

    /// Writes every byte to the open descriptor `fd`, retrying after interruptions.
    /// - Returns: why it could not, or `nil`.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count, failure == nil {
                let n = writeDescriptor(fd, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                if n < 0 { if errno != EINTR { failure = "cannot write: \(String(cString: strerror(errno)))" } } else { done += n }
            }
        }
        return failure
    }
}
