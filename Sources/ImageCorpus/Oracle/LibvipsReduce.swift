import Foundation
import ImageCore

/// How a resizer does the arithmetic of a shrink: the oracle's exact `Double` sums, or a known
/// library's fixed-point reduce, modelled operation by operation so its rounding is part of the
/// design it is judged against rather than a hundred one-code failures.
public enum ResampleArithmetic: String, Sendable, Hashable, Codable, CaseIterable {
    /// Exact sums in `Double` (``KernelOracle``'s definition).
    case exact
    /// libvips 8.14's `vips_thumbnail` shrink (``LibvipsReduce``).
    case libvipsReduce = "libvips-reduce"

    /// Whether this arithmetic has a model of `kernel` (libvips' reduce: triangle, the cubics and Lanczos-3).
    public func models(_ kernel: DeclaredKernel) -> Bool {
        self == .exact || LibvipsReduce.tapsPerShrink(kernel) != nil
    }
}

/// libvips 8.14's shrink as `vipsthumbnail` runs it, written from its source
/// (`resample/thumbnail.c`, `resize.c`, `reducev.cpp`, `reduceh.cpp`, `shrinkv.c`, `templates.h`,
/// `iofuncs/vector.c`) and checked bit for bit against `vipsthumbnail` 8.14.1 on Debian 12
/// (`Tests/Fixtures/reference/libvips/`):
///
/// 1. **Geometry.** In a fit or fill the same factor shrinks both axes (`vshrink = hshrink`), so
///    an axis whose size was rounded takes `round(size · shrink)` source pixels, centred:
///    output pixel `o` is centred on `(o + ½) · shrink − extra / 2` (continuous coordinates),
///    `extra = out · shrink − in`. The shrink runs on the stored pixels, vertical pass first;
///    the orientation is applied after it.
/// 2. **Box pre-shrink.** An axis shrunk by `k = ⌊in / out / 2⌋ > 1` is first averaged over
///    blocks of `k` pixels (the last block padded by copying the edge), rounded to a code for
///    8-bit samples; the residual `shrink / k` is reduced as below with the same `extra / k`.
/// 3. **Kernel.** `n = 2·rint(a·shrink) + 1` taps (a = 1 triangle, 2 cubic, 3 Lanczos-3),
///    weights `K((i − x − n/2 + 1) / shrink)` normalised, tabulated for 65 fractional positions:
///    a centre's fraction is quantised to 1/64 (`VIPS_TRANSFORM_SHIFT`, rounding half up, and
///    read from the two's complement bits when the centre is left of pixel 0). Edge taps copy
///    the border pixel.
/// 4. **Precision.** Without alpha the samples are 8-bit: the vertical pass uses Orc's 2.6
///    fixed point (weights × 64 rounded to integers with the same sum, `(Σ + 32) >> 6`), the
///    horizontal pass 12-bit weights (`⌊w · 4096⌋`, `(Σ + 2048) >> 12`), each clamped to 0…255.
///    With alpha (both axes shrunk) the colour is premultiplied into floats and reduced with
///    `Double` weights, then divided by α again (the final cast's truncation is *not* part of the
///    design: it is the rounding bug class, reported when it shows). 16-bit samples are narrowed
///    to 8 bits first by dropping the low byte (`vips_colourspace` to sRGB): the 16 bits lost are
///    the defect a 16-bit pair fails for, this only keeps its arithmetic honest.
///
/// Returns `nil` when the placement is not one `vips_thumbnail` makes (a source window that
/// is not the whole image, an enlarged axis, sizes its rounding would not give): the exact
/// arithmetic is used there.
enum LibvipsReduce {
    /// Renders frame `frame` of `source` under `placement` with `design`'s kernel and light space
    /// in libvips' arithmetic; `nil` where the model does not apply (see the type's notes).
    static func render(source: Image, frame: Int, placement: OraclePlacement,
                       design: KernelOracle.Design) throws -> OracleImage? {
        guard let taps = tapsPerShrink(design.kernel) else { return nil }
        var still = source
        if let animation = source.animation, frame < animation.frames.count { still.bitmap = animation.frames[frame].canvas }
        still.animation = nil
        let stored = try still.bitmap.converted(to: .rgbaFloat)
        let orientation = still.orientation
        let w = stored.width, h = stored.height
        let upright = orientation.displaySize(width: w, height: h)
        let c = placement.content
        guard let frame = framing(placement, upright: (Double(upright.width), Double(upright.height))) else { return nil }
        // Factors and output sizes in the stored orientation.
        let swaps = orientation.swapsDimensions
        let fx = swaps ? frame.factors.y : frame.factors.x, fy = swaps ? frame.factors.x : frame.factors.y
        let outW = swaps ? frame.resized.height : frame.resized.width, outH = swaps ? frame.resized.width : frame.resized.height
        guard fx >= 1, fy >= 1 else { return nil }

        let linear = design.lightSpace == .linear
        func toAveraging(_ v: Double) -> Double { linear ? KernelOracle.srgbToLinear(v) : v }
        func fromAveraging(_ v: Double) -> Double { linear ? v : KernelOracle.srgbToLinear(v) }
        let hasAlpha = still.bitmap.format.hasAlpha
        // vips_colourspace narrows 16-bit samples to 8 by dropping the low byte before the shrink.
        let narrowed = still.bitmap.format.bitsPerComponent > 8 && !still.bitmap.format.isFloat
        func code(_ v: Double) -> Double { narrowed ? ((v * 65535).rounded() / 256).rounded(.down) : (v * 255).rounded() }
        // Planes of 0…255 values, one per channel: premultiplied floats with alpha, codes without.
        var planes = Array(repeating: [Double](repeating: 0, count: w * h), count: 4)
        stored.bytes.withUnsafeBytes { raw in
            for p in 0..<(w * h) {
                let o = (p / w) * stored.bytesPerRow + (p % w) * 16
                func sample(_ k: Int) -> Double {
                    let v = Double(raw.loadUnaligned(fromByteOffset: o + 4 * k, as: Float.self))
                    return v.isFinite ? min(max(v, 0), 1) : 0
                }
                let a = hasAlpha ? sample(3) : 1
                planes[3][p] = narrowed ? code(a) : a * 255
                for k in 0..<3 {
                    // 8-bit codes, premultiplied as floats with alpha.
                    let v = narrowed ? code(toAveraging(sample(k))) : toAveraging(sample(k)) * 255
                    planes[k][p] = hasAlpha ? v * (design.premultiplied ? planes[3][p] / 255 : 1) : v.rounded()
                }
            }
        }
        let integer = !hasAlpha
        var size = (width: w, height: h)
        for k in 0..<4 {
            var plane = planes[k]
            var sz = (width: w, height: h)
            if fy > 1 {
                plane = reduce(plane, along: .vertical, size: &sz, shrink: fy, out: outH, taps: taps,
                               kernel: design.kernel, integer: integer)
            }
            if fx > 1 {
                plane = reduce(plane, along: .horizontal, size: &sz, shrink: fx, out: outW, taps: taps,
                               kernel: design.kernel, integer: integer)
            }
            guard sz.width == outW, sz.height == outH else { return nil }
            planes[k] = plane
            size = sz
        }

        // Upright, placed on the canvas, back to premultiplied linear light.
        let display = orientation.displaySize(width: size.width, height: size.height)
        let cx0 = Int(c.x.rounded()), cy0 = Int(c.y.rounded()), cw = Int(c.width), ch = Int(c.height)
        let area = RoundedRectArea(x0: c.x, y0: c.y, x1: c.x + c.width, y1: c.y + c.height, radius: placement.cornerRadius)
        var pixels = [Double](repeating: 0, count: placement.width * placement.height * 4)
        let inverse = orientation.inverse
        for dy in 0..<display.height {
            for dx in 0..<display.width {
                let x = cx0 + dx - frame.crop.x, y = cy0 + dy - frame.crop.y
                guard x >= max(cx0, 0), x < min(cx0 + cw, placement.width), y >= max(cy0, 0), y < min(cy0 + ch, placement.height) else { continue }
                let p = inverse.displayPoint(x: dx, y: dy, width: display.width, height: display.height)
                let i = p.y * size.width + p.x
                // vips_unpremultiply divides by α as reduced (a kernel's overshoot included), then clips α.
                let alpha = planes[3][i]
                let a = min(max(alpha, 0), 255) / 255
                let coverage = area.fraction(x: x, y: y)
                let o = 4 * (y * placement.width + x)
                for k in 0..<3 {
                    // vips_unpremultiply: colour × 255 / α, 0 where |α| < 0.01.
                    let straight = hasAlpha && design.premultiplied ? (abs(alpha) < 0.01 ? 0 : planes[k][i] / alpha) : planes[k][i] / 255
                    pixels[o + k] = fromAveraging(min(max(straight, 0), 1)) * a * coverage
                }
                pixels[o + 3] = a * coverage
            }
        }
        return OracleImage(width: placement.width, height: placement.height, pixels: pixels)
    }

