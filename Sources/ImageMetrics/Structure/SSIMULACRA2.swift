import Foundation
import ImageCore

/// SSIMULACRA 2.1 (Jon Sneyers, Cloudinary), written from `shared/reference/ssimulacra2.md`,
/// which transcribes the reference cloudinary/ssimulacra2 at commit 81feacf:
///
/// 1. Alpha: if the *expected* image has an alpha channel the score is computed over grey
///    0.1 and over grey 0.9 and the minimum is returned, else over 0.5; each image with alpha
///    is blended in the gamma-encoded domain, `c' = a·c + (1 − a)·bg`.
/// 2. sRGB → linear; up to 6 scales, each a 2×2 box average in linear light of the previous
///    one (the size test looks at the previous scale, so the last scale may be under 8 px).
/// 3. Linear RGB → XYB (opsin absorbance, cube root, bias) → "positive XYB"
///    (X' = 14X + 0.42, Y' = Y + 0.01, B' = B − Y + 0.55).
/// 4. Blur: the Charalampidis (2016) recursive Gaussian, σ = 1.5, zero outside the image
///    (libjxl `FastGaussian`), horizontally then vertically.
/// 5. Per scale and channel: the SSIM' map (`C2 = 0.0009`, no luminance denominator) and the
///    artifact / detail-lost edge maps, each as a mean (L1) and a 4-norm (L4).
/// 6. A weighted sum with the reference's 108 weights (running index, see the note), then
///    `100 − 10·x^0.6276…` after the cubic remapping.
///
/// Precision: planes, colour conversions, recursions and maps are `Float` like the reference's
/// (its planes and blur are `float`); sums go into `Double` every 64 pixels. The SSIM' map is
/// computed from blurred *differences* (see ``tileStats(rows:columns:width:height:_:_:)``), which is the
/// same formula without the cancellation of large `Float` moments. The reference's float32 noise
/// floor cannot be reproduced exactly: its README allows 0.05 on colourful pairs and 1.0 on
/// grayscale or near-lossless pairs. Unit: score, 100 = identical, can go below 0.
/// `nil` for images smaller than 8×8 (the reference refuses them).
enum SSIMULACRA2 {
    /// Definition version.
    static let version = "ssimulacra2.1-cloudinary-81feacf/1"

    /// One image's displayed pixels with whether the file has an alpha channel.
    struct Input: Sendable {
        var image: ValueImage
        var hasAlpha: Bool
    }

    /// The score of `distorted` against `original`, or `nil` when smaller than 8×8.
    static func score(original: Input, distorted: Input) -> Double? {
        let w = original.image.width, h = original.image.height
        guard w >= 8, h >= 8, distorted.image.width == w, distorted.image.height == h else { return nil }
        let backgrounds: [Double] = original.hasAlpha ? [0.1, 0.9] : [0.5]
        var worst = Double.infinity
        for bg in backgrounds {
            worst = min(worst, score(original, distorted, background: bg))
        }
        return worst
    }

    /// Linear-light value of every 16-bit sample (the sRGB EOTF of `v / 65535`).
    static let linearOf16: [Double] = (0...65535).map { Double(SRGBTransfer.toLinear(Double($0) / 65535)) }

    /// Linear RGB planes of one scale (planar, stored as `Float` like the reference's planes,
    /// which halves the memory of scale 1; read back as `Double`).
    struct LinearPlanes: Sendable {
        var width: Int, height: Int
        var r: [Float], g: [Float], b: [Float]
    }

