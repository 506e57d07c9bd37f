import ImageCore

/// One side of a comparison as *values*, not bytes: the displayed (oriented) image as
/// straight (non-premultiplied) R, G, B and, when the comparison involves alpha, A.
///
/// This is the compare-by-value rule. Every pixel format is read through ImageCore's exact
/// unpacking (palettes expanded, gray replicated to R = G = B, CMYK by ImageCore's naive
/// formula, premultiplied colour divided by alpha), then stored as a 16-bit sample
/// `round(v · 65535)` of the normalised value `v` in 0…1. So:
/// - an 8-bit code `c` is stored as `c · 257` exactly, and a 16-bit image and its 8-bit copy
///   are compared at 16-bit precision (their difference is the rounding, ≤ 128/65535);
/// - a palette image and its RGB copy give identical samples;
/// - 32-bit float components are clamped to 0…1 (NaN read as 0) and compared at 16-bit
///   precision (recorded in ``precisionNote``).
///
/// Samples are interleaved, ``channels`` per pixel (3 = RGB, 4 = RGBA), rows top to bottom.
public struct ValueImage: Sendable, Hashable {
    /// Displayed width in pixels (after the orientation).
    public let width: Int
    /// Displayed height in pixels.
    public let height: Int
    /// 3 (RGB, every pixel opaque) or 4 (straight RGBA).
    public let channels: Int
    /// `width × height × channels` samples, 0…65535, straight colour.
    public var samples: [UInt16]
    /// Bits per component of the source format (1…16, or 32 for float).
    public let sourceBitsPerComponent: Int
    /// Set when the source could not be represented exactly (float components).
    public let precisionNote: String?

    /// Full scale of a sample.
    public static let fullScale: Double = 65535
    /// Divide a sample difference by this to get 8-bit code units (65535 / 255).
    public static let perEightBitUnit: Double = 257

    /// Reads the displayed pixels of `image` (its orientation applied).
    /// - Parameter withAlpha: keep an alpha channel (4 channels) even if `image` is opaque;
    ///   a format without alpha then reads as α = 1.
    public init(_ image: Image, withAlpha: Bool) {
        let bitmap = image.orientation.apply(to: image.bitmap)
        self.init(bitmap, withAlpha: withAlpha)
    }

    /// Reads a bitmap as stored (no orientation).
    public init(_ bitmap: Bitmap, withAlpha: Bool) {
        let channels = withAlpha ? 4 : 3
        width = bitmap.width
        height = bitmap.height
        self.channels = channels
        sourceBitsPerComponent = bitmap.format.bitsPerComponent
        precisionNote = bitmap.format.isFloat ? "32-bit float components compared at 16-bit precision, clamped to 0…1" : nil
        samples = ValueImage.read(bitmap, channels: channels)
    }

    /// Wraps samples that already follow the rules above.
    public init(width: Int, height: Int, channels: Int, samples: [UInt16], sourceBitsPerComponent: Int = 16) {
        precondition(channels == 3 || channels == 4, "a ValueImage has 3 or 4 channels")
        precondition(samples.count == width * height * channels, "sample count must be width × height × channels")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
        self.sourceBitsPerComponent = sourceBitsPerComponent
        self.precisionNote = nil
    }

    /// Gives the pixels under `mask` the samples of `other` (same size and channel count).
    public mutating func takeValues(of other: ValueImage, under mask: PixelMask) {
        precondition(other.width == width && other.height == height && other.channels == channels && mask.bits.count == width * height,
                     "takeValues needs images and a mask of one size")
        for p in 0..<(width * height) where mask.bits[p] {
            for c in 0..<channels { samples[p * channels + c] = other.samples[p * channels + c] }
        }
    }

    /// Whether any pixel is not fully opaque.
    public var hasTranslucency: Bool {
        guard channels == 4 else { return false }
        var i = 3
        while i < samples.count { if samples[i] != 65535 { return true }; i += 4 }
        return false
    }

