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
///
/// An image whose every sample is an 8-bit code (a straight 8-bit RGB, RGBA, gray or gray-alpha
/// layout) holds the codes themselves, one byte a sample (``Storage/eightBit(_:)``), and every
/// reader sees `code · 257` through ``SampleView``: the same values, half the memory. A tight
/// 8-bit RGB (RGBA) bitmap read with 3 (4) channels shares the bitmap's bytes: no copy at all.
public struct ValueImage: Sendable, Hashable {
    /// How the samples are held: the values are the same either way.
    public enum Storage: Sendable {
        /// 8-bit codes c, each standing for the sample c · 257.
        case eightBit([UInt8])
        /// 16-bit samples.
        case sixteenBit([UInt16])
    }

    /// Displayed width in pixels (after the orientation).
    public let width: Int
    /// Displayed height in pixels.
    public let height: Int
    /// 3 (RGB, every pixel opaque) or 4 (straight RGBA).
    public let channels: Int
    /// `width × height × channels` samples, 0…65535, straight colour (read them through
    /// ``withSamples(_:)``, ``sample(_:)`` or ``wideSamples``).
    public var storage: Storage { isEightBit ? .eightBit(codes) : .sixteenBit(sixteenBit) }
    /// Whether the samples are held as 8-bit codes (in `codes`; else in `sixteenBit`).
    public private(set) var isEightBit: Bool
    // Two plain arrays, one of them empty, rather than an enum: a sample read is a flag test and
    // an array load, with no payload to extract (``sample(_:)`` is in the diagnosis's inner loops).
    private var codes: [UInt8]
    private var sixteenBit: [UInt16]
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
        let storage = ValueImage.read(bitmap, channels: channels)
        (isEightBit, codes, sixteenBit) = ValueImage.held(storage)
    }

    private static func held(_ storage: Storage) -> (Bool, [UInt8], [UInt16]) {
        switch storage {
        case .eightBit(let codes): return (true, codes, [])
        case .sixteenBit(let samples): return (false, [], samples)
        }
    }

    /// Wraps samples that already follow the rules above.
    public init(width: Int, height: Int, channels: Int, samples: [UInt16], sourceBitsPerComponent: Int = 16) {
        self.init(width: width, height: height, channels: channels, storage: .sixteenBit(samples),
                  sourceBitsPerComponent: sourceBitsPerComponent)
    }

    /// Wraps 8-bit codes (each the sample code · 257).
    public init(width: Int, height: Int, channels: Int, eightBitCodes: [UInt8]) {
        self.init(width: width, height: height, channels: channels, storage: .eightBit(eightBitCodes), sourceBitsPerComponent: 8)
    }

    private init(width: Int, height: Int, channels: Int, storage: Storage, sourceBitsPerComponent: Int) {
        precondition(channels == 3 || channels == 4, "a ValueImage has 3 or 4 channels")
        self.width = width
        self.height = height
        self.channels = channels
        (isEightBit, codes, sixteenBit) = ValueImage.held(storage)
        self.sourceBitsPerComponent = sourceBitsPerComponent
        self.precisionNote = nil
        precondition(sampleCount == width * height * channels, "sample count must be width × height × channels")
    }

    /// Number of samples, `width × height × channels`.
    public var sampleCount: Int { isEightBit ? codes.count : sixteenBit.count }

    /// Every sample as a 16-bit value, in a new array (2 bytes a sample: for tests and small
    /// images; a pass over a large image reads ``withSamples(_:)``).
    public var wideSamples: [UInt16] { isEightBit ? codes.map { UInt16($0) &* 257 } : sixteenBit }

    /// Sample `i` (interleaved order) as a 16-bit value.
    @inline(__always)
    public func sample(_ i: Int) -> UInt16 { isEightBit ? UInt16(codes[i]) &* 257 : sixteenBit[i] }

    /// The samples of the pixel whose first sample is `i`, as 16-bit values (alpha 65535 without
    /// an alpha channel): one storage test for the whole pixel, for the diagnosis's random reads.
    @inline(__always)
    public func pixel(at i: Int) -> SIMD4<UInt16> {
        if isEightBit {
            return SIMD4(UInt16(codes[i]) &* 257, UInt16(codes[i + 1]) &* 257, UInt16(codes[i + 2]) &* 257,
                         channels == 4 ? UInt16(codes[i + 3]) &* 257 : 65535)
        }
        return SIMD4(sixteenBit[i], sixteenBit[i + 1], sixteenBit[i + 2], channels == 4 ? sixteenBit[i + 3] : 65535)
    }

    /// The Rec. 709 luma (0…1) of the pixel whose first sample is `i`, weighted in 16-bit units.
    @inline(__always)
    public func luma709(at i: Int) -> Double {
        let r, g, b: Double
        if isEightBit {
            // c · 257 exactly, as the 16-bit sample.
            r = Double(codes[i]) * 257; g = Double(codes[i + 1]) * 257; b = Double(codes[i + 2]) * 257
        } else {
            r = Double(sixteenBit[i]); g = Double(sixteenBit[i + 1]); b = Double(sixteenBit[i + 2])
        }
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 65535
    }

    /// Calls `body` with a view of the samples as 16-bit values, valid during the call.
    public func withSamples<R>(_ body: (SampleView) throws -> R) rethrows -> R {
        if isEightBit {
            return try codes.withUnsafeBufferPointer { try body(SampleView(eightBit: $0.baseAddress, sixteenBit: nil, count: $0.count)) }
        }
        return try sixteenBit.withUnsafeBufferPointer { try body(SampleView(eightBit: nil, sixteenBit: $0.baseAddress, count: $0.count)) }
    }

    /// Whether both images hold the same samples (sizes and channel counts aside: compare those first).
    public func sameSamples(as other: ValueImage) -> Bool {
        if isEightBit && other.isEightBit { return codes == other.codes }
        if !isEightBit && !other.isEightBit { return sixteenBit == other.sixteenBit }
        guard sampleCount == other.sampleCount else { return false }
        return withSamples { s in other.withSamples { t in !(0..<s.count).contains { s[$0] != t[$0] } } }
    }

    /// Equal sizes, channels, source depth and note, and the same sample values however each is held.
    public static func == (l: ValueImage, r: ValueImage) -> Bool {
        l.width == r.width && l.height == r.height && l.channels == r.channels && l.sourceBitsPerComponent == r.sourceBitsPerComponent
            && l.precisionNote == r.precisionNote && l.sameSamples(as: r)
    }

    /// Hashes the shape (equal images have equal shapes; the samples are left out, as their storage may differ).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width); hasher.combine(height); hasher.combine(channels); hasher.combine(sourceBitsPerComponent)
    }

    /// Gives the pixels under `mask` the samples of `other` (same size and channel count); an
    /// image of 8-bit codes given 16-bit samples is held in 16 bits from then on.
    public mutating func takeValues(of other: ValueImage, under mask: PixelMask) {
        precondition(other.width == width && other.height == height && other.channels == channels && mask.bits.count == width * height,
                     "takeValues needs images and a mask of one size")
        let n = channels
        if isEightBit && other.isEightBit {
            for p in 0..<(width * height) where mask.bits[p] {
                for c in 0..<n { codes[p * n + c] = other.codes[p * n + c] }
            }
            return
        }
        if isEightBit {
            sixteenBit = wideSamples
            codes = []
            isEightBit = false
        }
        other.withSamples { theirs in
            for p in 0..<(width * height) where mask.bits[p] {
                for c in 0..<n { sixteenBit[p * n + c] = theirs[p * n + c] }
            }
        }
    }

    /// Whether any pixel is not fully opaque.
    public var hasTranslucency: Bool {
        guard channels == 4 else { return false }
        return withSamples { s in
            var i = 3
            while i < s.count { if s[i] != 65535 { return true }; i += 4 }
            return false
        }
    }

    /// Sample `c` of pixel (x, y) normalised to 0…1 (alpha is 1 when there is no alpha channel).
    @inline(__always)
    public func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
        if c == 3 && channels == 3 { return 1 }
        return Double(sample((y * width + x) * channels + c)) / ValueImage.fullScale
    }

    /// Unpacks every row: the straight 8-bit layouts into 8-bit codes (a tight layout of
    /// `channels` components shared as it is), everything else into 16-bit samples, with fast
    /// paths for the tight 16-bit layouts.
    static func read(_ bitmap: Bitmap, channels: Int) -> Storage {
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
        if let slots = fastModel, f.bitsPerComponent == 8 {
            if slots == channels && bitmap.bytesPerRow == w * slots && bitmap.bytes.count == w * h * slots {
                return .eightBit(bitmap.bytes)
            }
            return .eightBit(eightBitCodes(bitmap, slots: slots, channels: channels))
        }
        if let slots = fastModel {
            // Tight 16-bit layouts: rows unpacked in fixed bands on every core (each band
            // writes its own rows, so the result does not depend on the number of cores).
            let wide = f.bitsPerComponent == 16, stride = bitmap.bytesPerRow
            // The storage starts uninitialised: every sample is written by exactly one band, and
            // its pages are first touched (faulted in) there, on every core, not by a memset.
            let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
            return .sixteenBit([UInt16](unsafeUninitializedCapacity: w * h * channels) { whole, initialized in
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
            })
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
        return .sixteenBit(out)
    }

    /// The codes of a straight 8-bit layout of `slots` components per pixel, `channels` per
    /// pixel: gray replicated, a missing alpha read as 255 (the samples ``unpackRow(_:into:width:slots:wide:channels:)``
    /// makes, divided by 257). Rows in fixed bands on every core, as for the 16-bit layouts.
    static func eightBitCodes(_ bitmap: Bitmap, slots: Int, channels: Int) -> [UInt8] {
        let w = bitmap.width, h = bitmap.height, stride = bitmap.bytesPerRow
        let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
        return [UInt8](unsafeUninitializedCapacity: w * h * channels) { whole, initialized in
            let dst = DisjointBuffer(whole)
            _ = Parallel.map(bands.count) { b in
                bitmap.bytes.withUnsafeBufferPointer { src in
                    for y in bands[b] {
                        let row = UnsafeBufferPointer(rebasing: src[(y * stride)..<(y * stride + w * slots)])
                        let o = dst.slice(y * w * channels..<(y + 1) * w * channels)
                        var j = 0
                        for x in 0..<w {
                            switch slots {
                            case 1: o[j] = row[x]; o[j + 1] = row[x]; o[j + 2] = row[x]
                            case 2: o[j] = row[2 * x]; o[j + 1] = row[2 * x]; o[j + 2] = row[2 * x]
                            default: o[j] = row[slots * x]; o[j + 1] = row[slots * x + 1]; o[j + 2] = row[slots * x + 2]
                            }
                            if channels == 4 { o[j + 3] = slots == 2 ? row[2 * x + 1] : slots == 4 ? row[4 * x + 3] : 255 }
                            j += channels
                        }
                    }
                    return 0
                }
            }
            initialized = w * h * channels
        }
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