    /// How `vips_thumbnail` frames `placement`: its shrink factors (canvas pixels per output
    /// pixel), the size it resizes the whole upright image to, and where the content's window
    /// lies in that (a fill's crop); `nil` for placements it does not make.
    ///
    /// An aspect-preserving operation shrinks both axes by one factor, `1 / aspectScale`, to
    /// `round(size / factor)`; a fill then crops the box at the anchor (`vips_smartcrop`'s
    /// low, centre and high: `⌊anchor · (resized − box)⌋`). A stretch shrinks each axis to its size.
    static func framing(_ placement: OraclePlacement, upright: (width: Double, height: Double))
        -> (factors: (x: Double, y: Double), resized: (width: Int, height: Int), crop: (x: Int, y: Int))? {
        let c = placement.content, s = placement.source
        guard c.width >= 1, c.height >= 1, c.width == c.width.rounded(), c.height == c.height.rounded() else { return nil }
        let whole = s.x == 0 && s.y == 0 && s.width == upright.width && s.height == upright.height
        guard let scale = placement.aspectScale, scale > 0 else {
            guard whole else { return nil }
            return ((upright.width / c.width, upright.height / c.height), (Int(c.width), Int(c.height)), (0, 0))
        }
        let f = 1 / scale
        let resized = (width: Int(roundHalfUp(upright.width / f)), height: Int(roundHalfUp(upright.height / f)))
        guard resized.width >= Int(c.width), resized.height >= Int(c.height) else { return nil }
        if whole {
            guard resized.width == Int(c.width), resized.height == Int(c.height) else { return nil }
            return ((f, f), resized, (0, 0))
        }
        func offset(_ start: Double, _ window: Double, _ length: Double, _ resizedLength: Int, _ box: Double) -> Int {
            let anchor = length > window ? start / (length - window) : 0
            return Int((anchor * Double(resizedLength - Int(box))).rounded(.down))
        }
        return ((f, f), resized, (offset(s.x, s.width, upright.width, resized.width, c.width),
                                  offset(s.y, s.height, upright.height, resized.height, c.height)))
    }