    /// Sample `c` of pixel (x, y) normalised to 0…1 (alpha is 1 when there is no alpha channel).
    @inline(__always)
    public func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
        if c == 3 && channels == 3 { return 1 }
        return Double(samples[(y * width + x) * channels + c]) / ValueImage.fullScale
    }

    /// Unpacks every row, with fast paths for the common tightly stored 8- and 16-bit layouts.
    static func read(_ bitmap: Bitmap, channels: Int) -> [UInt16] {
        let w = bitmap.width, h = bitmap.height, f = bitmap.format
        let straight = !f.isPremultiplied && f.byteOrder == .default && !f.isFloat
        let fastModel: Int? = {
            guard straight, f.bitsPerComponent == 8 || f.bitsPerComponent == 16 else { return nil }
            switch (f.colorModel, f.alphaInfo) {
            case (.rgb, .none): return 3
            case (.rgb, .last): return 4
            case (.gray, .none): return 1
            case (.gray, .last): return 2
            default: return nil
            }
        }()
        if let slots = fastModel {
            // Tight 8/16-bit layouts: rows unpacked in fixed bands on every core (each band
            // writes its own rows, so the result does not depend on the number of cores).
            let wide = f.bitsPerComponent == 16, stride = bitmap.bytesPerRow
            // The storage starts uninitialised: every sample is written by exactly one band, and
            // its pages are first touched (faulted in) there, on every core, not by a memset.
            let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
            return [UInt16](unsafeUninitializedCapacity: w * h * channels) { whole, initialized in
                let dst = DisjointBuffer(whole)
                let bytes = bitmap.bytes, rowBytes = w * slots * (wide ? 2 : 1)
                _ = Parallel.map(bands.count) { b in
                    bytes.withUnsafeBufferPointer { src in
                        for y in bands[b] {
                            let row = UnsafeBufferPointer(rebasing: src[(y * stride)..<(y * stride + rowBytes)])
                            let o = dst.slice(y * w * channels..<(y + 1) * w * channels)
                            ValueImage.unpackRow(row, into: o, width: w, slots: slots, wide: wide, channels: channels)
                        }
                    }
                    return 0
                }
                initialized = w * h * channels
            }
        }
        var out = [UInt16](repeating: 0, count: w * h * channels)
        out.withUnsafeMutableBufferPointer { dst in
            bitmap.bytes.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    let row = bitmap.straightRGBARow(y)
                    var o = y * w * channels
                    for x in 0..<w {
                        for c in 0..<channels {
                            let v = row[x * 4 + c].clamped(0, 1)
                            dst[o + c] = UInt16((v * 65535).rounded())
                        }
                        o += channels
                    }
                }
            }
        }
        return out
    }

    /// One tight row of `slots` 8- or 16-bit (big-endian) components per pixel → `channels`
    /// samples per pixel: gray replicated, a missing alpha read as 65535, an 8-bit code c
    /// stored as c · 257. Straight loops per layout, so the compiler can vectorise them.
    @inline(__always)
    static func unpackRow(_ row: UnsafeBufferPointer<UInt8>, into o: UnsafeMutableBufferPointer<UInt16>,
                          width w: Int, slots: Int, wide: Bool, channels: Int) {
        if !wide && slots == 3 && channels == 3 {
            for i in 0..<(w * 3) { o[i] = UInt16(row[i]) &* 257 }
            return
        }
        if !wide && slots == 4 && channels == 4 {
            for i in 0..<(w * 4) { o[i] = UInt16(row[i]) &* 257 }
            return
        }
        if wide && slots == channels {
            for i in 0..<(w * slots) { o[i] = UInt16(row[2 * i]) << 8 | UInt16(row[2 * i + 1]) }
            return
        }
        @inline(__always) func s(_ x: Int, _ k: Int) -> UInt16 {
            if wide {
                let i = (x * slots + k) * 2
                return UInt16(row[i]) << 8 | UInt16(row[i + 1])
            }
            return UInt16(row[x * slots + k]) &* 257
        }
        var j = 0
        for x in 0..<w {
            var v = (0 as UInt16, 0 as UInt16, 0 as UInt16, 65535 as UInt16)
            switch slots {
            case 1: let g = s(x, 0); v = (g, g, g, 65535)
            case 2: let g = s(x, 0); v = (g, g, g, s(x, 1))
            case 3: v = (s(x, 0), s(x, 1), s(x, 2), 65535)
            default: v = (s(x, 0), s(x, 1), s(x, 2), s(x, 3))
            }
            o[j] = v.0; o[j + 1] = v.1; o[j + 2] = v.2
            if channels == 4 { o[j + 3] = v.3 }
            j += channels
        }
    }
}
