import ImageCore
import ImageCodecs

/// The rows of an image file as a ``RowReader`` delivers them, with the size of the stored image
/// they come from. A JPEG decoded at 1/``denominator`` in the DCT domain (shrink-on-load)
/// delivers ⌈width/d⌉ × ⌈height/d⌉ rows whose pixel `i` is centred on the stored image's
/// `(i + ½)·d`; a still WebP decoded at 1/d by libwebp's rescaler delivers as many, but the
/// rescaler maps the whole stored image onto them. A rectangle of the stored image is mapped into
/// the reader's pixels by ``scale`` (``readerRect(_:)``). Every other reader has `denominator` 1
/// and the stored image's own size.
///
/// ``FileResize`` and ``MaxPixelSizeThumbnail`` open a file's rows with the scale their
/// operation allows (``FileResize/rows(path:width:height:contentMode:options:limits:)``,
/// ``MaxPixelSizeThumbnail/rows(path:maxPixelSize:limits:)``) and resample them
/// (``FileResize/resized(_:width:height:contentMode:options:limits:)``,
/// ``MaxPixelSizeThumbnail/thumbnail(of:maxPixelSize:options:limits:)``); a caller may put its
/// own reader between the two.
public struct ScaledRows {
    /// The reader of the (possibly scaled) rows, in the stored orientation.
    public var reader: any RowReader
    /// Width of the stored image, in pixels (the reader's own width when `denominator` is 1).
    public var storedWidth: Int
    /// Height of the stored image, in pixels.
    public var storedHeight: Int
    /// The scale denominator the reader decodes at: 1, 2, 4 or 8.
    public var denominator: Int
    /// Stored pixels per reader pixel on each axis: `denominator` for a JPEG (its last scaled
    /// row and column hold the padding of the last 8 × 8 block too), the stored size over the
    /// reader's for rows rescaled whole (a WebP).
    public var scale: (x: Double, y: Double)

    /// Rows decoded at full size: the stored image is the reader's.
    public init(reader: any RowReader) {
        self.init(reader: reader, storedWidth: reader.width, storedHeight: reader.height, denominator: 1)
    }

    /// Rows of a `storedWidth × storedHeight` image decoded at 1/`denominator`: in the DCT
    /// domain (a JPEG), or, when `rescaledWhole`, by a rescaler that maps the whole stored image
    /// onto the reader's rows (a WebP).
    public init(reader: any RowReader, storedWidth: Int, storedHeight: Int, denominator: Int, rescaledWhole: Bool = false) {
        self.reader = reader
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.denominator = max(1, denominator)
        let d = Double(self.denominator)
        scale = rescaledWhole ? (Double(storedWidth) / Double(max(1, reader.width)), Double(storedHeight) / Double(max(1, reader.height)))
            : (d, d)
    }

    /// The stored image's size as displayed (its orientation applied).
    var displaySize: (width: Int, height: Int) {
        reader.orientation.displaySize(width: storedWidth, height: storedHeight)
    }

    /// `rect` (stored-image pixels) in the reader's pixels: divided by ``scale``.
    public func readerRect(_ rect: (x: Double, y: Double, width: Double, height: Double)) -> (x: Double, y: Double, width: Double, height: Double) {
        (rect.x / scale.x, rect.y / scale.y, rect.width / scale.x, rect.height / scale.y)
    }

    /// The header of the JPEG file at `path` from its first bytes `prefix`, reading more when the
    /// markers before the frame header (EXIF, ICC) are larger than the prefix.
    static func jpegHeader(path: String, prefix: [UInt8], limits: DecodeLimits) throws(DecodeError) -> ImageHeader {
        var bytes = prefix
        var size = prefix.count
        while true {
            let result: Result<ImageHeader, DecodeError>
            do { result = .success(try ImageCodecs.readHeader(bytes, options: DecodeOptions(limits: limits))) }
            catch { result = .failure(error) }
            switch result {
            case .success(let header): return header
            case .failure(let error):
                guard case .truncated = error, bytes.count == size, size < 64 << 20 else { throw error }
                size *= 8
                bytes = try ImageCodecs.readFile(path, limit: .max, prefix: size)
            }
        }
    }

    /// The rows of the file at `path`: a JPEG (its header read first) or a still WebP (decoded
    /// whole, at that scale) at the denominator `denominator` picks for its header's stored size,
    /// orientation and container, anything else at full size.
    static func open(path: String, limits: DecodeLimits,
                     denominator: (_ header: ImageHeader) -> Int) throws -> ScaledRows {
        let head = try ImageCodecs.readFile(path, limit: .max, prefix: 64 << 10)
        if ContainerFormat(sniffing: head) == .webp {
            let bytes = try ImageCodecs.readFile(path, limit: limits.maxBytes)
            var decode = DecodeOptions(limits: limits)
            try decode.limits.reserve(bytes: bytes.count)  // the file counts against the budget too
            let header = try ImageCodecs.readHeader(bytes, options: decode)
            decode.webpScaleDenominator = header.frameCount == 1 ? denominator(header) : 1
            let reader = BitmapRowReader(try ImageCodecs.decode(bytes, options: decode), container: .webp)
            return ScaledRows(reader: reader, storedWidth: header.width, storedHeight: header.height,
                              denominator: decode.webpScaleDenominator, rescaledWhole: true)
        }
        guard ContainerFormat(sniffing: head) == .jpeg else {
            return ScaledRows(reader: try ImageCodecs.rowReader(path: path, options: DecodeOptions(limits: limits)))
        }
        let header = try jpegHeader(path: path, prefix: head, limits: limits)
        var decode = DecodeOptions(limits: limits)
        decode.jpegScaleDenominator = denominator(header)
        let reader = try ImageCodecs.rowReader(path: path, options: decode)
        return ScaledRows(reader: reader, storedWidth: header.width, storedHeight: header.height,
                          denominator: decode.jpegScaleDenominator)
    }
}