    enum Axis { case horizontal, vertical }

    /// Kernel reach per unit of shrink (`a` in `n = 2·rint(a·shrink) + 1`), for the kernels
    /// libvips' reduce has.
    static func tapsPerShrink(_ kernel: DeclaredKernel) -> Double? {
        switch kernel {
        case .triangle: return 1
        case .catmullRom, .mitchell: return 2
        case .lanczos3: return 3
        default: return nil
        }
    }

    /// One axis of a plane shrunk to `out` pixels: the box pre-shrink, then the kernel reduce.
    static func reduce(_ plane: [Double], along axis: Axis, size: inout (width: Int, height: Int), shrink: Double,
                       out: Int, taps: Double, kernel: DeclaredKernel, integer: Bool) -> [Double] {
        var values = plane
        let length = axis == .vertical ? size.height : size.width
        var residual = shrink
        var extra = Double(out) * shrink - Double(length)
        var n = length
        let block = max(1, Int((Double(length) / Double(out) / 2).rounded(.down)))
        if block > 1 {
            (values, n) = boxShrink(values, along: axis, size: size, block: block, integer: integer)
            residual /= Double(block)
            extra /= Double(block)
            if axis == .vertical { size.height = n } else { size.width = n }
        }
        guard residual != 1 else { return values }
        let points = Int(2 * (taps * residual).rounded(.toNearestOrEven) + 1)
        let table = (0...64).map { mask(kernel, points: points, shrink: residual, x: Double($0) / 64) }
        let fixed = integer ? table.map { axis == .vertical ? orcWeights($0) : $0.map { Double(Int($0 * 4096)) } } : table
        let offset = (1 + extra) / 2 - 1
        let lead = Int((Double(points) / 2).rounded(.up)) - 1
        let across = axis == .vertical ? size.width : size.height
        var result = [Double](repeating: 0, count: out * across)
        for o in 0..<out {
            let centre = (Double(o) + 0.5) * residual - 0.5 - offset
            let start = Int(centre)
            let position = ((Int(centre * 128) & 127) + 1) >> 1
            let weights = fixed[position]
            for t in 0..<across {
                var sum = 0.0
                for i in 0..<points {
                    let j = min(max(start + i - lead, 0), n - 1)
                    sum += weights[i] * (axis == .vertical ? values[j * size.width + t] : values[t * size.width + j])
                }
                if integer {
                    sum = axis == .vertical ? ((sum + 32) / 64).rounded(.down) : ((sum + 2048) / 4096).rounded(.down)
                    sum = min(max(sum, 0), 255)
                }
                if axis == .vertical { result[o * size.width + t] = sum } else { result[t * out + o] = sum }
            }
        }
        if axis == .vertical { size.height = out } else { size.width = out }
        return result
    }

