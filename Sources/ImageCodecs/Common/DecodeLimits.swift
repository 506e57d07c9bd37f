/// A budget for decoding: checked against the header before any large allocation.
///
/// `maxPixels` and `maxDimension` are strict. `maxBytes` counts every pixel buffer a decoder
/// allocates (all frames of an animation included) through ``reserve(bytes:)``.
/// The defaults accept any photograph (0x3FFF² ≈ 268 megapixels, as sharp) and reject a
/// header declaring 100000 × 100000 before reading pixels.
public struct DecodeLimits: Sendable, Hashable {
    /// Largest width × height of one frame.
    public var maxPixels: Int
    /// Largest width or height.
    public var maxDimension: Int
    /// Largest total of bytes reserved for pixels.
    public var maxBytes: Int
    /// Largest number of animation frames.
    public var maxFrames: Int
    /// Bytes reserved so far.
    public private(set) var reservedBytes: Int = 0

    public init(maxPixels: Int = 0x3FFF * 0x3FFF, maxDimension: Int = 65_535,
                maxBytes: Int = 2 << 30, maxFrames: Int = 10_000) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxBytes = maxBytes
        self.maxFrames = maxFrames
    }

    /// The defaults described above.
    public static let `default` = DecodeLimits()

    /// No limits at all; must be asked for by name.
    public static let unlimited = DecodeLimits(maxPixels: .max, maxDimension: .max, maxBytes: .max, maxFrames: .max)

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
    /// Animated files: decode every frame (true) or only the first (false).
    public var decodeAllFrames: Bool

    public init(limits: DecodeLimits = .default, jpegScaleDenominator: Int = 1, decodeAllFrames: Bool = true) {
        self.limits = limits
        self.jpegScaleDenominator = jpegScaleDenominator
        self.decodeAllFrames = decodeAllFrames
    }
}
