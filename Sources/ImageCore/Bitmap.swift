/// A rectangle of pixels in one ``PixelFormat``: the raster part of an image.
///
/// Rows are stored top to bottom, each `bytesPerRow` bytes long (which may include padding
/// after the last pixel). Pixel (0, 0) is the first pixel of the first row as stored; the
/// image's ``Orientation`` says how to display it.
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next, padding included.
    public let bytesPerRow: Int
    /// The layout of each pixel.
    public let format: PixelFormat
    /// The pixel bytes, `height × bytesPerRow` long.
    public var bytes: [UInt8]

    /// Wraps existing bytes; throws when the buffer is too small or the format invalid.
    /// - Parameters:
    ///   - bytesPerRow: bytes per row; `nil` means the minimum for the format.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) throws(PixelFormatError) {
        let format = try format.validated()
        let minimum = format.minimumBytesPerRow(width: width)
        let stride = bytesPerRow ?? minimum
        guard width > 0, height > 0 else { throw .invalid(format, "size \(width)×\(height) is empty") }
        guard stride >= minimum else {
            throw .invalid(format, "bytes per row \(stride) is less than the \(minimum) that \(width) pixels need")
        }
        guard bytes.count >= stride * height else {
            throw .invalid(format, "buffer of \(bytes.count) bytes is smaller than \(height) rows × \(stride) bytes")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.format = format
        self.bytes = bytes
    }

    /// A zero-filled bitmap (all components 0: transparent black where there is alpha).
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil) throws(PixelFormatError) {
        let stride = bytesPerRow ?? format.minimumBytesPerRow(width: max(width, 0))
        try self.init(width: width, height: height, format: format, bytesPerRow: stride,
                      bytes: [UInt8](repeating: 0, count: max(stride * height, 0)))
    }

    /// Internal unchecked initialiser for code that has already validated everything.
    package init(uncheckedWidth width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
        self.bytes = bytes
    }

    /// The same pixels without row padding (bytesPerRow = minimum). Returns self if already tight.
    public func tightlyPacked() -> Bitmap {
        let minimum = format.minimumBytesPerRow(width: width)
        if minimum == bytesPerRow && bytes.count == minimum * height && (width * format.bitsPerPixel) % 8 == 0 { return self }
        var out = [UInt8](repeating: 0, count: minimum * height)
        // Padding bits after the last pixel of a packed row are cleared, so equal pixels give equal bytes.
        let usedBits = (width * format.bitsPerPixel) % 8
        let lastByteMask: UInt8 = usedBits == 0 ? 0xFF : UInt8(0xFF << (8 - usedBits) & 0xFF)
        for y in 0..<height {
            let src = y * bytesPerRow, dst = y * minimum
            for i in 0..<minimum { out[dst + i] = bytes[src + i] }
            if minimum > 0 { out[dst + minimum - 1] &= lastByteMask }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: minimum, bytes: out)
    }
}
