import Foundation
import ImageCore
import ImageCodecs

/// The kernel-exact oracle: what a correct implementation of a declared kernel, light space and
/// edge rule must produce from the source pixels *as decoded*, in `Double`.
///
/// Where the box ``Oracle`` says what a perfect picture is (the scene's exact area average), this
/// one says what a given resizer design must output, so a correct resizer differs from it only by
/// its output rounding and gates can be a code value or two. It is written from the definitions:
///
/// 1. The source frame is decoded and turned upright (its orientation applied), read as straight
///    RGBA, then premultiplied in the averaging space: linear light (the sRGB curve, IEC 61966-2-1)
///    or the stored, encoded values.
/// 2. The placement's source rectangle is resampled to the content rectangle, one axis after the
///    other, with no rounding or clamping between the passes: output pixel `i` has its centre at
///    `start + (i + ½) · scale` source pixels, `scale = length / size`; when shrinking
///    (`scale > 1`) the kernel is widened by `scale`. Taps outside the source follow the
///    ``EdgeRule``; weights are normalised to sum 1. A source rectangle on whole pixels at the
///    content's own size is copied (no resampling at scale 1).
/// 3. Outside the content rectangle the output is transparent; with a corner radius, each pixel
///    of the content is weighted by the exact area of it inside the rounded rectangle
///    (``RoundedRectArea``).
/// 4. α is clamped to 0…1 and colour to 0…α; the result is an ``OracleImage`` (premultiplied linear).
///    (A ``Design`` that departs from the declared one, for a bug's prediction, may keep the
///    overshoot or average on a pure power curve; see its fields.)
///
/// A source that states its colours by a matrix/TRC or gray profile (embedded, or built from PNG
/// chunks) is resampled in that profile's own linear light and clamped there (``ProfileLight``)
/// — or, averaging encoded values, on its stored values — the result shown in sRGB through the
/// profile; a CMYK source, or one whose profile has lookup tables, is rendered in sRGB first.
public enum KernelOracle {
    /// `source` with colours stated other than sRGB's rendered in sRGB at 16 bits through that
    /// statement (``SRGBRendering``, Little CMS): the colours the file shows, which a correct
    /// resizer keeps. Other sources as they are.
    static func sRGBColours(of source: Image) throws -> Image {
        guard SRGBRendering.needsConversion(source) else { return source }
        guard var animation = source.animation else { return try SRGBRendering.render(source, sixteenBit: true) }
        for k in animation.frames.indices {
            var frame = source
            frame.bitmap = animation.frames[k].canvas
            frame.animation = nil
            animation.frames[k].canvas = try SRGBRendering.render(frame, sixteenBit: true).bitmap
        }
        var rendered = try SRGBRendering.render(source, sixteenBit: true)
        rendered.animation = animation
        return rendered
    }

    /// A resampler design: what a resizer declares, plus the departures from it that real bugs
    /// make (used to predict a bug's exact output for the diagnosis, ``KernelCounterfactuals``).
    public struct Design: Sendable, Hashable {
        /// The kernel.
        public var kernel: DeclaredKernel
        /// The space colour is averaged in.
        public var lightSpace: LightSpace = .linear
        /// Taps outside the source.
        public var edge: EdgeRule = .renormalize
        /// Whether colour is weighted by α while averaging (`false`: straight colour averaged,
        /// the halo bug; α is averaged alike).
        public var premultiplied = true
        /// Whether the kernel is widened by the scale when shrinking (`false`: a fixed support,
        /// which aliases).
        public var widensWhenShrinking = true
        /// Added to every output pixel's centre in source pixels, per axis (`−½`: the
        /// half-pixel offset bug of centres at `i · scale`).
        public var centreOffset: (x: Double, y: Double) = (0, 0)
        /// The exponent γ of a pure power curve (`linear = encoded^γ`) taken for the sRGB curve
        /// when averaging in linear light, or `nil` for the sRGB curve of IEC 61966-2-1.
        public var gamma: Double?
        /// Whether α is clamped to 0…1 and colour to 0…α after resampling (`false`: the
        /// overshoot of a negative-lobe kernel is kept, for a storage rule to act on).
        public var clampsOutput = true
        /// The kernel used when the resample enlarges on both axes, or `nil` for ``kernel``
        /// (OpenCV's documented choice: `INTER_AREA` to shrink, `INTER_CUBIC` to enlarge).
        public var enlargingKernel: DeclaredKernel?
        /// The bits per sample a resizer keeps between its two passes, or `nil` for none lost (the
        /// oracle's `Double`). With `n` bits, premultiplied values are stored in `n` bits before
        /// resampling and the horizontal pass's result is clamped to 0…1 and rounded to `n` bits
        /// before the vertical pass (Pillow's 8-bit modes: `RGBa` storage, then an 8-bit image
        /// between `ImagingResampleHorizontal` and `…Vertical`, and `RGBa` again after it).
        public var intermediateBits: Int?
        /// How a shrink's sums are done: exactly, or in a known library's fixed point
        /// (``LibvipsReduce``), which then decides the geometry, precision and edges of a shrink.
        public var arithmetic: ResampleArithmetic = .exact

