/// A budget for decoding: checked against the header before any large allocation.
///
/// Limits exist to bound memory, so the defaults bound pixels and bytes, not the shape of an
/// image: `maxPixels` and `maxDimension` are strict, and `maxDimension` defaults to 2³¹ − 1,
/// the largest width or height PNG and TIFF can store (a 1 × 65 537 bilevel TIFF is fine).
/// `maxBytes` counts every pixel buffer a decoder allocates (all frames of an animation
/// included) through ``reserve(bytes:)``. The pixel default accepts any photograph
/// (0x3FFF² ≈ 268 megapixels, as sharp) and rejects a header declaring 100000 × 100000
/// before reading pixels.
public struct DecodeLimits: Sendable, Hashable {
    /// Largest width × height of one frame.
    public var maxPixels: Int
    /// Largest width or height.
    public var maxDimension: Int
    /// Largest total of bytes reserved for pixels.
    public var maxBytes: Int
    /// Largest number of animation frames.
    public var maxFrames: Int
    /// Smallest share (0…1) of a run-length image's pixels that its runs must write (BMP
    /// RLE4/RLE8/RLE24). A stream that ends, or skips, before reaching this share is refused
    /// as ``DecodeError/truncated(_:reason:offset:)``: a few hundred bytes declaring tens of
    /// megapixels of "skipped" pixels is a bomb, not an image (Pillow and ImageMagick refuse
    /// them too). 0 accepts any stream; the default is a tenth.
    public var minimumRunLengthCoverage: Double
    /// Bytes reserved so far.
    public private(set) var reservedBytes: Int = 0

    /// The largest width or height PNG and TIFF can store, 2³¹ − 1: the default `maxDimension`.
    public static let largestStorableDimension = 0x7FFF_FFFF

    public init(maxPixels: Int = 0x3FFF * 0x3FFF, maxDimension: Int = largestStorableDimension,
                maxBytes: Int = 2 << 30, maxFrames: Int = 10_000, minimumRunLengthCoverage: Double = 0.1) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxBytes = maxBytes
        self.maxFrames = maxFrames
        self.minimumRunLengthCoverage = minimumRunLengthCoverage
    }

    /// The defaults described above.
    public static let `default` = DecodeLimits()

    /// No limits at all; must be asked for by name.
    public static let unlimited = DecodeLimits(maxPixels: .max, maxDimension: .max, maxBytes: .max, maxFrames: .max,
                                               minimumRunLengthCoverage: 0)

    /// Checks a declared frame size against the dimension and pixel limits.
    public func check(width: Int, height: Int) throws(DecodeError) {
        guard width <= maxDimension else { throw .limitExceeded(.dimension, requested: width, allowed: maxDimension) }
        guard height <= maxDimension else { throw .limitExceeded(.dimension, requested: height, allowed: maxDimension) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .limitExceeded(.pixels, requested: overflow ? .max : pixels, allowed: maxPixels)
        }
    }

    /// Spends `bytes` of the budget, or throws without spending.
    public mutating func reserve(bytes: Int) throws(DecodeError) {
        let (total, overflow) = reservedBytes.addingReportingOverflow(bytes)
        guard bytes >= 0, !overflow, total <= maxBytes else {
            throw .limitExceeded(.bytes, requested: overflow ? .max : total, allowed: maxBytes)
        }
        reservedBytes = total
    }

    /// Checks a frame count.
    public func check(frames: Int) throws(DecodeError) {
        guard frames <= maxFrames else { throw .limitExceeded(.frames, requested: frames, allowed: maxFrames) }
    }
}

/// Choices a caller makes about decoding. The defaults change nothing: pixels come out in
/// the file's own format.
public struct DecodeOptions: Sendable, Hashable {
    /// The budget.
    public var limits: DecodeLimits
    /// JPEG only: decode at 1/`jpegScaleDenominator` in the DCT domain (1, 2, 4 or 8).
    public var jpegScaleDenominator: Int
    /// Still WebP only: decode at ⌈width/d⌉ × ⌈height/d⌉ (d = 1, 2, 4 or 8) through libwebp's
    /// rescaler, which averages the premultiplied, gamma-encoded samples over the whole picture
    /// while decoding (``WebPCodec/scaledSize(width:height:denominator:)``). Animations ignore it.
    public var webpScaleDenominator: Int
    /// Animated files: decode every frame (true) or only the first (false).
    public var decodeAllFrames: Bool

    public init(limits: DecodeLimits = .default, jpegScaleDenominator: Int = 1, webpScaleDenominator: Int = 1,
                decodeAllFrames: Bool = true) {
        self.limits = limits
        self.jpegScaleDenominator = jpegScaleDenominator
        self.webpScaleDenominator = webpScaleDenominator
        self.decodeAllFrames = decodeAllFrames
    }
}
