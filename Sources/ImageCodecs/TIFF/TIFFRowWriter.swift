import CImageShim
import Foundation
import ImageCore
#if canImport(Glibc)
import Glibc
private let readDescriptor = Glibc.pread
#elseif canImport(Darwin)
import Darwin
private let readDescriptor = Darwin.pread
#endif

/// Writes a one-page TIFF a band of rows at a time, so an image larger than memory can be
/// encoded, then hands the file's bytes back in pieces.
///
/// libtiff must seek (it goes back to the header to point at the directory it writes last), so
/// the strips go to a scratch file with no name (created in a folder the caller names and
/// unlinked at once, so nothing survives the process) and ``finish(_:)`` reads the file back:
/// the file is written to disk twice, and memory holds one strip (64 KiB of rows, as the
/// whole-image encoder cuts them, or one row when a row is longer), libtiff's strip tables and a
/// piece of 1 MiB.
///
/// The bytes are those ``ImageCodecs/encode(_:as:options:)`` writes for the same pixels (an
/// upright image without an ICC profile): the same written format (``TIFFCodec``'s rules, each
/// band converted exactly as the whole image would be), the same fields, strips of the same
/// rows and compression (`tiffCompression` with its predictor). PlanarConfiguration 2
/// (`tiffPlanar`) is refused: its file holds every row's first plane before any second one.
///
/// Once the library has failed, every later call throws that error again (the file is incomplete).
public final class TIFFRowWriter {
    /// Image width, pixels.
    public let width: Int
    /// Image height, pixels.
    public let height: Int
    /// The format rows are handed in.
    public let format: PixelFormat
    /// The format the file stores (``format`` converted by the whole-image encoder's rules).
    public let storedFormat: PixelFormat
    /// Rows written so far.
    public private(set) var rowsWritten = 0

    private let writer: OpaquePointer
    private let fd: Int32
    private let folder: String
    private let rowBytes: Int
    private let rowsPerStrip: Int
    /// Rows of the strip being gathered, stored.
    private var strip: [UInt8] = []
    private var finished = false
    /// libtiff's failure, thrown again by every later call.
    private var failure: EncodeError?

    /// Whether a `format` image with `options` can be written row by row.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for planar storage.
    public static func check(format: PixelFormat, options: EncodeOptions) throws(EncodeError) {
        let samples = TIFFEncoder.writtenFormat(for: format).slotCount
        if options.tiffPlanar && samples > 1 {
            throw .invalidOption("a planar TIFF (PlanarConfiguration 2) cannot be written row by row")
        }
    }

    /// Starts a `width × height` file of rows in `format`, written with `options`
    /// (`tiffCompression`, `tiffPlanar`), its scratch file in `scratchFolder`.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for planar storage or a size TIFF cannot hold
    ///   (each side 1…2³² − 1), ``EncodeError/io(path:reason:)`` when the scratch file cannot be
    ///   made, ``EncodeError/library(_:_:)`` when libtiff refuses.
    public init(width: Int, height: Int, format: PixelFormat, options: EncodeOptions = EncodeOptions(),
                scratchFolder: String) throws(EncodeError) {
        try Self.check(format: format, options: options)
        guard (1...Int(UInt32.max)).contains(width), (1...Int(UInt32.max)).contains(height) else {
            throw .invalidOption("a TIFF holds 1…2³² − 1 pixels a side, not \(width) × \(height)")
        }
        let stored = TIFFEncoder.writtenFormat(for: format)
        let page = TIFFEncoder.Page(width: width, height: height, format: stored, options: options, orientation: .up)
        let folder = scratchFolder.isEmpty ? "." : scratchFolder
        let path = OutputFile.temporaryPath(folder: folder, name: "tiff")
        let fd = FileSystemName.withRepresentation(path) { open($0, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .io(path: folder, reason: "cannot create a scratch file in it: \(String(cString: strerror(errno)))") }
        _ = FileSystemName.withRepresentation(path) { unlink($0) }
        var message = [CChar](repeating: 0, count: Int(IMGLAB_MESSAGE_SIZE))
        var opened: OpaquePointer?
        let ok = page.withParameters(icc: []) { p in imglab_tiff_row_writer_open(fd, &p, &opened, &message) }
        guard ok != 0, let opened else {
            close(fd)
            throw .library(.tiff, TIFFReader.text(message))
        }
        self.width = width
        self.height = height
        self.format = format
        self.storedFormat = stored
        self.writer = opened
        self.fd = fd
        self.folder = folder
        self.rowBytes = page.params.row_bytes
        self.rowsPerStrip = Int(page.params.rows_per_strip)
        strip.reserveCapacity(rowBytes * rowsPerStrip)
    }

    deinit {
        imglab_tiff_row_writer_close(writer)
        close(fd)
    }

    /// Writes `rows`, the image's next rows (top first): every strip they complete is
    /// compressed into the scratch file.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for rows of another width or format or past
    ///   the image's height, ``EncodeError/unsupportedFormat(_:_:suggestion:)`` when they cannot be
    ///   converted, ``EncodeError/library(_:_:)`` when libtiff fails.
    public func write(_ rows: Bitmap) throws(EncodeError) {
        if let failure { throw failure }
        guard !finished, rows.width == width, rows.format == format, rows.height <= height - rowsWritten else {
            throw .invalidOption("rows of \(rows.width) × \(rows.height) \(rows.format) after \(rowsWritten) rows do not continue a \(width) × \(height) \(format) TIFF")
        }
        let stored: Bitmap
        do { stored = storedFormat == format ? rows.tightlyPacked() : try rows.converted(to: storedFormat) } catch {
            throw .unsupportedFormat(.tiff, format, suggestion: "convert it to \(storedFormat) first (\(error))")
        }
        for y in 0..<stored.height {
            strip.append(contentsOf: stored.bytes[(y * rowBytes)..<((y + 1) * rowBytes)])
            rowsWritten += 1
            if strip.count == rowBytes * rowsPerStrip || rowsWritten == height { try writeStrip() }
        }
    }

    /// Writes the directory once every row is written, then hands the whole file to `body` from
    /// its first byte, in pieces of at most 1 MiB.
    /// - Throws: ``EncodeError/library(_:_:)`` when rows are missing or libtiff fails,
    ///   ``EncodeError/io(path:reason:)`` when the scratch file cannot be read; what `body` throws.
    public func finish(_ body: ([UInt8]) throws -> Void) throws {
        if let failure { throw failure }
        guard !finished else { throw EncodeError.invalidOption("the TIFF is finished already") }
        var size: UInt64 = 0
        guard imglab_tiff_row_writer_finish(writer, &size) != 0 else { throw failed() }
        finished = true
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < Int(size) {
            let wanted = min(piece.count, Int(size) - offset)
            let n = piece.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, wanted, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EncodeError.io(path: folder, reason: "cannot read back a scratch file: \(String(cString: strerror(errno)))")
            }
            guard n > 0 else { throw EncodeError.io(path: folder, reason: "a scratch file is shorter than was written") }
            try body(n == piece.count ? piece : Array(piece[..<n]))
            offset += n
        }
    }

    private func writeStrip() throws(EncodeError) {
        let ok = strip.withUnsafeBufferPointer { imglab_tiff_row_writer_write_strip(writer, $0.baseAddress, $0.count) }
        guard ok != 0 else { throw failed() }
        strip.removeAll(keepingCapacity: true)
    }

    /// libtiff's last error, kept for later calls.
    private func failed() -> EncodeError {
        let error = EncodeError.library(.tiff, String(cString: imglab_tiff_row_writer_message(writer)))
        failure = error
        return error
    }
}