    static func score(_ o: Input, _ d: Input, background bg: Double) -> Double {
        var w = o.image.width, h = o.image.height
        // Scale 0 is read row by row from the value images; later scales are materialised.
        var planes: (LinearPlanes, LinearPlanes)? = nil
        var stats: [[ScaleStats]] = [[], [], []]  // [channel][scale]
        // The number of scales, known before computing them (the weights' running index depends on it).
        var scales = 0
        var (lastW, lastH) = (w, h)
        for scale in 0..<6 {
            if lastW < 8 || lastH < 8 { break }
            if scale > 0 { (lastW, lastH) = ((lastW + 1) / 2, (lastH + 1) / 2) }
            scales += 1
        }
        var prevW = w, prevH = h
        for scale in 0..<6 {
            if prevW < 8 || prevH < 8 { break }
            if scale > 0 {
                if let p = planes {
                    planes = (downsample(p.0), downsample(p.1))
                } else {
                    planes = (downsampleFirst(o, background: bg), downsampleFirst(d, background: bg))
                }
                w = planes?.0.width ?? w
                h = planes?.0.height ?? h
            }
            prevW = w; prevH = h
            let current = planes
            let (sw, sh) = (w, h)
            let rows1: RowReader, rows2: RowReader
            if let current {
                rows1 = planarReader(current.0); rows2 = planarReader(current.1)
            } else {
                rows1 = valueReader(o, background: bg); rows2 = valueReader(d, background: bg)
            }
            // Fixed tiles of rows × columns (independent of the core count), each with a warm-up.
            let bands = Parallel.bands(rows: sh, rowsPerBand: 128)
            let strips = Parallel.bands(rows: sw, rowsPerBand: 256)
            // The 8-lane layout where the SSIM' maps of X and B weigh nothing at this scale.
            // (Weight index = 6·scales·channel + 6·scale + 3·norm + map; the SSIM' map is map 0.)
            let xIndex = 6 * scale, bIndex = 12 * scales + 6 * scale
            let compact = [xIndex, xIndex + 3, bIndex, bIndex + 3].allSatisfy { weights[$0] == 0 }
            let parts = Parallel.map(bands.count * strips.count) { job in
                let rows = bands[job / strips.count], columns = strips[job % strips.count]
                return compact
                    ? tileStats(rows: rows, columns: columns, width: sw, height: sh, rows1, rows2, lanes: SIMD8<Float>.self)
                    : tileStats(rows: rows, columns: columns, width: sw, height: sh, rows1, rows2, lanes: SIMD16<Float>.self)
            }
            for c in 0..<3 {
                var total = ScaleStats()
                for part in parts { total.add(part[c]) }
                total.pixels = Double(sw * sh)
                stats[c].append(total)
            }
        }
        return finalScore(stats)
    }

