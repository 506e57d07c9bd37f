import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// Exact predictions of a resizer's output under bug hypotheses, for a pair judged against the
/// ``KernelOracle``: the declared design rendered again with one departure that a real bug makes.
/// Against the kernel-exact oracle a correct resizer differs only by rounding, so each prediction
/// is what the buggy resizer outputs (up to rounding) and needs no control
/// (``ImageMetrics/Counterfactual``).
///
/// The hypotheses (each the definition of the bug, never a mutant's code). Design departures:
/// - `kernel.light-space` (light-space, B11): averaged in the other light space (sRGB codes where
///   linear light is declared, or the reverse); when the operation resamples.
/// - `kernel.power-gamma` (light-space, B11): linear light taken as a pure power `encoded^2.2`
///   instead of the sRGB curve (IEC 61966-2-1), both ways; when it resamples in linear light.
/// - `kernel.point-sampling` (aliasing, D10): the source pixel under each output pixel's centre;
///   when it shrinks.
/// - `kernel.fixed-support` (aliasing, B12/D10): the kernel not widened by the scale when
///   shrinking; when it shrinks.
/// - `kernel.half-pixel` (pixel-shift, B19): pixel centres at `i · scale` instead of
///   `(i + ½) · scale` on both axes; `kernel.half-pixel-x` and `kernel.half-pixel-y` on one
///   axis only; when it resamples.
/// - `kernel.wrap-edges` (edge-handling, B20): taps outside the image read from the opposite edge
///   (the image tiled) instead of the declared edge rule; when it resamples.
/// - `kernel.straight-resampling` (premultiplication, B4): straight colour averaged, not weighted
///   by α (halos at alpha edges, hidden colour bleeding in); for a source with α < 1 somewhere.
///
/// Source departures (the design kept, the decoded source read otherwise):
/// - `kernel.straight-as-premultiplied` (premultiplication, D2/D6): the source's straight
///   colour read as already premultiplied.
/// - `kernel.alpha-dropped` (alpha-dropped, D2/D7): the source's alpha channel ignored, the
///   colour stored under it shown opaque.
/// - `kernel.palette-transparency-ignored` (alpha-dropped, D3): the palette's transparent
///   entries shown opaque.
/// - `kernel.cmyk-inversion` (cmyk-inversion, B13): the source's CMYK inks read with the other
///   polarity (Adobe-inverted `1 − ink` read as plain ink, or the reverse).
/// - `profile.dropped` (colour-profile, B14): the source's colour statement (ICC profile, PNG
///   gAMA/cHRM/cICP, CMYK profile) dropped or ignored, its stored values read as sRGB; for a
///   tagged source and an output that states no colours.
/// - `kernel.float-range` (value-range, B9): every stored sample of a floating-point source
///   divided by 255 (0…1 samples read as if their full scale were 255).
///
/// Output departures: `profile.applied-twice` (colour-profile, B14; an untagged output) and
/// `profile.converted-tag-kept` (a tagged one): the correct sRGB output read once more as if in
/// the source's stated space, for an RGB or gray tagged source.
///
/// Storage departures (what the resizer writes, given the output's stored depth):
/// - `kernel.8bit-intermediate` (16-bit, B9): a 16-bit source's samples rounded to 8 bits before
///   resampling, and the result rounded to 8 bits (stored in 16); for a 16-bit source.
/// - `kernel.8bit-pipeline` (16-bit, B9): a 16-bit source read by its high bytes (as libpng's
///   `png_set_strip_16` and Pillow's 8-bit modes do) and resampled with the declared intermediate
///   held in 8 bits: an 8-bit image throughout; for a contract with an intermediate.
/// - `kernel.premultiplied-8bit` (premultiplied-precision, B5): every pixel held premultiplied in
///   8 bits (`p = round(e · α · 255)`, straight again `round(p · 255 / round(α · 255))`), on the
///   way in and on the way out; for a source with α < 1 somewhere and an 8-bit output.
/// - `kernel.truncation` (rounding): each 8-bit sample `⌊v₁₆ · 255 / 65535⌋` of the 16-bit
///   rounded value instead of its rounding (a −½ code bias); for an 8-bit output.
/// - `kernel.overshoot-wrap` (overshoot, B21): the kernel's overshoot not clamped, each sample
///   `round(v · max)` kept modulo 2ⁿ (straight colour `c / α` for α > 0, 0 otherwise, encoded by
///   the sRGB formulas extended beyond 0…1); when it resamples, for an 8- or 16-bit output.
public enum KernelCounterfactuals {
    /// How a prediction's samples are stored (the storage departures).
    enum Storage {
        /// Exactly, as the oracle (16-bit rounding).
        case exact
        /// Every sample rounded to 8 bits.
        case rounded8
        /// Every sample truncated to 8 bits from its 16-bit rounding.
        case truncated8
        /// Premultiplied in 8 bits, then straight in 8 bits.
        case premultiplied8
        /// Unclamped, rounded and kept modulo 2^bits.
        case wrapped(bits: Int)
    }

