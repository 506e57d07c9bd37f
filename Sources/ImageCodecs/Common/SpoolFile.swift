import Foundation
#if canImport(Glibc)
import Glibc
private let readDescriptor = Glibc.pread
#elseif canImport(Darwin)
import Darwin
private let readDescriptor = Darwin.pread
#endif

/// A scratch file with no name: bytes are appended to it while a command works and read back
/// from the start at the end (e.g. a run's JSON records, streamed as pairs are judged, before
/// the header that counts them is known). It is unlinked from its folder as soon as it is
/// created, so nothing of it survives the process, even a kill; the bytes live on disk, not in
/// memory (appends are gathered in a buffer of ``bufferSize`` bytes).
public final class SpoolFile: @unchecked Sendable {
    /// Bytes gathered before they are written to the file (256 KiB).
    public static let bufferSize = 256 * 1024

    private let fd: Int32
    private let folder: String
    private var buffer: [UInt8] = []
    /// Bytes appended so far.
    public private(set) var count = 0

    /// Creates the file in `folder` (`""`: the current folder) and unlinks it at once.
    /// - Throws: ``EncodeError/io(path:reason:)`` when it cannot be created.
    public init(folder: String) throws(EncodeError) {
        self.folder = folder.isEmpty ? "." : folder
        let path = OutputFile.temporaryPath(folder: self.folder, name: "spool")
        let fd = FileSystemName.withRepresentation(path) { open($0, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .io(path: self.folder, reason: "cannot create a scratch file in it: \(String(cString: strerror(errno)))") }
        _ = FileSystemName.withRepresentation(path) { unlink($0) }
        self.fd = fd
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit { close(fd) }

    /// Appends `bytes`.
    /// - Throws: ``EncodeError/io(path:reason:)`` when the file cannot be written (disk full).
    public func append(_ bytes: some Collection<UInt8>) throws(EncodeError) {
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends the UTF-8 bytes of `text`.
    public func append(_ text: String) throws(EncodeError) {
        try append(text.utf8)
    }

    /// Every byte appended so far, from the first, in pieces of at most `chunk` bytes.
    /// - Throws: ``EncodeError/io(path:reason:)`` when the file cannot be read, or what `body` throws.
    public func forEachPiece(chunk: Int = 1 << 20, _ body: ([UInt8]) throws(EncodeError) -> Void) throws(EncodeError) {
        try flush()
        var offset = 0
        var piece = [UInt8](repeating: 0, count: max(1, chunk))
        while offset < count {
            let wanted = min(piece.count, count - offset)
            let n = piece.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, wanted, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: folder, reason: "cannot read back a scratch file: \(String(cString: strerror(errno)))")
            }
            guard n > 0 else { throw .io(path: folder, reason: "a scratch file is shorter than was written") }
            try body(n == piece.count ? piece : Array(piece[..<n]))
            offset += n
        }
    }

    private func flush() throws(EncodeError) {
        guard !buffer.isEmpty else { return }
        if let failure = OutputFile.writeAll(buffer, to: fd) { throw .io(path: folder, reason: "scratch file: \(failure)") }
        buffer.removeAll(keepingCapacity: true)
    }
}