    /// `read(y, x0, count, r, g, b)` fills `count` linear R, G, B values (`Float`) of row y from column x0.
    typealias RowReader = @Sendable (Int, Int, Int, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void

    /// `Float` copy of ``linearOf16`` (the reference's planes are `float`).
    static let linearFloatOf16: [Float] = linearOf16.map(Float.init)

    static func valueReader(_ input: Input, background bg: Double) -> RowReader {
        let image = input.image, blend = input.hasAlpha && image.channels == 4
        let lut = linearFloatOf16
        return { y, x0, count, r, g, b in
            let n = image.channels, w = image.width
            image.samples.withUnsafeBufferPointer { s in
                lut.withUnsafeBufferPointer { lin in
                    var i = (y * w + x0) * n
                    for x in 0..<count {
                        if blend && s[i + 3] != 65535 {
                            let a = Double(s[i + 3]) / 65535
                            func comp(_ v: UInt16) -> Float {
                                let c = a * (Double(v) / 65535) + (1 - a) * bg
                                return Float(SRGBTransfer.toLinear(Double(c)))
                            }
                            r[x] = comp(s[i]); g[x] = comp(s[i + 1]); b[x] = comp(s[i + 2])
                        } else {
                            r[x] = lin[Int(s[i])]; g[x] = lin[Int(s[i + 1])]; b[x] = lin[Int(s[i + 2])]
                        }
                        i += n
                    }
                }
            }
        }
    }

    static func planarReader(_ p: LinearPlanes) -> RowReader {
        { y, x0, count, r, g, b in
            let o = y * p.width + x0
            p.r.withUnsafeBufferPointer { pr in
            p.g.withUnsafeBufferPointer { pg in
            p.b.withUnsafeBufferPointer { pb in
                for x in 0..<count { r[x] = pr[o + x]; g[x] = pg[o + x]; b[x] = pb[o + x] }
            }
            }
            }
        }
    }

    /// Scale 1 straight from the value image: 2×2 box in linear light, edges clamped; output
    /// rows in fixed bands, in parallel.
    static func downsampleFirst(_ input: Input, background bg: Double) -> LinearPlanes {
        let w = input.image.width, h = input.image.height
        let reader = valueReader(input, background: bg)
        let ow = (w + 1) / 2, oh = (h + 1) / 2
        let bands = Parallel.bands(rows: oh, rowsPerBand: 64)
        var red = [Float](repeating: 0, count: ow * oh), green = red, blue = red
        red.withUnsafeMutableBufferPointer { rb in
        green.withUnsafeMutableBufferPointer { gb in
        blue.withUnsafeMutableBufferPointer { bb in
            guard let r = rb.baseAddress, let g = gb.baseAddress, let b = bb.baseAddress else { return }
            let planes = [BandOutput(base: r), BandOutput(base: g), BandOutput(base: b)]
            _ = Parallel.map(bands.count) { band -> Bool in
                var line = [Float](repeating: 0, count: 6 * w)
                line.withUnsafeMutableBufferPointer { lb in
                    guard let l = lb.baseAddress else { return }
                    for oy in bands[band] {
                        reader(2 * oy, 0, w, l, l + w, l + 2 * w)
                        reader(min(2 * oy + 1, h - 1), 0, w, l + 3 * w, l + 4 * w, l + 5 * w)
                        for c in 0..<3 {
                            let a = l + c * w, b = l + (3 + c) * w
                            let dst = planes[c].base + oy * ow
                            for ox in 0..<ow {
                                let x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1)
                                dst[ox] = (a[x0] + a[x1] + b[x0] + b[x1]) * 0.25
                            }
                        }
                    }
                }
                return true
            }
        }
        }
        }
        return LinearPlanes(width: ow, height: oh, r: red, g: green, b: blue)
    }

