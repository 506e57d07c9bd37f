import CImageShim
import ImageCore

/// A non-interlaced, non-animated PNG decoded row by row through libpng, so the decoded image
/// is never held whole (the file's bytes are). Interlaced and animated files are decoded
/// whole by ``PNGDecoder`` instead: Adam7 needs every pass before a row is complete. This path
/// stays on libpng (zlib, a few rows at a time): libdeflate inflates only whole streams, which
/// would hold the whole image (``PNGInflatedRows`` is the whole-image decoder's fast path).
final class PNGRowReader: RowReader {
    let container = ContainerFormat.png
    let width: Int
    let height: Int
    let format: PixelFormat
    let orientation: Orientation
    let metadata: ImageMetadata
    private let bytes: [UInt8]
    private let reader: OpaquePointer
    private var next = 0

    /// Opens `bytes` for streaming, or returns nil when the file needs the whole-image decoder
    /// (interlaced or APNG).
    init?(bytes: [UInt8], options: DecodeOptions) throws(DecodeError) {
        let header = try PNGImageHeader(readingStartOf: bytes)
        try options.limits.check(width: header.width, height: header.height)
        guard !header.interlaced else { return nil }
        let list = try PNGChunkList(parsing: bytes)
        try PNGCompressionBound.check(header, list)
        guard case .notAnimated = APNGStructure.parse(list, header: header) else { return nil }
        let read = try PNGMetadata(reading: list, header: header)
        self.bytes = bytes
        var info = imglab_png_info()
        var status = imglab_png_status()
        let opened: OpaquePointer? = self.bytes.withUnsafeBufferPointer { imglab_png_reader_open($0.baseAddress, $0.count, &info, &status) }
        guard let opened else { throw PNGPixelDecoder.error(status, context: nil) }
        let colorKey = info.has_trns != 0 && (header.colorType == .gray || header.colorType == .rgb)
        do throws(DecodeError) {
            let format = try header.deliveredFormat(colorKey: colorKey, palette: PNGPixelDecoder.palette(info))
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
