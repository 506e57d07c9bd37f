import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock(2)`) on a lock file, held until ``release()`` or the
/// process ends (the kernel drops it on exit, so a killed holder never leaves it locked).
/// Writers of a shared store take it around read-modify-write, so two never lose each
/// other's work.
public final class FileLock: @unchecked Sendable {
    private var descriptor: Int32

    /// Waits for and takes the lock on `path`, creating the file when missing.
    /// - Throws: ``EncodeError/io(path:reason:)`` when the file cannot be opened or locked.
    public init(_ path: String) throws(EncodeError) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .refusedTarget(path: path, found: OutputFile.description(ofKind: info.st_mode & S_IFMT))
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot open the lock file: \(String(cString: strerror(errno)))") }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                descriptor = -1
                throw .io(path: path, reason: "cannot lock: \(reason)")
            }
        }
    }

    /// Releases the lock (idempotent).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