    /// The predictions for frame `frame` of `source` under `placement`, for a resizer of `design`
    /// whose output stores pixels as `output` (its bits per component choose the storage
    /// departures; `nil` offers none). Hypotheses that do not apply, or that predict the correct
    /// output itself, are left out.
    public static func counterfactuals(source: Image, frame: Int, placement: OraclePlacement,
                                       design: KernelOracle.Design, output: PixelFormat? = nil,
                                       outputStatesColours: Bool = false) -> [Counterfactual] {
        guard let correct = try? KernelOracle.render(source: source, frame: frame, placement: placement, design: design) else { return [] }
        let resamples = placement.source.width != placement.content.width || placement.source.height != placement.content.height
            || placement.source.x != placement.source.x.rounded() || placement.source.y != placement.source.y.rounded()
        let shrinks = placement.reduction > 1
        let outputBits = output.flatMap { $0.isFloat ? nil : ($0.bitsPerComponent <= 8 ? 8 : 16) }
        var hypotheses: [(id: String, bugClass: String, name: String, references: [String], source: Image, design: KernelOracle.Design, storage: Storage)] = []
        func add(_ id: String, _ bugClass: String, _ name: String, _ references: [String], source s: Image = source,
                 storage: Storage = .exact, _ change: (inout KernelOracle.Design) -> Void = { _ in }) {
            var d = design
            change(&d)
            hypotheses.append((id, bugClass, name, references, s, d, storage))
        }
        let sx = placement.source.width / placement.content.width, sy = placement.source.height / placement.content.height
        if resamples {
            add("kernel.light-space", "light-space",
                design.lightSpace == .linear ? "averaged in gamma-encoded sRGB instead of linear light (the declared design re-averaged in sRGB predicts it)"
                    : "averaged in linear light where sRGB averaging is declared", ["B11"]) {
                $0.lightSpace = design.lightSpace == .linear ? .srgb : .linear
            }
            if design.lightSpace == .linear && design.gamma == nil {
                add("kernel.power-gamma", "light-space",
                    "linear light taken as a pure power 2.2 instead of the sRGB curve: mixed pixels off, most in the dark tones", ["B11"]) {
                    $0.gamma = 2.2
                }
            }
            add("kernel.half-pixel", "pixel-shift", "pixel centres at i·scale instead of (i + ½)·scale: the image shifts by half a source pixel", ["B19"]) {
                $0.centreOffset = (-0.5 * sx, -0.5 * sy)
            }
            add("kernel.half-pixel-x", "pixel-shift", "pixel centres at i·scale instead of (i + ½)·scale across (x) only: the image shifts left by half a source pixel", ["B19"]) {
                $0.centreOffset = (-0.5 * sx, 0)
            }
            add("kernel.half-pixel-y", "pixel-shift", "pixel centres at i·scale instead of (i + ½)·scale down (y) only: the image shifts up by half a source pixel", ["B19"]) {
                $0.centreOffset = (0, -0.5 * sy)
            }
            if design.edge != .wrap {
                add("kernel.wrap-edges", "edge-handling",
                    "taps outside the image read from the opposite edge (wrap-around, a sampler's repeat mode): each border takes colour from the other side", ["B20"]) {
                    $0.edge = .wrap
                }
            }
            if let bits = outputBits {
                add("kernel.overshoot-wrap", "overshoot",
                    "the kernel's overshoot not clamped: samples past the \(bits)-bit range wrap around (white next to dark turns black, black turns white)", ["B21"],
                    storage: .wrapped(bits: bits)) {
                    $0.clampsOutput = false
                }
            }
        }
        if shrinks {
            add("kernel.point-sampling", "aliasing", "nearest-neighbour sampling where a filter was expected: one source pixel per output pixel", ["D10"]) {
                $0.kernel = .nearest
            }
            if design.kernel != .nearest {
                add("kernel.fixed-support", "aliasing", "the kernel not widened when shrinking: a fixed support aliases", ["D10", "B12"]) {
                    $0.widensWhenShrinking = false
                }
            }
        }
        let bitmap = source.animation.flatMap { frame < $0.frames.count ? $0.frames[frame].canvas : nil } ?? source.bitmap
        let rgba = try? bitmap.converted(to: .rgba16)
        let notOpaque = rgba.map { ValueImage($0, withAlpha: true).hasTranslucency } ?? false
        if let rgba, notOpaque || hasTransparency(rgba) {
            add("kernel.straight-resampling", "premultiplication",
                "straight colour resampled without premultiplying by alpha: halos at alpha edges, colour hidden under α = 0 bleeds in", ["B4", "D2"]) {
                $0.premultiplied = false
            }
        }
        if let relabelled = CounterfactualOracle.straightReadAsPremultiplied(bitmap, orTransparent: true) {
            add("kernel.straight-as-premultiplied", "premultiplication",
                "straight alpha resampled as if premultiplied (the source's straight colour read as premultiplied predicts it)", ["D2", "D6"],
                source: replacing(source, frame: frame, with: relabelled))
        }
        if let opaque = CounterfactualOracle.alphaDropped(bitmap) {
            add("kernel.alpha-dropped", "alpha-dropped",
                "alpha channel ignored: every pixel shown opaque with the colour stored under it (colour hidden under α = 0 appears)", ["D2", "D7"],
                source: replacing(source, frame: frame, with: opaque))
        }
        if let opaque = CounterfactualOracle.opaquePalette(bitmap) {
            add("kernel.palette-transparency-ignored", "alpha-dropped",
                "palette transparency ignored (PNG tRNS / GIF transparent index): transparent entries shown opaque", ["D3", "D7"],
                source: replacing(source, frame: frame, with: opaque))
        }
        if let flipped = inksFlipped(bitmap) {
            add("kernel.cmyk-inversion", "cmyk-inversion",
                "CMYK inks read with the wrong polarity (Adobe APP14 inverted CMYK read as plain, or the reverse): a negative image", ["B13"],
                source: replacing(source, frame: frame, with: flipped))
        }
        let statement = SRGBRendering.statedProfile(source).map { ($0, ProfileCounterfactuals.statementWords(source)) }
        if statement != nil, !outputStatesColours {
            var plain = source
            plain.metadata = source.metadata.statingColours(by: nil)
            add("profile.dropped", "colour-profile",
                "the source's colour statement (\(statement?.1 ?? "")) dropped or ignored: its stored values resized and shown as sRGB", ["B14"],
                source: plain)
        }
        if let misread = floatRangeMisread(bitmap) {
            add("kernel.float-range", "value-range",
                "floating-point samples of full scale 1 read as if their full scale were 255: everything near black (and near transparent)", ["B9"],
                source: replacing(source, frame: frame, with: misread))
        }
        if let rgba, let fields = fieldWidths(rgba) {
            let widths = fields.map(String.init).joined(separator: "/")
            for rule in WideningRule.allCases {
                add("kernel.widening-\(rule.rawValue)", "bit-depth",
                    "\(widths)-bit samples widened to 8 bits by \(rule.words) instead of scaling (c · 255 / (2ⁿ − 1), rounded): up to a code or more off", ["D4"],
                    source: replacing(source, frame: frame, with: widened(rgba, fields: fields, rule: rule)))
            }
        }
        if bitmap.format.bitsPerComponent == 16, !bitmap.format.isFloat, let rgba {
            add("kernel.8bit-intermediate", "16-bit",
                "a 16-bit source processed in 8 bits: samples rounded to 8 bits on the way in and out (256 levels stored in 16 bits)", ["B9", "D4"],
                source: replacing(source, frame: frame, with: roundedTo8Bits(rgba)), storage: .rounded8)
            if design.intermediateBits != nil {
                add("kernel.8bit-pipeline", "16-bit",
                    "a 16-bit source read as 8 bits (its high bytes) and resampled as an 8-bit image, between the passes too", ["B9", "D4"],
                    source: replacing(source, frame: frame, with: highBytes(rgba)), storage: .rounded8) { $0.intermediateBits = 8 }
            }
        }
        if outputBits == 8, notOpaque, let rgba {
            add("kernel.premultiplied-8bit", "premultiplied-precision",
                "colour held premultiplied in 8 bits: dark translucent colours lose precision (straight colour off by up to ½ / α codes)", ["B5"],
                source: replacing(source, frame: frame, with: premultipliedIn8Bits(rgba)), storage: .premultiplied8)
        }
        if outputBits == 8 {
            add("kernel.truncation", "rounding",
                "samples truncated to 8 bits instead of rounded: every value up to one code low (a −½ code bias)", [],
                storage: .truncated8)
        }
        let correctBitmap = correct.bitmap16()
        var out: [Counterfactual] = hypotheses.compactMap { h in
            guard let model = try? KernelOracle.render(source: h.source, frame: frame, placement: placement, design: h.design) else { return nil }
            let predicted = stored(model, h.storage)
            guard predicted.bytes != correctBitmap.bytes else { return nil }
            return Counterfactual(id: h.id, bugClass: h.bugClass, name: h.name, references: h.references, predicted: Image(bitmap: predicted))
        }
        if statement != nil {
            out += ProfileCounterfactuals.convertedAgain(correctBitmap, source: source, outputStatesColours: outputStatesColours)
        }
        return out
    }

