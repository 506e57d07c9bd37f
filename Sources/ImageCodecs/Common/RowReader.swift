import ImageCore

/// A decoder that delivers an image's stored rows top to bottom, a few at a time, so a
/// consumer (the streaming resizer) never needs the whole image in memory.
///
/// Call order: read ``width``, ``height``, ``format`` and ``orientation``, then call
/// ``readRows(into:stride:count:)`` until it returns 0. Rows are in ``format``, each
/// `format.minimumBytesPerRow(width:)` bytes, stored at `stride` intervals in the buffer.
public protocol RowReader: AnyObject {
    /// The container being read.
    var container: ContainerFormat { get }
    /// Width of the delivered rows, in pixels.
    var width: Int { get }
    /// Number of rows the reader delivers.
    var height: Int { get }
    /// The pixel format of the delivered rows.
    var format: PixelFormat { get }
    /// How the stored rows must be transformed for display.
    var orientation: Orientation { get }
    /// ICC, EXIF and container facts.
    var metadata: ImageMetadata { get }
    /// Reads up to `count` next rows; returns how many were read (0 at the end).
    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int
}

/// Rows of an already decoded image (the fallback for containers without a streaming decoder).
public final class BitmapRowReader: RowReader {
    public let container: ContainerFormat
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let orientation: Orientation
    public let metadata: ImageMetadata
    private let bitmap: Bitmap
    private var next = 0
    /// The whole decoded image, when this reader was made from one (animation frames included).
    public private(set) var image: Image?

    /// Reads the rows of a decoded image's bitmap (its first frame when animated).
    public convenience init(_ image: Image, container: ContainerFormat) {
        self.init(image.bitmap, orientation: image.orientation, metadata: image.metadata, container: container)
        self.image = image
    }

    /// Reads the rows of `bitmap`; `orientation` and `metadata` are reported as given.
    public init(_ bitmap: Bitmap, orientation: Orientation = .up, metadata: ImageMetadata = ImageMetadata(),
                container: ContainerFormat = .png) {
        self.bitmap = bitmap
        self.container = container
        width = bitmap.width
        height = bitmap.height
        format = bitmap.format
        self.orientation = orientation
        self.metadata = metadata
    }

    public func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(DecodeError) -> Int {
        let rowBytes = format.minimumBytesPerRow(width: width)
        let n = min(count, height - next)
        guard n > 0 else { return 0 }
        bitmap.bytes.withUnsafeBytes { source in
            for i in 0..<n {
                let src = (next + i) * bitmap.bytesPerRow
                buffer.baseAddress.map { ($0 + i * stride).copyMemory(from: source.baseAddress! + src, byteCount: rowBytes) }
            }
        }
        next += n
        return n
    }
}

extension ImageCodecs {
    /// A row reader for a file: JPEGs stream from disk through libjpeg (at
    /// 1/`options.jpegScaleDenominator` in the DCT domain), non-interlaced still PNGs through
    /// libpng and zlib, uncompressed BMPs by `pread` of each band of rows, and TIFF pages a strip
    /// or a row of tiles at a time, so neither the file nor the image is held in memory; other
    /// files (interlaced PNG, APNG, GIF, run-length BMP, TIFF through libtiff's RGBA interface)
    /// are decoded whole and read from memory.
    public static func rowReader(path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> any RowReader {
        let head = try readPrefix(path, count: ContainerFormat.sniffLength)
        if ContainerFormat(sniffing: head) == .jpeg {
            return try JPEGRowReader(path: path, options: options)
        }
        if ContainerFormat(sniffing: head) == .png, let reader = try PNGRowReader(path: path, options: options) {
            return reader
        }
        if ContainerFormat(sniffing: head) == .bmp, let reader = try BMPRowReader(path: path, options: options) {
            return reader
        }
        if ContainerFormat(sniffing: head) == .tiff, let reader = try TIFFRowReader(path: path, options: options) {
            return reader
        }
        let bytes = try readFile(path, limit: options.limits.maxBytes)
        var options = options
        try options.limits.reserve(bytes: bytes.count)  // the file counts against the budget too
        let image = try decode(bytes, options: options)
        return BitmapRowReader(image, container: ContainerFormat(sniffing: head) ?? .png)
    }

    /// The first `count` bytes of a file (fewer when it is shorter).
    static func readPrefix(_ path: String, count: Int) throws(DecodeError) -> [UInt8] {
        guard let file = FileSystemName.withRepresentation(path, { fopen($0, "rb") }) else { throw .io(path: path, reason: "cannot open (errno \(errno))") }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        return Array(bytes.prefix(n))
    }
}

#if canImport(Glibc)
import Glibc
#endif
