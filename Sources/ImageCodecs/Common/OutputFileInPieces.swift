import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written in pieces by the rules of ``OutputFile`` (docs/safe-writes.md): the path is
/// checked first, the pieces go to a new temporary file beside it, and ``commit()`` renames it
/// over the path (keeping the replaced file's permission bits), so a reader sees the old file
/// or the whole new one, never part of it; ``abandon()`` (or a failed commit) removes the
/// temporary file, and one left by a killed process is removed by the next write beside it.
/// For files too large to hold in memory at once (a full run's results). `-`
/// (``OutputFile/standardOutput``) writes the pieces to standard output as they come.
public final class OutputFileInPieces: @unchecked Sendable {
    /// The path written.
    public let path: String
    private let temporary: String?
    private let keptMode: mode_t?
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// Why a write failed; every later write and the commit fail with it.
    private var failure: String?
    /// Committed or abandoned: the temporary file is gone (renamed or removed).
    private var finished = false

    /// Checks `path`, removes stale temporary files beside it, and creates this one's.
    /// - Throws: ``EncodeError/refusedTarget(path:found:)`` when something imglab may not
    ///   replace is at `path`, ``EncodeError/io(path:reason:)`` when the temporary file cannot be made.
    public convenience init(_ path: String) throws(EncodeError) {
        if path == OutputFile.standardOutput {
            self.init(path: path, temporary: nil, keptMode: nil, fd: STDOUT_FILENO)
            return
        }
        let keptMode = try OutputFile.check(path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        StaleTemporaries.remove(in: folder)
        try self.init(unchecked: path, folder: folder, name: url.lastPathComponent, keptMode: keptMode)
    }

    /// The temporary file of `path` in `folder`, without checking the target or sweeping (a file of a staging folder).
    convenience init(unchecked path: String, folder: String, name: String, keptMode: mode_t?) throws(EncodeError) {
        let temporary = OutputFile.temporaryPath(folder: folder, name: name)
        let fd = FileSystemName.withRepresentation(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
        guard fd >= 0 else { throw .io(path: path, reason: "cannot create a temporary file beside it: \(String(cString: strerror(errno)))") }
        self.init(path: path, temporary: temporary, keptMode: keptMode, fd: fd)
    }

    private init(path: String, temporary: String?, keptMode: mode_t?, fd: Int32) {
        self.path = path
        self.temporary = temporary
        self.keptMode = keptMode
        self.fd = fd
        buffer.reserveCapacity(SpoolFile.bufferSize)
    }

    deinit { abandon() }

    /// Appends `bytes`.
    /// - Throws: ``EncodeError/io(path:reason:)`` when they cannot be written.
    public func append(_ bytes: some Collection<UInt8>) throws(EncodeError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= SpoolFile.bufferSize { try flush() }
    }

    /// Appends the UTF-8 bytes of `text`.
    public func append(_ text: String) throws(EncodeError) {
        try append(text.utf8)
    }

    /// Appends every byte of `spool`, from its first.
    public func append(_ spool: SpoolFile) throws(EncodeError) {
        try flush()
        try spool.forEachPiece { piece throws(EncodeError) in try self.write(piece) }
    }

    /// Puts the whole file at ``path``.
    /// - Throws: ``EncodeError/io(path:reason:)`` when it cannot be written, its mode kept, or renamed.
    public func commit() throws(EncodeError) {
        try flush()
        guard let temporary else { return }
        guard !finished else { throw .io(path: path, reason: "written already") }
        finished = true
        if let keptMode, fchmod(fd, keptMode) != 0 { failure = "cannot keep the mode \(String(keptMode, radix: 8)): \(String(cString: strerror(errno)))" }
        let closed = close(fd)
        fd = -1
        if closed != 0, failure == nil { failure = "cannot write: \(String(cString: strerror(errno)))" }
        if failure == nil, FileSystemName.withRepresentation(temporary, { t in FileSystemName.withRepresentation(path) { rename(t, $0) } }) != 0 {
            failure = "cannot rename the temporary file over it: \(String(cString: strerror(errno)))"
        }
        if let failure {
            _ = FileSystemName.withRepresentation(temporary) { unlink($0) }
            throw .io(path: path, reason: failure)
        }
    }

    /// Removes the temporary file without touching ``path`` (nothing once committed).
    public func abandon() {
        guard let temporary, !finished else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        _ = FileSystemName.withRepresentation(temporary) { unlink($0) }
    }

    private func flush() throws(EncodeError) {
        guard !buffer.isEmpty else { return }
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) throws(EncodeError) {
        if let failure { throw .io(path: path, reason: failure) }
        if finished { throw .io(path: path, reason: "written already") }
        if let failure = OutputFile.writeAll(bytes, to: fd) {
            self.failure = failure
            throw .io(path: path, reason: failure)
        }
    }
}