    /// Whether some pixel is fully transparent (where straight resampling lets hidden colour in).
    static func hasTransparency(_ rgba16: Bitmap) -> Bool {
        stride(from: 6, to: rgba16.bytes.count, by: 8).contains { rgba16.bytes[$0] == 0 && rgba16.bytes[$0 + 1] == 0 }
    }

    /// `source` with frame `frame`'s pixels (or the still image's) replaced by `bitmap`.
    static func replacing(_ source: Image, frame: Int, with replacement: Bitmap) -> Image {
        var image = source
        // A source without alpha stays without it (a library's arithmetic may take another path with alpha).
        let original = source.animation.flatMap { frame < $0.frames.count ? $0.frames[frame].canvas : nil } ?? source.bitmap
        let bitmap = replacement.format == .rgba16 && !original.format.hasAlpha
            ? (try? replacement.converted(to: .rgb16)) ?? replacement : replacement
        if var animation = image.animation, frame < animation.frames.count {
            animation.frames[frame].canvas = bitmap
            image.animation = animation
        } else {
            image.bitmap = bitmap
        }
        return image
    }

    // MARK: Source departures

    /// A CMYK `bitmap` with the other ink polarity, the bytes unchanged; `nil` for other models.
    static func inksFlipped(_ bitmap: Bitmap) -> Bitmap? {
        guard case .cmyk(let inverted) = bitmap.format.colorModel else { return nil }
        let f = bitmap.format
        let format = PixelFormat(colorModel: .cmyk(inverted: !inverted), bitsPerComponent: f.bitsPerComponent, alphaInfo: f.alphaInfo,
                                 byteOrder: f.byteOrder, isFloat: f.isFloat)
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, format: format, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes)
    }

    /// A floating-point `bitmap` as straight float RGBA with every stored sample divided by 255
    /// (alpha too when the format stores it; otherwise α stays 1); `nil` for integer formats.
    static func floatRangeMisread(_ bitmap: Bitmap) -> Bitmap? {
        guard bitmap.format.isFloat, let rgba = try? bitmap.converted(to: .rgbaFloat) else { return nil }
        let storesAlpha = bitmap.format.alphaInfo.hasAlpha
        var bytes = rgba.bytes
        for y in 0..<rgba.height {
            for x in 0..<rgba.width {
                for k in 0..<(storesAlpha ? 4 : 3) {
                    let o = y * rgba.bytesPerRow + x * 16 + 4 * k
                    // PixelFormat.rgbaFloat is host order: little-endian on every platform imglab runs on.
                    let bits = UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
                    let scaled = (Float(bitPattern: bits) / 255).bitPattern
                    for b in 0..<4 { bytes[o + b] = UInt8((scaled >> (8 * UInt32(b))) & 0xFF) }
                }
            }
        }
        return Bitmap(uncheckedWidth: rgba.width, height: rgba.height, format: .rgbaFloat, bytesPerRow: rgba.bytesPerRow, bytes: bytes)
    }

    /// A `.rgba16` bitmap with every sample rounded to 8 bits: `round(v · 255 / 65535) · 257`.
    static func roundedTo8Bits(_ rgba16: Bitmap) -> Bitmap {
        mapping(rgba16) { samples in samples.map { rounded8($0) } }
    }

    /// A `.rgba16` bitmap with every sample cut to its high byte (`(v >> 8) · 257`).
    static func highBytes(_ rgba16: Bitmap) -> Bitmap {
        mapping(rgba16) { samples in samples.map { ($0 >> 8) * 257 } }
    }

    /// A `.rgba16` bitmap (straight) held premultiplied in 8 bits and read back at 16-bit
    /// resolution: `a₈ = round(α · 255)`, `p = round(e · α · 255)`, straight `e' = p / a₈`
    /// (0 where `a₈ = 0`), stored `round(e' · 65535)` with α `a₈ · 257`.
    static func premultipliedIn8Bits(_ rgba16: Bitmap) -> Bitmap {
        mapping(rgba16) { s in
            let (a8, p) = premultiplied8Codes(s)
            var out = [UInt16](repeating: 0, count: 4)
            out[3] = UInt16(a8 * 257)
            for c in 0..<3 where a8 > 0 { out[c] = UInt16(min(Double(p[c]) / Double(a8), 1) * 65535 + 0.5) }
            return out
        }
    }

    /// A straight 16-bit RGBA sample held premultiplied in 8 bits: `a₈ = round(α · 255)` and,
    /// per colour, `p = round(e · α · 255)`.
    static func premultiplied8Codes(_ s: [UInt16]) -> (alpha: Int, colour: [Int]) {
        let alpha = Double(s[3]) / 65535
        return (Int((alpha * 255).rounded()), (0..<3).map { Int((Double(s[$0]) / 65535 * alpha * 255).rounded()) })
    }

    // MARK: Storage departures

    /// The 16-bit straight RGBA a resizer that stores `model` by `storage` writes.
    static func stored(_ model: OracleImage, _ storage: Storage) -> Bitmap {
        switch storage {
        case .exact:
            return model.bitmap16()
        case .rounded8:
            return roundedTo8Bits(model.bitmap16())
        case .truncated8:
            return mapping(model.bitmap16()) { $0.map { UInt16(Int($0) * 255 / 65535 * 257) } }
        case .premultiplied8:
            return mapping(model.bitmap16()) { s in
                let (a8, p) = premultiplied8Codes(s)
                var out = [UInt16](repeating: 0, count: 4)
                out[3] = UInt16(a8 * 257)
                for c in 0..<3 where a8 > 0 { out[c] = UInt16(min(Int((Double(p[c]) * 255 / Double(a8)).rounded()), 255) * 257) }
                return out
            }
        case .wrapped(let bits):
            return wrapped(model, bits: bits)
        }
    }

    /// `model` (unclamped) stored modulo 2^bits as 16-bit straight RGBA (8-bit codes × 257).
    static func wrapped(_ model: OracleImage, bits: Int) -> Bitmap {
        let maxCode = Double((1 << bits) - 1), mask = (1 << bits) - 1, widen = bits == 8 ? 257 : 1
        var samples = [UInt16](repeating: 0, count: model.width * model.height * 4)
        for p in 0..<(model.width * model.height) {
            let a = model.pixels[4 * p + 3]
            func code(_ v: Double) -> UInt16 {
                guard v.isFinite else { return 0 }
                return UInt16((Int((v * maxCode).rounded()) & mask) * widen)
            }
            for c in 0..<3 {
                let linear = a > 0 ? model.pixels[4 * p + c] / a : 0
                samples[4 * p + c] = code(linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055)
            }
            samples[4 * p + 3] = code(a)
        }
        return sixteenBit(width: model.width, height: model.height, samples: samples)
    }

    /// `round(v · 255 / 65535) · 257` in integers (half up).
    static func rounded8(_ v: UInt16) -> UInt16 {
        UInt16((Int(v) * 255 + 32767) / 65535 * 257)
    }

    /// A `.rgba16` bitmap with each pixel's four samples replaced by `transform`'s.
    static func mapping(_ rgba16: Bitmap, _ transform: ([UInt16]) -> [UInt16]) -> Bitmap {
        var samples = [UInt16](repeating: 0, count: rgba16.width * rgba16.height * 4)
        for y in 0..<rgba16.height {
            for x in 0..<rgba16.width {
                let o = y * rgba16.bytesPerRow + x * 8
                let pixel = (0..<4).map { UInt16(rgba16.bytes[o + 2 * $0]) << 8 | UInt16(rgba16.bytes[o + 2 * $0 + 1]) }
                let out = transform(pixel)
                for k in 0..<4 { samples[(y * rgba16.width + x) * 4 + k] = out[k] }
            }
        }
        return sixteenBit(width: rgba16.width, height: rgba16.height, samples: samples)
    }

    /// A `.rgba16` bitmap from its samples (4 per pixel, row-major).
    static func sixteenBit(width: Int, height: Int, samples: [UInt16]) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (i, s) in samples.enumerated() {
            bytes[2 * i] = UInt8(s >> 8)
            bytes[2 * i + 1] = UInt8(s & 0xFF)
        }
        return Bitmap(uncheckedWidth: width, height: height, format: .rgba16, bytesPerRow: width * 8, bytes: bytes)
    }

    /// How a decoder widens an n-bit field `c` (n = 5 or 6) to 8 bits, other than the exact scaling.
    enum WideningRule: String, CaseIterable {
        /// Bit replication: `c << (8 − n) | c >> (2n − 8)`.
        case replicated
        /// Scaling with the quotient truncated: `⌊c · 255 / (2ⁿ − 1)⌋` (Pillow's BMP unpackers).
        case truncated
        /// A bare shift: `c << (8 − n)` (white becomes 248 or 252).
        case shifted

        var words: String {
            switch self {
            case .replicated: return "bit replication (c << (8 − n) | c >> (2n − 8))"
            case .truncated: return "a truncating scale (⌊c · 255 / (2ⁿ − 1)⌋)"
            case .shifted: return "a bare shift (c << (8 − n))"
            }
        }

        func widen(_ c: Int, bits n: Int) -> Int {
            switch self {
            case .replicated: return c << (8 - n) | c >> (2 * n - 8)
            case .truncated: return c * 255 / ((1 << n) - 1)
            case .shifted: return c << (8 - n)
            }
        }
    }

    /// The field widths (5 or 6 bits) of R, G and B when every 8-bit colour value of `rgba16`
    /// (`round(v · 255 / 65535)`) lies on the exact scaling grid of such a field
    /// (`round(c · 255 / (2ⁿ − 1))`) and some lie off the 0/255 ends: a 16-bit-per-pixel BMP or
    /// TIFF source (555, 565) decoded exactly. `nil` otherwise.
    static func fieldWidths(_ rgba16: Bitmap) -> [Int]? {
        var values = [Set<Int>](repeating: [], count: 3)
        for y in 0..<rgba16.height {
            for x in 0..<rgba16.width {
                let o = y * rgba16.bytesPerRow + x * 8
                for k in 0..<3 {
                    values[k].insert(Int(rounded8(UInt16(rgba16.bytes[o + 2 * k]) << 8 | UInt16(rgba16.bytes[o + 2 * k + 1])) / 257))
                }
                if values.contains(where: { $0.count > 64 }) { return nil }
            }
        }
        guard values.contains(where: { !$0.isSubset(of: [0, 255]) }) else { return nil }
        var widths: [Int] = []
        for set in values {
            guard let n = [5, 6].first(where: { n in
                let m = (1 << n) - 1
                return set.allSatisfy { v in ((v * m + 127) / 255 * 255 + m / 2) / m == v }
            }) else { return nil }
            widths.append(n)
        }
        return widths
    }

    /// `rgba16` with each colour value re-widened from its n-bit field by `rule`.
    static func widened(_ rgba16: Bitmap, fields: [Int], rule: WideningRule) -> Bitmap {
        mapping(rgba16) { s in
            var out = s
            for k in 0..<3 {
                let n = fields[k], m = (1 << n) - 1
                let v = Int(rounded8(s[k]) / 257)
                out[k] = UInt16(rule.widen((v * m + 127) / 255, bits: n)) * 257
            }
            return out
        }
    }
}