    /// Averages of blocks of `block` pixels along `axis` (`vips_shrinkv`/`…h` with `ceil`: the last
    /// block padded with the edge pixel), rounded half up for 8-bit samples.
    static func boxShrink(_ plane: [Double], along axis: Axis, size: (width: Int, height: Int), block: Int,
                          integer: Bool) -> ([Double], Int) {
        let length = axis == .vertical ? size.height : size.width
        let across = axis == .vertical ? size.width : size.height
        let n = (length + block - 1) / block
        var out = [Double](repeating: 0, count: n * across)
        for o in 0..<n {
            for t in 0..<across {
                var sum = 0.0
                for i in 0..<block {
                    let j = min(o * block + i, length - 1)
                    sum += axis == .vertical ? plane[j * size.width + t] : plane[t * size.width + j]
                }
                let v = integer ? ((sum + Double(block / 2)) / Double(block)).rounded(.down) : sum / Double(block)
                if axis == .vertical { out[o * size.width + t] = v } else { out[t * n + o] = v }
            }
        }
        return (out, n)
    }

    /// `calculate_coefficients_*` of `templates.h`: `points` weights for a centre `x` (0…1) past
    /// the first tap, normalised.
    static func mask(_ kernel: DeclaredKernel, points: Int, shrink: Double, x: Double) -> [Double] {
        let half = x + Double(points) / 2 - 1
        let weights = (0..<points).map { i -> Double in
            let xp = (Double(i) - half) / shrink
            switch kernel {
            case .lanczos3:
                if xp == 0 { return 1 }
                if xp < -3 || xp > 3 { return 0 }
                return 3 * sin(Double.pi * xp) * sin(Double.pi * xp / 3) / (Double.pi * Double.pi * xp * xp)
            case .triangle:
                return max(0, 1 - abs(xp))
            default:
                let (b, c) = kernel == .mitchell ? (1.0 / 3, 1.0 / 3) : (0.0, 0.5)
                let a = abs(xp), a2 = a * a, a3 = a2 * a
                if a <= 1 { return ((12 - 9 * b - 6 * c) * a3 + (-18 + 12 * b + 6 * c) * a2 + (6 - 2 * b)) / 6 }
                if a <= 2 { return ((-b - 6 * c) * a3 + (6 * b + 30 * c) * a2 + (-12 * b - 48 * c) * a + (8 * b + 24 * c)) / 6 }
                return 0
            }
        }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }

    /// `vips_vector_to_fixed_point(…, 64)`: weights scaled by a factor searched so their rounded
    /// values sum to `rint(64 · Σ)`, the residue spread one by one from the first.
    static func orcWeights(_ weights: [Double]) -> [Double] {
        let n = weights.count
        let target = Int((weights.reduce(0, +) * 64).rounded(.toNearestOrEven))
        var high = Double(64 + (n + 1) / 2), low = Double(64 - (n + 1) / 2)
        var out: [Int] = [], sum = 0
        repeat {
            let guess = (high + low) / 2
            out = weights.map { Int(($0 * guess).rounded(.toNearestOrEven)) }
            sum = out.reduce(0, +)
            if sum == target { break }
            if sum < target { low = guess } else { high = guess }
        } while high - low > 0.01
        if sum != target {
            let each = (target - sum) / n, extra = (target - sum) % n
            out = out.map { $0 + each }
            for i in 0..<abs(extra) { out[i] += extra > 0 ? 1 : -1 }
        }
        return out.map(Double.init)
    }

    /// `VIPS_ROUND_UINT`: `⌊v + ½⌋`.
    static func roundHalfUp(_ v: Double) -> Double { (v + 0.5).rounded(.down) }
}