        /// A design of `kernel` in `lightSpace` with `edge` taps, otherwise correct.
        public init(kernel: DeclaredKernel, lightSpace: LightSpace = .linear, edge: EdgeRule = .renormalize) {
            self.kernel = kernel
            self.lightSpace = lightSpace
            self.edge = edge
        }

        public static func == (a: Design, b: Design) -> Bool {
            a.kernel == b.kernel && a.lightSpace == b.lightSpace && a.edge == b.edge && a.premultiplied == b.premultiplied
                && a.widensWhenShrinking == b.widensWhenShrinking && a.centreOffset == b.centreOffset
                && a.gamma == b.gamma && a.clampsOutput == b.clampsOutput && a.intermediateBits == b.intermediateBits
                && a.enlargingKernel == b.enlargingKernel && a.arithmetic == b.arithmetic
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kernel); hasher.combine(lightSpace); hasher.combine(edge); hasher.combine(premultiplied)
            hasher.combine(widensWhenShrinking); hasher.combine(centreOffset.x); hasher.combine(centreOffset.y)
            hasher.combine(gamma); hasher.combine(clampsOutput); hasher.combine(intermediateBits); hasher.combine(enlargingKernel)
            hasher.combine(arithmetic)
        }
    }

    /// Renders frame `frame` (0 for a still image) of `source` under `placement` (from
    /// ``OracleGeometry`` for the upright source's size).
    /// - Throws: ``ConversionError`` when the frame cannot be read as RGBA;
    ///   ``OracleGeometryError`` when the content rectangle is not on whole pixels.
    public static func render(source: Image, frame: Int = 0, placement: OraclePlacement, kernel: DeclaredKernel,
                              lightSpace: LightSpace = .linear, edge: EdgeRule = .renormalize) throws -> OracleImage {
        try render(source: source, frame: frame, placement: placement, design: Design(kernel: kernel, lightSpace: lightSpace, edge: edge))
    }

    /// Renders frame `frame` of `source` under `placement` with `design` (see ``render(source:frame:placement:kernel:lightSpace:edge:)``).
    public static func render(source: Image, frame: Int = 0, placement: OraclePlacement, design: Design) throws -> OracleImage {
        if design.gamma == nil, let space = try ProfileLight(source, frame: frame, encoded: design.lightSpace == .srgb) {
            return try space.rendered(try renderStatedSRGB(source: space.reencoded, frame: frame, placement: placement, design: design))
        }
        return try renderStatedSRGB(source: try sRGBColours(of: source), frame: frame, placement: placement, design: design)
    }

    /// ``render(source:frame:placement:design:)`` of a source whose stored values are sRGB's.
    static func renderStatedSRGB(source: Image, frame: Int, placement: OraclePlacement, design: Design) throws -> OracleImage {
        let enlarges = placement.source.width <= placement.content.width && placement.source.height <= placement.content.height
        let kernel = enlarges ? design.enlargingKernel ?? design.kernel : design.kernel
        // A library's own arithmetic models its design only; a bug's departures are rendered exactly.
        if design.arithmetic == .libvipsReduce, !enlarges, design.centreOffset == (0, 0), design.gamma == nil,
           design.widensWhenShrinking, design.intermediateBits == nil,
           let image = try LibvipsReduce.render(source: source, frame: frame, placement: placement, design: design) {
            return image
        }
        let lightSpace = design.lightSpace, edge = design.edge
        var still = source
        if let animation = source.animation, frame < animation.frames.count { still.bitmap = animation.frames[frame].canvas }
        still.animation = nil
        let upright = still.oriented().bitmap
        let rgba = try upright.converted(to: .rgbaFloat)
        let w = rgba.width, h = rgba.height
        // Encoded value → averaging space, and averaging space → the linear light an OracleImage holds.
        let toAveraging: (Double) -> Double, toLinearLight: (Double) -> Double
        switch (lightSpace, design.gamma) {
        case (.linear, nil): toAveraging = srgbToLinear; toLinearLight = { $0 }
        case (.linear, let g?): toAveraging = { pow($0, g) }; toLinearLight = { srgbToLinear(pow($0, 1 / g)) }
        case (.srgb, _): toAveraging = { $0 }; toLinearLight = srgbToLinear
        }

        // Premultiplied values in the averaging space, 4 per pixel.
        var values = [Double](repeating: 0, count: w * h * 4)
        rgba.bytes.withUnsafeBytes { raw in
            for p in 0..<(w * h) {
                let y = p / w, x = p % w
                let o = y * rgba.bytesPerRow + x * 16
                func sample(_ k: Int) -> Double { Double(raw.loadUnaligned(fromByteOffset: o + 4 * k, as: Float.self)) }
                let a = min(max(sample(3), 0), 1)
                values[4 * p + 3] = a
                for k in 0..<3 {
                    let encoded = min(max(sample(k), 0), 1)
                    values[4 * p + k] = toAveraging(encoded) * (design.premultiplied ? a : 1)
                }
            }
        }
        // The stored precision of a resizer with an n-bit intermediate: clamped, rounded to a code.
        let levels = design.intermediateBits.map { Double((1 << min(max($0, 1), 24)) - 1) }
        func stored(_ v: Double) -> Double {
            guard let levels else { return v }
            return (min(max(v, 0), 1) * levels).rounded() / levels
        }
        if design.premultiplied && levels != nil { values = values.map(stored) }

        let c = placement.content, s = placement.source
        let cx0 = Int(c.x.rounded()), cy0 = Int(c.y.rounded()), cw = Int(c.width.rounded()), ch = Int(c.height.rounded())
        guard Double(cx0) == c.x, Double(cy0) == c.y, Double(cw) == c.width, Double(ch) == c.height, cw > 0, ch > 0 else {
            throw OracleGeometryError(reason: "content rectangle \(c) is not on whole pixels")
        }
        let columns = taps(inputSize: w, start: s.x, length: s.width, outputSize: cw, kernel: kernel, edge: edge,
                           widens: design.widensWhenShrinking, offset: design.centreOffset.x)
        let rows = taps(inputSize: h, start: s.y, length: s.height, outputSize: ch, kernel: kernel, edge: edge,
                        widens: design.widensWhenShrinking, offset: design.centreOffset.y)

        // Horizontal pass: h rows × cw columns.
        var horizontal = [Double](repeating: 0, count: h * cw * 4)
        for y in 0..<h {
            for (i, column) in columns.enumerated() {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for (j, weight) in column {
                    let p = 4 * (y * w + j)
                    sum.0 += weight * values[p]; sum.1 += weight * values[p + 1]
                    sum.2 += weight * values[p + 2]; sum.3 += weight * values[p + 3]
                }
                let o = 4 * (y * cw + i)
                horizontal[o] = sum.0; horizontal[o + 1] = sum.1; horizontal[o + 2] = sum.2; horizontal[o + 3] = sum.3
            }
        }
        // An axis at its own size is not resampled, so nothing is stored between passes.
        let copiesColumns = columns.allSatisfy { $0.count == 1 && $0[0].weight == 1 }
        if levels != nil && !copiesColumns { horizontal = horizontal.map(stored) }

        // Vertical pass into the canvas, with the coverage of the content shape.
        let area = RoundedRectArea(x0: c.x, y0: c.y, x1: c.x + c.width, y1: c.y + c.height, radius: placement.cornerRadius)
        var pixels = [Double](repeating: 0, count: placement.width * placement.height * 4)
        for (k, row) in rows.enumerated() {
            for i in 0..<cw {
                var sum = [0.0, 0.0, 0.0, 0.0]
                for (j, weight) in row {
                    let p = 4 * (j * cw + i)
                    for q in 0..<4 { sum[q] += weight * horizontal[p + q] }
                }
                let x = cx0 + i, y = cy0 + k
                guard x >= 0, x < placement.width, y >= 0, y < placement.height else { continue }
                let coverage = area.fraction(x: x, y: y)
                // A resizer that holds premultiplied values in n bits stores its result so too.
                if design.premultiplied && levels != nil { sum = sum.map(stored) }
                let a = design.clampsOutput ? min(max(sum[3], 0), 1) : sum[3]
                let o = 4 * (y * placement.width + x)
                for q in 0..<3 {
                    // Back to linear light from the averaging space (straight, then premultiplied again).
                    let straight: Double
                    if !design.clampsOutput {
                        straight = a > 0 ? sum[q] / (design.premultiplied ? a : 1) : 0
                    } else if design.premultiplied {
                        straight = a > 0 ? min(max(sum[q], 0), a) / a : 0
                    } else {
                        straight = a > 0 ? min(max(sum[q], 0), 1) : 0
                    }
                    pixels[o + q] = toLinearLight(straight) * a * coverage
                }
                pixels[o + 3] = a * coverage
            }
        }
        return OracleImage(width: placement.width, height: placement.height, pixels: pixels)
    }

    /// The normalised taps (source index, weight) of each output pixel along one axis.
    static func taps(inputSize n: Int, start: Double, length: Double, outputSize m: Int, kernel: DeclaredKernel,
                     edge: EdgeRule, widens: Bool = true, offset: Double = 0) -> [[(index: Int, weight: Double)]] {
        // A whole-pixel window at its own size is a copy.
        if length == Double(m), start == start.rounded(), Int(start) >= 0, Int(start) + m <= n, offset == 0 {
            return (0..<m).map { [(Int(start) + $0, 1.0)] }
        }
        let scale = length / Double(m)
        let widen = kernel == .nearest || !widens ? 1 : max(scale, 1)
        let support = kernel.support * widen
        return (0..<m).map { i in
            let centre = start + (Double(i) + 0.5) * scale + offset
            let nearest = min(max(Int(centre.rounded(.down)), 0), n - 1)
            if kernel == .nearest { return [(nearest, 1.0)] }
            var taps: [Int: Double] = [:]
            for j in Int((centre - support).rounded(.down))...Int((centre + support).rounded(.up)) {
                let weight = kernel == .area ? DeclaredKernel.overlap(Double(j) + 0.5 - centre, footprint: widen)
                    : kernel.weight((Double(j) + 0.5 - centre) / widen)
                guard weight != 0 else { continue }
                if j >= 0 && j < n {
                    taps[j, default: 0] += weight
                } else if edge == .clamp {
                    taps[min(max(j, 0), n - 1), default: 0] += weight
                } else if edge == .wrap {
                    taps[(j % n + n) % n, default: 0] += weight
                }
            }
            // Summed in index order: a dictionary's order changes from process to process, and so
            // would the last bit of the total (and now and then a 16-bit code of the oracle).
            let indices = taps.keys.sorted()
            let total = indices.reduce(0) { $0 + (taps[$1] ?? 0) }
            // A box narrower than the pixel spacing can miss every centre: take the pixel under the centre.
            guard total != 0 else { return [(nearest, 1.0)] }
            return indices.map { ($0, (taps[$0] ?? 0) / total) }
        }
    }

    /// The sRGB decoding curve (IEC 61966-2-1), encoded 0…1 → linear 0…1.
    static func srgbToLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
}
