import CImageShim
import ImageCore

/// A non-interlaced, non-animated PNG decoded row by row through libpng, so the decoded image
/// is never held whole. Opened on a path, the file is not held either: the chunk walk reads
/// every chunk but IDAT (``PNGChunkList/init(walkingFile:maxChunkBytes:)``) and libpng then
/// reads the IDAT stream from the file a few kilobytes at a time, inflating it with zlib into
/// one row at a time, so memory does not depend on the file's size. Interlaced and animated
/// files are decoded whole by ``PNGDecoder`` instead: Adam7 needs every pass before a row is
/// complete. This path stays on libpng (zlib, a few rows at a time): libdeflate inflates only
/// whole streams, which would hold the whole image (``PNGInflatedRows`` is the whole-image
/// decoder's fast path).
final class PNGRowReader: RowReader {
    let container = ContainerFormat.png
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation: Orientation
    let metadata: ImageMetadata
    /// The file's bytes when reading from memory; empty when libpng reads the file.
    private let bytes: [UInt8]
    private let reader: OpaquePointer
    private var next = 0

    /// Opens `bytes` for streaming, or returns nil when the file needs the whole-image decoder
    /// (interlaced or APNG).
    convenience init?(bytes: [UInt8], options: DecodeOptions) throws(DecodeError) {
        let header = try PNGImageHeader(readingStartOf: bytes)
        try options.limits.check(width: header.width, height: header.height)
        guard !header.interlaced else { return nil }
        let list = try PNGChunkList(parsing: bytes)
        try PNGCompressionBound.check(header, list)
        guard case .notAnimated = APNGStructure.parse(list, header: header) else { return nil }
        try self.init(header: header, list: list, bytes: bytes, limits: options.limits) { (info, status) in
            bytes.withUnsafeBufferPointer { imglab_png_reader_open($0.baseAddress, $0.count, &info, &status) }
        }
    }

    /// Opens the file at `path` for streaming without reading it whole, or returns nil when it
    /// needs the whole-image decoder (interlaced or APNG).
    /// - Parameter maxChunkBytes: the largest chunk other than IDAT the walk loads.
    convenience init?(path: String, options: DecodeOptions, maxChunkBytes: Int = 64 << 20) throws(DecodeError) {
        let list = try PNGChunkList(walkingFile: path, maxChunkBytes: maxChunkBytes)
        let header = try PNGImageHeader(parsing: list.chunks[0])
        try options.limits.check(width: header.width, height: header.height)
        try PNGCompressionBound.check(header, list)
        guard !header.interlaced, case .notAnimated = APNGStructure.parse(list, header: header) else { return nil }
        try self.init(header: header, list: list, bytes: [], limits: options.limits) { (info, status) in
            FileSystemName.withRepresentation(path) { imglab_png_reader_open_file($0, &info, &status) }
        }
    }

    /// Opens the rows; refuses before libpng allocates its two row buffers (the row being
    /// unfiltered and the previous one) when they alone exceed what is left of `limits`.
    private init(header: PNGImageHeader, list: PNGChunkList, bytes: [UInt8], limits: DecodeLimits,
                 open: (inout imglab_png_info, inout imglab_png_status) -> OpaquePointer?) throws(DecodeError) {
        let read = PNGMetadata(reading: list, header: header)
        self.bytes = bytes
        var info = imglab_png_info()
        var status = imglab_png_status()
        guard let opened = open(&info, &status) else { throw PNGPixelDecoder.error(status, context: nil) }
        let colorKey = info.has_trns != 0 && (header.colorType == .gray || header.colorType == .rgb)
        do throws(DecodeError) {
            let format = try header.deliveredFormat(colorKey: colorKey, palette: PNGPixelDecoder.palette(info))
            let rowBuffers = 2 * (header.rowBytes(in: format) + 1)
            guard rowBuffers <= limits.maxBytes - limits.reservedBytes else {
                throw .limitExceeded(.bytes, requested: rowBuffers, allowed: limits.maxBytes)
            }
            let code = imglab_png_reader_begin_rows(opened, colorKey ? 1 : 0, header.rowBytes(in: format), &status)
            guard code == IMGLAB_PNG_OK else { throw PNGPixelDecoder.error(status, context: nil) }
            self.format = format
        } catch {
            imglab_png_reader_close(opened)
            throw error
        }
        reader = opened
        width = header.width
        height = header.height
        orientation = read.orientation
        metadata = read.metadata
    }

    deinit { imglab_png_reader_close(reader) }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let n = min(count, height - next)
        guard n > 0, let base = buffer.baseAddress,
              buffer.count >= (n - 1) * stride + format.minimumBytesPerRow(width: width) else { return 0 }
        var status = imglab_png_status()
        let code = bytes.withUnsafeBufferPointer { data in
            imglab_png_reader_read_rows(reader, data.baseAddress, data.count, base.assumingMemoryBound(to: UInt8.self), stride, UInt32(n), &status)
        }
        guard code == IMGLAB_PNG_OK else { throw PNGPixelDecoder.error(status, context: nil) }
        next += n
        return n
    }
}
