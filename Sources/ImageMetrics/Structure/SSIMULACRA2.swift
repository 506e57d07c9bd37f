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
/// Precision: colour conversions, recursions, maps and sums are `Double`; the blurred signals
/// are stored as `Float` (like the reference's planes), and the SSIM' map is computed from
/// blurred *differences* (see ``bandStats(rows:width:height:_:_:)``), which is the same formula
/// without the cancellation of large `Float` moments. The reference's float32 noise
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
            // Fixed bands of rows (independent of the core count), each with a warm-up.
            let bands = Parallel.bands(rows: sh, rowsPerBand: 128)
            let parts = Parallel.map(bands.count) { b in
                bandStats(rows: bands[b], width: sw, height: sh, rows1, rows2)
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

    /// Fills linear R, G, B rows (`Double`, each `width` long) for row y.
    typealias RowReader = @Sendable (Int, inout [Double], inout [Double], inout [Double]) -> Void

    static func valueReader(_ input: Input, background bg: Double) -> RowReader {
        let image = input.image, blend = input.hasAlpha && image.channels == 4
        let lut = linearOf16
        return { y, r, g, b in
            let n = image.channels, w = image.width
            image.samples.withUnsafeBufferPointer { s in
                lut.withUnsafeBufferPointer { lin in
                    var i = y * w * n
                    for x in 0..<w {
                        if blend && s[i + 3] != 65535 {
                            let a = Double(s[i + 3]) / 65535
                            func comp(_ v: UInt16) -> Double {
                                let c = a * (Double(v) / 65535) + (1 - a) * bg
                                return Double(SRGBTransfer.toLinear(Double(c)))
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
        { y, r, g, b in
            let o = y * p.width
            for x in 0..<p.width { r[x] = Double(p.r[o + x]); g[x] = Double(p.g[o + x]); b[x] = Double(p.b[o + x]) }
        }
    }

    /// Scale 1 straight from the value image: 2×2 box in linear light, edges clamped.
    static func downsampleFirst(_ input: Input, background bg: Double) -> LinearPlanes {
        let w = input.image.width, h = input.image.height
        let reader = valueReader(input, background: bg)
        let ow = (w + 1) / 2, oh = (h + 1) / 2
        var out = LinearPlanes(width: ow, height: oh, r: [Float](repeating: 0, count: ow * oh), g: [], b: [])
        out.g = out.r; out.b = out.r
        var r0 = [Double](repeating: 0, count: w), g0 = r0, b0 = r0, r1 = r0, g1 = r0, b1 = r0
        for oy in 0..<oh {
            reader(2 * oy, &r0, &g0, &b0)
            reader(min(2 * oy + 1, h - 1), &r1, &g1, &b1)
            for ox in 0..<ow {
                let x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1), o = oy * ow + ox
                out.r[o] = Float((r0[x0] + r0[x1] + r1[x0] + r1[x1]) * 0.25)
                out.g[o] = Float((g0[x0] + g0[x1] + g1[x0] + g1[x1]) * 0.25)
                out.b[o] = Float((b0[x0] + b0[x1] + b1[x0] + b1[x1]) * 0.25)
            }
        }
        return out
    }

    /// `downsample2`: 2×2 box average in linear RGB, output ⌈w/2⌉ × ⌈h/2⌉, source coordinates
    /// clamped to the last row/column.
    static func downsample(_ p: LinearPlanes) -> LinearPlanes {
        let w = p.width, h = p.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        func half(_ src: [Float]) -> [Float] {
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
        return LinearPlanes(width: ow, height: oh, r: half(p.r), g: half(p.g), b: half(p.b))
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

    /// Streams rows `rows` of all three channels through the blur and the maps.
    ///
    /// The vertical recursion runs row by row with a per-column state, reading horizontally
    /// blurred rows from an 11-row ring. A band that does not start at row 0 starts its
    /// recursion 2N rows early from a zero state, counting only inputs from N − 1 rows later:
    /// each of the three recursions is a finite filter (its impulse is cancelled exactly 2N steps
    /// after it enters), so from the band's first row on the values equal those of one pass
    /// over the whole image, up to rounding. Bands are fixed, so results do not depend on cores.
    ///
    /// The signals ride in the lanes of one SIMD vector per pixel: per channel x1, x1 − x2,
    /// x1² + x2² and (x1 − x2)², so one recursion blurs all twelve. The reference's
    /// σ11 + σ22 − 2σ12 is then `G∗(x1 − x2)² − (μ1 − μ2)²`, a difference of small numbers,
    /// instead of a difference of moments near 0.2, where `Float` storage would move a 4K
    /// near-lossless score by 1–2 points.
    static func bandStats(rows: Range<Int>, width w: Int, height h: Int, _ rows1: RowReader, _ rows2: RowReader) -> [ScaleStats] {
        typealias Lanes = SIMD16<Float>
        let g = RecursiveGaussian.sigma15
        let n = g.radius
        let ringSize = 2 * n + 1
        let start = rows.lowerBound == 0 ? -n + 1 : rows.lowerBound - 2 * n
        let firstInput = rows.lowerBound == 0 ? 0 : start + n - 1
        let n21 = Lanes(repeating: Float(g.n2[0])), n23 = Lanes(repeating: Float(g.n2[1])), n25 = Lanes(repeating: Float(g.n2[2]))
        let d11 = Lanes(repeating: Float(g.d1[0])), d13 = Lanes(repeating: Float(g.d1[1])), d15 = Lanes(repeating: Float(g.d1[2]))
        var lr = [Double](repeating: 0, count: w), lg = lr, lb = lr
        // 12 signals in the lanes of one vector per pixel: for channel c, x1, x1 − x2, x1² + x2²,
        // (x1 − x2)² at lanes 4c…4c+3 (lanes 12…15 unused). ring: [slot][x], horizontally blurred.
        var ring = [Lanes](repeating: Lanes(), count: ringSize * w)
        var raw = [Double](repeating: 0, count: 6 * ringSize * w)   // [slot][x][image·3 + channel]
        var state = [Lanes](repeating: Lanes(), count: 6 * w)       // [x][p1, q1, p3, q3, p5, q5]
        var line = [SIMD16<Double>](repeating: SIMD16<Double>(), count: w)
        var stats = [ScaleStats](repeating: ScaleStats(), count: 3)
        var lr2 = lr, lg2 = lr, lb2 = lr
        // The opsin matrix by columns, lanes (image 0: rows 0, 1, 2; image 1: rows 0, 1, 2; unused).
        let mtx = m
        let mr = SIMD8<Double>(mtx[0], mtx[3], mtx[6], mtx[0], mtx[3], mtx[6], 0, 0)
        let mg = SIMD8<Double>(mtx[1], mtx[4], mtx[7], mtx[1], mtx[4], mtx[7], 0, 0)
        let mb = SIMD8<Double>(mtx[2], mtx[5], mtx[8], mtx[2], mtx[5], mtx[8], 0, 0)
        let biasLanes = SIMD8<Double>(repeating: bias), cbrtLanes = SIMD8<Double>(repeating: cbrtBias)
        ring.withUnsafeMutableBufferPointer { ringB in
        raw.withUnsafeMutableBufferPointer { rawB in
        state.withUnsafeMutableBufferPointer { stB in
        line.withUnsafeMutableBufferPointer { lineB in
            guard let ringP = ringB.baseAddress, let rawP = rawB.baseAddress,
                  let st = stB.baseAddress, let lineP = lineB.baseAddress else { return }
            for step in start..<rows.upperBound {
                let incoming = step + n - 1
                let haveIncoming = incoming < h && incoming >= firstInput
                if haveIncoming {
                    let slot = incoming % ringSize
                    let rawRow = rawP + slot * w * 6
                    rows1(incoming, &lr, &lg, &lb)
                    rows2(incoming, &lr2, &lg2, &lb2)
                    for x in 0..<w {
                        // Opsin absorbance of both images' pixels, the six roots taken together.
                        let r = SIMD8<Double>(lr[x], lr[x], lr[x], lr2[x], lr2[x], lr2[x], 0, 0)
                        let gg = SIMD8<Double>(lg[x], lg[x], lg[x], lg2[x], lg2[x], lg2[x], 0, 0)
                        let b = SIMD8<Double>(lb[x], lb[x], lb[x], lb2[x], lb2[x], lb2[x], 0, 0)
                        let mixed: SIMD8<Double> = mr * r + mg * gg + mb * b + biasLanes
                        // Linear light is never negative, so every lane is ≥ the bias (> 0): the
                        // reference's max(0, ·) never binds; unused lanes are lifted to the bias.
                        let positive = mixed.replacing(with: biasLanes, where: mixed .< biasLanes)
                        let root = CubeRoot.ofPositive(positive) - cbrtLanes
                        let o = x * 6
                        for image in 0..<2 {
                            let m0 = root[3 * image], m1 = root[3 * image + 1], m2 = root[3 * image + 2]
                            let yv = 0.5 * (m0 + m1)
                            rawRow[o + 3 * image] = 14 * (0.5 * (m0 - m1)) + 0.42
                            rawRow[o + 3 * image + 1] = yv + 0.01
                            rawRow[o + 3 * image + 2] = (m2 - yv) + 0.55
                        }
                    }
                    for x in 0..<w {
                        let v = rawRow + x * 6
                        var l = SIMD16<Double>()
                        for c in 0..<3 {
                            let a = v[c], d = a - v[3 + c]
                            l[4 * c] = a; l[4 * c + 1] = d
                            l[4 * c + 2] = a * a + v[3 + c] * v[3 + c]; l[4 * c + 3] = d * d
                        }
                        lineP[x] = l
                    }
                    g.blur(lanes: lineP, into: ringP + slot * w, count: w)
                }
                let outgoing = step - n - 1
                let haveOutgoing = outgoing >= firstInput
                let inRow: UnsafeMutablePointer<Lanes>? = haveIncoming ? ringP + (incoming % ringSize) * w : nil
                let outRow: UnsafeMutablePointer<Lanes>? = haveOutgoing ? ringP + (outgoing % ringSize) * w : nil
                let scoring = step >= rows.lowerBound
                let rawRow = rawP + (((step % ringSize) + ringSize) % ringSize) * w * 6
                var sums = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 3)
                let one = SIMD4<Double>(repeating: 1), zero = SIMD4<Double>(), c2 = SIMD4<Double>(repeating: 0.0009)
                var acc = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
                for x in 0..<w {
                    var sum = Lanes()
                    if let inRow { sum = inRow[x] }
                    if let outRow { sum += outRow[x] }
                    let s = st + x * 6
                    let p1 = s[0], q1 = s[1], p3 = s[2], q3 = s[3], p5 = s[4], q5 = s[5]
                    let y1 = n21 * sum - d11 * p1 - q1
                    let y3 = n23 * sum - d13 * p3 - q3
                    let y5 = n25 * sum - d15 * p5 - q5
                    s[0] = y1; s[1] = p1; s[2] = y3; s[3] = p3; s[4] = y5; s[5] = p5
                    guard scoring else { continue }
                    let o = y1 + y3 + y5
                    // The three channels' maps side by side in Double lanes 0…2. With
                    // S = σ11 + σ22 and D = σ11 + σ22 − 2σ12 = G∗(x1 − x2)² − (μ1 − μ2)², the
                    // reference's 1 − (1 − Δμ²)(2σ12 + C2)/(σ11 + σ22 + C2) is exactly
                    // (Δμ²(S + C2 − D) + D)/(S + C2): D, the small quantity, comes from blurred
                    // differences (no cancellation of large Float moments).
                    let mu1 = SIMD4<Double>(Double(o[0]), Double(o[4]), Double(o[8]), 0)
                    let dm = SIMD4<Double>(Double(o[1]), Double(o[5]), Double(o[9]), 0)
                    let mu2 = mu1 - dm
                    let sumSquares = SIMD4<Double>(Double(o[2]), Double(o[6]), Double(o[10]), 0)
                    let diffSquares = SIMD4<Double>(Double(o[3]), Double(o[7]), Double(o[11]), 0)
                    let dm2: SIMD4<Double> = dm * dm
                    let sigmaSum: SIMD4<Double> = sumSquares - mu1 * mu1 - mu2 * mu2 + c2
                    let dd: SIMD4<Double> = diffSquares - dm2
                    let ratio: SIMD4<Double> = (dm2 * (sigmaSum - dd) + dd) / sigmaSum
                    let d = ratio.replacing(with: zero, where: ratio .< zero)
                    let d2 = d * d
                    acc.0 += d; acc.1 += d2 * d2
                    let v = rawRow + x * 6
                    let r1 = SIMD4<Double>(v[0], v[1], v[2], 0), r2 = SIMD4<Double>(v[3], v[4], v[5], 0)
                    let t2: SIMD4<Double> = r2 - mu2, t1: SIMD4<Double> = r1 - mu1
                    // |t| as a lane select (the generic pointwiseMax is not inlined).
                    let distortedEdge: SIMD4<Double> = one + t2.replacing(with: -t2, where: t2 .< zero)
                    let originalEdge: SIMD4<Double> = one + t1.replacing(with: -t1, where: t1 .< zero)
                    let e: SIMD4<Double> = distortedEdge / originalEdge - one
                    let e2 = e * e, e4 = e2 * e2
                    let positive = e .> zero
                    acc.2 += zero.replacing(with: e, where: positive)
                    acc.3 += zero.replacing(with: e4, where: positive)
                    acc.4 -= e.replacing(with: zero, where: positive)
                    acc.5 += e4.replacing(with: zero, where: positive)
                }
                guard scoring else { continue }
                for c in 0..<3 {
                    sums[c] = [acc.0[c], acc.1[c], acc.2[c], acc.3[c], acc.4[c], acc.5[c]]
                    stats[c].ssim1 += sums[c][0]; stats[c].ssim4 += sums[c][1]
                    stats[c].artifact1 += sums[c][2]; stats[c].artifact4 += sums[c][3]
                    stats[c].detail1 += sums[c][4]; stats[c].detail4 += sums[c][5]
                }
            }
        }
        }
        }
        }
        return stats
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
