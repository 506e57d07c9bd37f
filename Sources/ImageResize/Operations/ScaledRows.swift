import ImageCore
import ImageCodecs

/// The rows of an image file as a ``RowReader`` delivers them, with the size of the stored image
/// they come from. A JPEG decoded at 1/``denominator`` in the DCT domain (shrink-on-load)
/// delivers ⌈width/d⌉ × ⌈height/d⌉ rows whose pixel `i` is centred on the stored image's
/// `(i + ½)·d`: a rectangle of the stored image is that rectangle divided by `d` in the
/// reader's pixels (``readerRect(_:)``). Every other reader has `denominator` 1 and the stored
/// image's own size.
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
    /// The DCT scale denominator the reader decodes at: 1, 2, 4 or 8.
    public var denominator: Int

    /// Rows decoded at full size: the stored image is the reader's.
    public init(reader: any RowReader) {
        self.init(reader: reader, storedWidth: reader.width, storedHeight: reader.height, denominator: 1)
    }

    /// Rows of a `storedWidth × storedHeight` image decoded at 1/`denominator`.
    public init(reader: any RowReader, storedWidth: Int, storedHeight: Int, denominator: Int) {
        self.reader = reader
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.denominator = max(1, denominator)
    }

    /// The stored image's size as displayed (its orientation applied).
    var displaySize: (width: Int, height: Int) {
        reader.orientation.displaySize(width: storedWidth, height: storedHeight)
    }

    /// `rect` (stored-image pixels) in the reader's pixels: divided by the denominator.
    public func readerRect(_ rect: (x: Double, y: Double, width: Double, height: Double)) -> (x: Double, y: Double, width: Double, height: Double) {
        let d = Double(denominator)
        return (rect.x / d, rect.y / d, rect.width / d, rect.height / d)
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

    /// The rows of the file at `path`: a JPEG (its header read first) at the denominator
    /// `denominator` picks for its stored size and orientation, anything else at full size.
    static func open(path: String, limits: DecodeLimits,
                     denominator: (_ header: ImageHeader) -> Int) throws -> ScaledRows {
        let head = try ImageCodecs.readFile(path, limit: .max, prefix: 64 << 10)
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
