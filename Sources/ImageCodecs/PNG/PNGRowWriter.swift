import CImageShim
import ImageCore

/// Writes a PNG a band of rows at a time, so an image larger than memory can be encoded: each
/// call hands back the file bytes libpng has made so far, to be appended in order.
///
/// The bytes are those ``ImageCodecs/encode(_:as:options:)`` writes for the same pixels (an
/// upright image without metadata): the same storable format (``PNGCodec/encode(_:options:)``'s
/// rules, each band converted exactly as the whole image would be), the same IHDR, PLTE and
/// tRNS, the same filter and zlib settings (`pngCompression`), and libpng's `png_write_row`,
/// which is what `png_write_image` calls for a non-interlaced image. No metadata chunk is
/// written. Adam7 interlacing (`interlaced`) cannot be written row by row and is refused.
///
/// Memory: libpng's and zlib's state (a few hundred KiB) and the output of one call.
///
/// Once the library has failed, every later call throws that error again (the file is incomplete).
public final class PNGRowWriter {
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
    /// libpng's failure, thrown again by every later call.
    private var failure: EncodeError?

    /// Whether a `format` image with `options` can be written row by row.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for Adam7 interlacing.
    public static func check(format: PixelFormat, options: EncodeOptions) throws(EncodeError) {
        if options.interlaced { throw .invalidOption("an Adam7-interlaced PNG cannot be written row by row") }
    }

    /// Starts a `width × height` file of rows in `format`, written with `options`
    /// (`interlaced`, `pngCompression`).
    /// - Throws: ``EncodeError/invalidOption(_:)`` for interlacing or a size PNG cannot hold
    ///   (each side 1…2³¹ − 1), ``EncodeError/library(_:_:)`` when libpng refuses.
    public init(width: Int, height: Int, format: PixelFormat, options: EncodeOptions = EncodeOptions()) throws(EncodeError) {
        try Self.check(format: format, options: options)
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw .invalidOption("a PNG holds 1…2³¹ − 1 pixels a side, not \(width) × \(height)")
        }
        let stored = PNGEncoder.storableFormat(for: format)
        var status = imglab_png_status()
        let opened = PNGEncoder.withImage(width: width, height: height, format: stored, interlaced: false,
                                          smallest: options.pngCompression == .smallest) { image in
            imglab_png_row_writer_open(&image, &status)
        }
        guard let opened else { throw PNGEncoder.failure(status) }
        self.width = width
        self.height = height
        self.format = format
        self.storedFormat = stored
        self.writer = opened
    }

    deinit { imglab_png_row_writer_close(writer) }

    /// Writes `rows`, the image's next rows (top first), and returns the file bytes made since
    /// the last call (the signature and header chunks on the first call; often nothing while
    /// zlib gathers a block).
    /// - Throws: ``EncodeError/invalidOption(_:)`` for rows of another width or format or past
    ///   the image's height, ``EncodeError/unsupportedFormat(_:_:suggestion:)`` when they cannot be
    ///   converted, ``EncodeError/library(_:_:)`` when libpng fails.
    public func write(_ rows: Bitmap) throws(EncodeError) -> [UInt8] {
        if let failure { throw failure }
        guard rows.width == width, rows.format == format, rows.height <= height - rowsWritten else {
            throw .invalidOption("rows of \(rows.width) × \(rows.height) \(rows.format) after \(rowsWritten) rows do not continue a \(width) × \(height) \(format) PNG")
        }
        let stored = try PNGEncoder.storable(rows)
        var status = imglab_png_status()
        let code = stored.bytes.withUnsafeBufferPointer { pixels in
            imglab_png_row_writer_write_rows(writer, pixels.baseAddress, stored.bytesPerRow, UInt32(stored.height), &status)
        }
        guard code == IMGLAB_PNG_OK else { throw failed(status) }
        rowsWritten += rows.height
        return takeOutput()
    }

    /// Ends the file once every row is written and returns its last bytes (the final IDAT and IEND).
    /// - Throws: ``EncodeError/library(_:_:)`` when rows are missing or libpng fails.
    public func finish() throws(EncodeError) -> [UInt8] {
        if let failure { throw failure }
        var status = imglab_png_status()
        guard imglab_png_row_writer_finish(writer, &status) == IMGLAB_PNG_OK else { throw failed(status) }
        return takeOutput()
    }

    /// The error of `status`, kept for later calls.
    private func failed(_ status: imglab_png_status) -> EncodeError {
        let error = PNGEncoder.failure(status)
        failure = error
        return error
    }

    /// The output libpng made since the last call, emptied.
    private func takeOutput() -> [UInt8] {
        var size = 0
        guard let start = imglab_png_row_writer_output(writer, &size), size > 0 else { return [] }
        defer { imglab_png_row_writer_clear_output(writer) }
        return Array(UnsafeBufferPointer(start: start, count: size))
    }
}