    /// `downsample2`: 2×2 box average in linear RGB, output ⌈w/2⌉ × ⌈h/2⌉, source coordinates
    /// clamped to the last row/column.
    static func downsample(_ p: LinearPlanes) -> LinearPlanes {
        let w = p.width, h = p.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        let planes = Parallel.map(3) { c -> [Float] in
            let src = c == 0 ? p.r : c == 1 ? p.g : p.b
            var out = [Float](repeating: 0, count: ow * oh)
            for oy in 0..<oh {
                let y0 = 2 * oy * w, y1 = min(2 * oy + 1, h - 1) * w
                for ox in 0..<ow {
                    let x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1)
                    out[oy * ow + ox] = (src[y0 + x0] + src[y0 + x1] + src[y1 + x0] + src[y1 + x1]) * 0.25
                }
            }
            return out
        }
        return LinearPlanes(width: ow, height: oh, r: planes[0], g: planes[1], b: planes[2])
    }

    /// Opsin absorbance matrix rows and bias (libjxl `opsin_params.h`).
    static let m: [Double] = [0.30, 0.622, 0.078,
                             0.23, 0.692, 0.078,
                             0.24342268924547819, 0.20476744424496821, 0.55180986650955360]
    static let bias: Double = 0.0037930732552754493
    static let cbrtBias: Double = Double(Foundation.cbrt(Double(0.0037930732552754493 as Double)))

    /// L1 and L4 inputs of the three maps of one channel at one scale.
    struct ScaleStats: Sendable {
        var pixels = 0.0
        var ssim1 = 0.0, ssim4 = 0.0, artifact1 = 0.0, artifact4 = 0.0, detail1 = 0.0, detail4 = 0.0

        mutating func add(_ o: ScaleStats) {
            ssim1 += o.ssim1; ssim4 += o.ssim4; artifact1 += o.artifact1; artifact4 += o.artifact4
            detail1 += o.detail1; detail4 += o.detail4
        }
    }

    /// Streams the tile `rows` × `columns` of all three channels through the blur and the maps.
    ///
    /// The vertical recursion runs row by row with a per-column state, reading horizontally
    /// blurred rows from an 11-row ring. A tile that does not start at row 0 starts its
    /// recursion 2N rows early from a zero state, counting only inputs from N − 1 rows later:
    /// each of the three recursions is a finite filter (its impulse is cancelled exactly 2N steps
    /// after it enters), so from the tile's first row on the values equal those of one pass
    /// over the whole image, up to rounding. Horizontally the same holds: each row segment is
    /// blurred from the tile's columns widened by N + 1 / N − 1
    /// (``RecursiveGaussian/blur(lanes:samples:outputs:into:)``). Tiles of 256 columns keep the
    /// per-column state, the ring and the XYB rows (~0.4 MB) in L2 instead of streaming a 4K
    /// row's 4 MB through L3 at every row. Tiles are fixed, so results do not depend on cores.
    ///
    /// Everything is `Float`, like the reference's planes and blur, with per-row sums in chunks
    /// of 64 pixels added into `Double`. The signals ride in the lanes of one vector per pixel
    /// (``SSIMULACRA2Lanes``: x1, x1 − x2, x1² + x2² and (x1 − x2)² of each channel, or fewer
    /// where a map weighs nothing), so one recursion blurs all of them and the maps of the three
    /// channels are computed side by side in 4-lane vectors. The reference's σ11 + σ22 − 2σ12 is
    /// then `G∗(x1 − x2)² − (μ1 − μ2)²`, a difference of small numbers, instead of a difference
    /// of moments near 0.2, whose `Float` cancellation would move a 4K near-lossless score by
    /// 1–2 points; the remaining cancellation, σ11 + σ22 = G∗(x1² + x2²) − μ1² − μ2², is the
    /// reference's own and errs by ~1e-7 against its C2 = 9e-4 (plus the recursion's ~2e-5 at
    /// the end of a 4K row: ``RecursiveGaussian/blur(lanes:into:count:)``).
    static func tileStats<Lanes: SSIMULACRA2Lanes>(rows: Range<Int>, columns: Range<Int>, width: Int, height h: Int,
                                                   _ rows1: RowReader, _ rows2: RowReader, lanes: Lanes.Type) -> [ScaleStats] {
        typealias Q = SIMD4<Float>
        typealias E = SIMD8<Float>
        let g = RecursiveGaussian.sigma15
        let n = g.radius
        let ringSize = 2 * n + 1
        let start = rows.lowerBound == 0 ? -n + 1 : rows.lowerBound - 2 * n
        let firstInput = rows.lowerBound == 0 ? 0 : start + n - 1
        // Input columns of the tile: its output columns widened by the horizontal recursion's reach.
        let samples = max(0, columns.lowerBound - n - 1)..<min(width, columns.upperBound + n - 1)
        let w = columns.count, sw = samples.count, lead = columns.lowerBound - samples.lowerBound
        let n21 = Lanes(repeating: Float(g.n2[0])), n23 = Lanes(repeating: Float(g.n2[1])), n25 = Lanes(repeating: Float(g.n2[2]))
        let d11 = Lanes(repeating: Float(g.d1[0])), d13 = Lanes(repeating: Float(g.d1[1])), d15 = Lanes(repeating: Float(g.d1[2]))
        // r1, g1, b1, r2, g2, b2 rows, then X1, Y1, B1, X2, Y2, B2 rows; each padded to whole SIMD8 chunks.
        let pw = (sw + 7) / 8 * 8
        var lin = [Float](repeating: 0, count: 12 * pw)
        var ring = [Lanes](repeating: Lanes(), count: ringSize * w)  // [slot][x], horizontally blurred
        var raw = [E](repeating: E(), count: ringSize * w)           // [slot][x]: XYB of image 1 (lanes 0…2), image 2 (4…6)
        var state = [Lanes](repeating: Lanes(), count: 6 * w)        // [x][p1, q1, p3, q3, p5, q5]
        var line = [Lanes](repeating: Lanes(), count: sw)
        let zeros = [Lanes](repeating: Lanes(), count: w)          // the rows outside the image
        var totals = [SIMD4<Double>](repeating: SIMD4<Double>(), count: 6)
        // The opsin matrix, one broadcast vector per entry, and the XYB constants.
        let mtx = m.map { E(repeating: Float($0)) }
        let m00 = mtx[0], m01 = mtx[1], m02 = mtx[2], m10 = mtx[3], m11 = mtx[4], m12 = mtx[5]
        let m20 = mtx[6], m21 = mtx[7], m22 = mtx[8]
        let biasLanes = E(repeating: Float(bias)), cbrtLanes = E(repeating: Float(cbrtBias))
        let half = E(repeating: 0.5), fourteen = E(repeating: 14)
        let xOffset = E(repeating: 0.42), yOffset = E(repeating: 0.01), bOffset = E(repeating: 0.55)
        lin.withUnsafeMutableBufferPointer { linB in
        ring.withUnsafeMutableBufferPointer { ringB in
        raw.withUnsafeMutableBufferPointer { rawB in
        state.withUnsafeMutableBufferPointer { stB in
        line.withUnsafeMutableBufferPointer { lineB in
        zeros.withUnsafeBufferPointer { zeroB in
            guard let l = linB.baseAddress, let ringP = ringB.baseAddress, let rawP = rawB.baseAddress,
                  let st = stB.baseAddress, let lineP = lineB.baseAddress, let zeroRow = zeroB.baseAddress else { return }
            for step in start..<rows.upperBound {
                let incoming = step + n - 1
                let haveIncoming = incoming < h && incoming >= firstInput
                if haveIncoming {
                    let slot = incoming % ringSize
                    let rawRow = rawP + slot * w
                    rows1(incoming, samples.lowerBound, sw, l, l + pw, l + 2 * pw)
                    rows2(incoming, samples.lowerBound, sw, l + 3 * pw, l + 4 * pw, l + 5 * pw)
                    // Opsin absorbance, cube root and XYB, 8 pixels of one image at a time (planar rows).
                    let planar = UnsafeMutableRawPointer(l)
                    for image in 0..<2 {
                        let src = image * 3 * pw * 4, dst = (6 + image * 3) * pw * 4
                        var x = 0
                        while x < pw {
                            let r = planar.loadUnaligned(fromByteOffset: src + x * 4, as: E.self)
                            let gg = planar.loadUnaligned(fromByteOffset: src + (pw + x) * 4, as: E.self)
                            let b = planar.loadUnaligned(fromByteOffset: src + (2 * pw + x) * 4, as: E.self)
                            // Linear light is never negative, so every value is ≥ the bias (> 0): the
                            // reference's max(0, ·) never binds.
                            let m0 = CubeRoot.ofPositive(m00 * r + m01 * gg + m02 * b + biasLanes) - cbrtLanes
                            let m1 = CubeRoot.ofPositive(m10 * r + m11 * gg + m12 * b + biasLanes) - cbrtLanes
                            let m2 = CubeRoot.ofPositive(m20 * r + m21 * gg + m22 * b + biasLanes) - cbrtLanes
                            // X' = 14·½(m0 − m1) + 0.42, Y' = ½(m0 + m1) + 0.01, B' = (m2 − Y) + 0.55.
                            let yv = half * (m0 + m1)
                            planar.storeBytes(of: fourteen * (half * (m0 - m1)) + xOffset, toByteOffset: dst + x * 4, as: E.self)
                            planar.storeBytes(of: yv + yOffset, toByteOffset: dst + (pw + x) * 4, as: E.self)
                            planar.storeBytes(of: (m2 - yv) + bOffset, toByteOffset: dst + (2 * pw + x) * 4, as: E.self)
                            x += 8
                        }
                    }
                    let xyb = l + 6 * pw
                    for x in 0..<sw {
                        let a = Q(xyb[x], xyb[pw + x], xyb[2 * pw + x], 0)
                        let v = Q(xyb[3 * pw + x], xyb[4 * pw + x], xyb[5 * pw + x], 0)
                        let k = x - lead
                        if k >= 0 && k < w { rawRow[k] = E(lowHalf: a, highHalf: v) }
                        lineP[x] = Lanes.signals(original: a, distorted: v)
                    }
                    g.blur(lanes: lineP, samples: samples, outputs: columns, into: ringP + slot * w)
                }
                let outgoing = step - n - 1
                let haveOutgoing = outgoing >= firstInput
                let inRow = haveIncoming ? UnsafePointer(ringP + (incoming % ringSize) * w) : zeroRow
                let outRow = haveOutgoing ? UnsafePointer(ringP + (outgoing % ringSize) * w) : zeroRow
                guard step >= rows.lowerBound else {
                    for x in 0..<w {
                        let sum = inRow[x] + outRow[x]
                        let s = st + x * 6
                        let p1 = s[0], q1 = s[1], p3 = s[2], q3 = s[3], p5 = s[4], q5 = s[5]
                        s[0] = n21 * sum - d11 * p1 - q1; s[1] = p1
                        s[2] = n23 * sum - d13 * p3 - q3; s[3] = p3
                        s[4] = n25 * sum - d15 * p5 - q5; s[5] = p5
                    }
                    continue
                }
                let rawRow = rawP + (((step % ringSize) + ringSize) % ringSize) * w
                var x0 = 0
                while x0 < w {
                    let x1 = min(x0 + 64, w)
                    var acc = (Q(), Q(), Q(), Q(), Q(), Q())
                    for x in x0..<x1 {
                        let sum = inRow[x] + outRow[x]
                        let s = st + x * 6
                        let p1 = s[0], q1 = s[1], p3 = s[2], q3 = s[3], p5 = s[4], q5 = s[5]
                        let y1 = n21 * sum - d11 * p1 - q1
                        let y3 = n23 * sum - d13 * p3 - q3
                        let y5 = n25 * sum - d15 * p5 - q5
                        s[0] = y1; s[1] = p1; s[2] = y3; s[3] = p3; s[4] = y5; s[5] = p5
                        let raw = rawRow[x]
                        Lanes.accumulate(y1 + y3 + y5, original: raw.lowHalf, distorted: raw.highHalf, into: &acc)
                    }
                    totals[0] += SIMD4<Double>(acc.0); totals[1] += SIMD4<Double>(acc.1)
                    totals[2] += SIMD4<Double>(acc.2); totals[3] += SIMD4<Double>(acc.3)
                    totals[4] += SIMD4<Double>(acc.4); totals[5] += SIMD4<Double>(acc.5)
                    x0 = x1
                }
            }
        }
        }
        }
        }
        }
        }
        return (0..<3).map { c in
            ScaleStats(pixels: 0, ssim1: totals[0][c], ssim4: totals[1][c], artifact1: totals[2][c],
                       artifact4: totals[3][c], detail1: totals[4][c], detail4: totals[5][c])
        }
    }

    /// The weighted sum and the final remapping (reference `Msssim::Score()`).
    static func finalScore(_ stats: [[ScaleStats]]) -> Double {
        var sum = 0.0
        var i = 0
        for c in 0..<3 {
            for s in stats[c] {
                let n = s.pixels
                let l1 = [s.ssim1 / n, s.artifact1 / n, s.detail1 / n]
                let l4 = [pow(s.ssim4 / n, 0.25), pow(s.artifact4 / n, 0.25), pow(s.detail4 / n, 0.25)]
                for norm in [l1, l4] {
                    for value in norm {
                        sum += weights[i] * abs(value)
                        i += 1
                    }
                }
            }
        }
        var x = sum * 0.9562382616834844
        x = 2.326765642916932 * x - 0.020884521182843837 * x * x + 6.248496625763138e-05 * x * x * x
        return x > 0 ? 100 - 10 * pow(x, 0.6276336467831387) : 100
    }

    /// The 108 weights of the reference, index = 36·channel + 6·scale + 3·norm + map.
    static let weights: [Double] = [
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
        0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
        0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
        0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
        0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
        0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
        0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
        176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
        0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
        0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
        95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
        0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
    ]
}
