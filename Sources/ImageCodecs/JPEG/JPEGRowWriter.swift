import CImageShim
import ImageCore

/// Writes a JPEG a band of rows at a time (libjpeg's `jpeg_write_scanlines`): each call hands
/// back the file bytes libjpeg has made so far, to be appended in order.
///
/// The setup is the whole-image encoder's (``JPEGCodec``: the same layout per band, quality,
/// chroma subsampling, progression, JFIF header; no EXIF or ICC marker), so with
/// ``HuffmanTables/optimized`` the bytes are those ``ImageCodecs/encode(_:as:options:)`` writes
/// for the same pixels (an upright image without metadata).
///
/// Memory: with ``HuffmanTables/standard`` tables and a sequential (baseline) file libjpeg
/// compresses each band of MCU rows as it comes, so memory follows the width (a few rows of
/// samples and the output of one call). Optimised tables, and every progressive file (each of
/// its scans is made after the last row is in), need more than one pass: libjpeg keeps every DCT
/// coefficient of the image (2 bytes each: 3 bytes a pixel at 4:2:0, 6 at 4:4:4) until
/// ``finish()``, which then returns the whole file. That is libjpeg's design, not this type's.
///
/// Once the library has failed, every later call throws that error again (the file is incomplete).
public final class JPEGRowWriter {
    /// How the Huffman tables are chosen.
    public enum HuffmanTables: Sendable {
        /// Fitted to the image, as the whole-image encoder does (smaller file; the whole
        /// coefficient image is held until the end).
        case optimized
        /// The standard tables of ITU T.81 Annex K (memory follows the width). The coefficients
        /// are the same as with ``optimized``, so a decoder gives the same pixels.
        case standard
    }

    /// Image width, pixels.
    public let width: Int
    /// Image height, pixels.
    public let height: Int
    /// The format rows are handed in.
    public let format: PixelFormat
    /// The layout libjpeg is handed (gray8, rgb8 or Adobe-inverted CMYK 8-bit).
    public let storedFormat: PixelFormat
    /// Rows written so far.
    public private(set) var rowsWritten = 0

    private let writer: OpaquePointer
    /// libjpeg's failure, thrown again by every later call.
    private var failure: EncodeError?

    /// Whether rows in `format` can be written with `options`.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for a quality outside 1…100,
    ///   ``EncodeError/unsupportedFormat(_:_:suggestion:)`` for alpha-only masks.
    public static func check(format: PixelFormat, options: EncodeOptions) throws(EncodeError) {
        guard (1...100).contains(options.jpegQuality) else {
            throw .invalidOption("JPEG quality \(options.jpegQuality) is outside 1…100")
        }
        _ = try JPEGEncoder.storableFormat(for: format)
    }

    /// Starts a `width × height` file of rows in `format`, written with `options`
    /// (`jpegQuality`, `jpegSubsampling`, `jpegProgressive`) and `huffmanTables`.
    /// - Throws: as ``check(format:options:)``; ``EncodeError/invalidOption(_:)`` for a size
    ///   libjpeg cannot write (each side 1…65,500, its JPEG_MAX_DIMENSION); ``EncodeError/library(_:_:)`` when libjpeg refuses.
    public init(width: Int, height: Int, format: PixelFormat, options: EncodeOptions = EncodeOptions(),
                huffmanTables: HuffmanTables = .optimized) throws(EncodeError) {
        try Self.check(format: format, options: options)
        guard (1...65_500).contains(width), (1...65_500).contains(height) else {
            throw .invalidOption("libjpeg writes 1…65,500 pixels a side, not \(width) × \(height)")
        }
        let stored = try JPEGEncoder.storableFormat(for: format)
        let (lumaH, lumaV) = JPEGEncoder.lumaSampling(options.jpegSubsampling)
        var params = imglab_jpeg_encode_params(
            width: UInt32(width), height: UInt32(height), components: Int32(stored.slotCount),
            quality: Int32(options.jpegQuality), luma_h: lumaH, luma_v: lumaV,
            progressive: options.jpegProgressive ? 1 : 0, exif: nil, exif_size: 0, icc: nil, icc_size: 0)
        var message = [CChar](repeating: 0, count: Int(IMGLAB_JPEG_MESSAGE_SIZE))
        let opened = message.withUnsafeMutableBufferPointer { text in
            imglab_jpeg_row_writer_open(&params, huffmanTables == .optimized ? 1 : 0, text.baseAddress)
        }
        guard let opened else { throw Self.failure(message) }
        self.width = width
        self.height = height
        self.format = format
        self.storedFormat = stored
        self.writer = opened
    }

    deinit { imglab_jpeg_row_writer_close(writer) }

    /// Compresses `rows`, the image's next rows (top first), and returns the file bytes made
    /// since the last call (the headers on the first call; nothing while libjpeg holds the
    /// coefficients for optimised tables).
    /// - Throws: ``EncodeError/invalidOption(_:)`` for rows of another width or format or past
    ///   the image's height, ``EncodeError/library(_:_:)`` when libjpeg fails.
    public func write(_ rows: Bitmap) throws(EncodeError) -> [UInt8] {
        if let failure { throw failure }
        guard rows.width == width, rows.format == format, rows.height <= height - rowsWritten else {
            throw .invalidOption("rows of \(rows.width) × \(rows.height) \(rows.format) after \(rowsWritten) rows do not continue a \(width) × \(height) \(format) JPEG")
        }
        let stored = try JPEGEncoder.storable(rows)
        var message = [CChar](repeating: 0, count: Int(IMGLAB_JPEG_MESSAGE_SIZE))
        let status = stored.bytes.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                imglab_jpeg_row_writer_write_rows(writer, pixels.baseAddress, stored.bytesPerRow, UInt32(stored.height), text.baseAddress)
            }
        }
        guard status == IMGLAB_JPEG_OK else { throw failed(message) }
        rowsWritten += rows.height
        return takeOutput()
    }

    /// Ends the file once every row is written and returns its last bytes (with optimised
    /// tables or a progressive file: all the scans).
    /// - Throws: ``EncodeError/library(_:_:)`` when rows are missing or libjpeg fails.
    public func finish() throws(EncodeError) -> [UInt8] {
        if let failure { throw failure }
        var message = [CChar](repeating: 0, count: Int(IMGLAB_JPEG_MESSAGE_SIZE))
        let status = message.withUnsafeMutableBufferPointer { imglab_jpeg_row_writer_finish(writer, $0.baseAddress) }
        guard status == IMGLAB_JPEG_OK else { throw failed(message) }
        return takeOutput()
    }

    /// The error of `message`, kept for later calls.
    private func failed(_ message: [CChar]) -> EncodeError {
        let error = Self.failure(message)
        failure = error
        return error
    }

    private func takeOutput() -> [UInt8] {
        var size = 0
        guard let start = imglab_jpeg_row_writer_output(writer, &size), size > 0 else { return [] }
        defer { imglab_jpeg_row_writer_clear_output(writer) }
        return Array(UnsafeBufferPointer(start: start, count: size))
    }

    private static func failure(_ message: [CChar]) -> EncodeError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .library(.jpeg, text.isEmpty ? "libjpeg failed" : text)
    }
}
