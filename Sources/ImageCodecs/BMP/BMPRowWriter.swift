import ImageCore

/// Writes a direct-colour BMP row by row, so an image larger than memory can be streamed to a
/// file: the bytes are those ``ImageCodecs/encode(_:as:options:)`` writes for the same pixels
/// (upright, no ICC profile), made by the same header and row packing.
///
/// The caller writes ``header``, then every stored row in stored order: for a bottom-up file
/// (the default) the image's last row first (``imageRow(stored:)`` says which image row each
/// stored row holds).
///
/// Formats (those the whole-image encoder stores unchanged): ``PixelFormat/rgb8`` as 24-bit
/// BI_RGB; 8-bit RGB with a padding slot first, little-endian 32-bit words (B, G, R, X in
/// memory) as 32-bit BI_RGB; 8-bit straight RGBA with alpha first, little-endian 32-bit words
/// (B, G, R, A in memory) as 32-bit ARGB with a BITMAPV5HEADER.
public struct BMPRowWriter: Sendable {
    /// Image width, pixels.
    public let width: Int
    /// Image height, pixels.
    public let height: Int
    /// The pixel format rows are handed in.
    public let format: PixelFormat
    /// Whether the file stores its first row first (negative height).
    public let topDown: Bool
    /// BITMAPFILEHEADER and DIB header: the file's first bytes.
    public let header: [UInt8]
    /// Bytes of each stored row (whole 32-bit words).
    public let storedRowBytes: Int

    private let target: BMPEncoder.Target

    /// A writer of a `width × height` image in `format`.
    /// - Throws: ``EncodeError/unsupportedFormat(_:_:suggestion:)`` for another format or a size
    ///   a BMP cannot hold (each side 1…2³¹ − 1, the file under 4 GiB), with the numbers.
    public init(width: Int, height: Int, format: PixelFormat, topDown: Bool = false) throws(EncodeError) {
        let target: BMPEncoder.Target
        switch format {
        case .rgb8: target = .bgr24
        case BMPEncoder.bgrx: target = .xrgb32
        case BMPEncoder.bgra: target = .argb32
        default:
            throw .unsupportedFormat(.bmp, format, suggestion: "stream RGB 8-bit, BGRX or BGRA 32-bit rows")
        }
        let rowBytes = BMPEncoder.storedRowBytes(width: width, target: target)
        let pixelBytes = rowBytes.multipliedReportingOverflow(by: height)
        // 138 bytes of headers at most (14 + BITMAPV5HEADER's 124).
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              !pixelBytes.overflow, pixelBytes.partialValue + 138 <= Int(UInt32.max) else {
            throw .unsupportedFormat(.bmp, format, suggestion: "a BMP holds 1…2³¹ − 1 pixels a side and under 4 GiB, not \(width) × \(height)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.topDown = topDown
        self.target = target
        self.storedRowBytes = rowBytes
        self.header = BMPEncoder.header(width: width, height: height, target: target, topDown: topDown, profileSize: 0)
    }

    /// The total file size, bytes: header and rows.
    public var fileSize: Int { header.count + storedRowBytes * height }

    /// The image row (0 = top) that stored row `i` (0 = the first written) holds.
    public func imageRow(stored i: Int) -> Int { topDown ? i : height - 1 - i }

    /// Appends row `y` of `rows` (a bitmap `width` wide in ``format``) to `out` as stored.
    /// - Precondition: `rows` is `width` wide, in ``format``, and has row `y`.
    public func appendStoredRow(_ rows: Bitmap, y: Int, to out: inout [UInt8]) {
        precondition(rows.width == width && rows.format == format && (0..<rows.height).contains(y),
                     "BMPRowWriter: a row of another width, format or out of range")
        var row = [UInt8](repeating: 0, count: storedRowBytes)
        BMPEncoder.packRow(rows, y: y, target: target, into: &row)
        out += row
    }
}
