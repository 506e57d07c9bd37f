import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension OutputFile {
    /// Appends `bytes` to the file at `path` in one `write` (`O_APPEND`), creating it when absent:
    /// for a file another program owns and reads after the command, such as a CI service's step
    /// summary, where appending is the protocol and a replacement would lose what others wrote.
    /// Only a regular file is appended to: a symbolic link, FIFO, device or directory is refused
    /// without being written (a FIFO without a reader is not waited for).
    /// - Throws: ``EncodeError/refusedTarget(path:found:)`` or ``EncodeError/io(path:reason:)``.
    public static func append(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        _ = try check(path)
        let fd = FileSystemName.withRepresentation(path) {
            open($0, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o666)
        }
        guard fd >= 0 else {
            let err = errno
            if err == ELOOP || err == ENXIO { throw .refusedTarget(path: path, found: err == ELOOP ? "a symbolic link" : "a FIFO") }
            throw .io(path: path, reason: String(cString: strerror(err)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .refusedTarget(path: path, found: description(ofKind: info.st_mode & S_IFMT))
        }
        if let failure = writeAll(bytes, to: fd) { throw .io(path: path, reason: failure) }
    }
}
