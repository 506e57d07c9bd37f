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
/// Planes and sums are `Double` (the reference uses `float` planes). The reference's float32 noise
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

    /// Linear RGB planes of one scale (planar, `Double`).
    struct LinearPlanes: Sendable {
        var width: Int, height: Int
        var r: [Double], g: [Double], b: [Double]
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
            let perChannel = Parallel.map(3) { c -> ScaleStats in
                let rows1: RowReader, rows2: RowReader
                if let current {
                    rows1 = planarReader(current.0); rows2 = planarReader(current.1)
                } else {
                    rows1 = valueReader(o, background: bg); rows2 = valueReader(d, background: bg)
                }
                return channelStats(channel: c, width: sw, height: sh, rows1, rows2)
            }
            for c in 0..<3 { stats[c].append(perChannel[c]) }
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
            for x in 0..<p.width { r[x] = p.r[o + x]; g[x] = p.g[o + x]; b[x] = p.b[o + x] }
        }
    }

    /// Scale 1 straight from the value image: 2×2 box in linear light, edges clamped.
    static func downsampleFirst(_ input: Input, background bg: Double) -> LinearPlanes {
        let w = input.image.width, h = input.image.height
        let reader = valueReader(input, background: bg)
        let ow = (w + 1) / 2, oh = (h + 1) / 2
        var out = LinearPlanes(width: ow, height: oh, r: [Double](repeating: 0, count: ow * oh), g: [], b: [])
        out.g = out.r; out.b = out.r
        var r0 = [Double](repeating: 0, count: w), g0 = r0, b0 = r0, r1 = r0, g1 = r0, b1 = r0
        for oy in 0..<oh {
            reader(2 * oy, &r0, &g0, &b0)
            reader(min(2 * oy + 1, h - 1), &r1, &g1, &b1)
            for ox in 0..<ow {
                let x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1), o = oy * ow + ox
                out.r[o] = (r0[x0] + r0[x1] + r1[x0] + r1[x1]) * 0.25
                out.g[o] = (g0[x0] + g0[x1] + g1[x0] + g1[x1]) * 0.25
                out.b[o] = (b0[x0] + b0[x1] + b1[x0] + b1[x1]) * 0.25
            }
        }
        return out
    }

    /// `downsample2`: 2×2 box average in linear RGB, output ⌈w/2⌉ × ⌈h/2⌉, source coordinates
    /// clamped to the last row/column.
    static func downsample(_ p: LinearPlanes) -> LinearPlanes {
        let w = p.width, h = p.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        func half(_ src: [Double]) -> [Double] {
            var out = [Double](repeating: 0, count: ow * oh)
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

    /// One channel (0 = X', 1 = Y', 2 = B') of positive XYB for a row of linear RGB.
    @inline(__always)
    static func positiveXYB(_ channel: Int, _ r: Double, _ g: Double, _ b: Double) -> Double {
        func response(_ i: Int) -> Double {
            let mixed = max(0, m[3 * i] * r + m[3 * i + 1] * g + m[3 * i + 2] * b + bias)
            return Double(CubeRoot.of(Double(mixed))) - cbrtBias
        }
        let m0 = response(0), m1 = response(1)
        switch channel {
        case 0: return 14 * (0.5 * (m0 - m1)) + 0.42
        case 1: return 0.5 * (m0 + m1) + 0.01
        default: return (response(2) - 0.5 * (m0 + m1)) + 0.55
        }
    }

    /// L1 and L4 inputs of the three maps of one channel at one scale.
    struct ScaleStats: Sendable {
        var pixels = 0.0
        var ssim1 = 0.0, ssim4 = 0.0, artifact1 = 0.0, artifact4 = 0.0, detail1 = 0.0, detail4 = 0.0
    }

    /// Streams one channel through the blur and the maps. The vertical recursion runs row by
    /// row with a per-column state, reading horizontally blurred rows from an 11-row ring.
    static func channelStats(channel c: Int, width w: Int, height h: Int, _ rows1: RowReader, _ rows2: RowReader) -> ScaleStats {
        let g = RecursiveGaussian.sigma15
        let n = g.radius
        let ringSize = 2 * n + 1
        var r = [Double](repeating: 0, count: w), gg = r, b = r
        // ring[signal][slot]: horizontally blurred rows of x1, x2, x1², x2², x1·x2; raw[image][slot].
        var ring = [[Double]](repeating: [Double](repeating: 0, count: w * ringSize), count: 5)
        var raw = [[Double]](repeating: [Double](repeating: 0, count: w * ringSize), count: 2)
        // Vertical state: [signal][k] previous and previous-but-one outputs.
        var prev1 = [Double](repeating: 0, count: 15 * w), prev2 = prev1
        var line = [[Double]](repeating: [Double](repeating: 0, count: w), count: 5)
        var blurredLine = [Double](repeating: 0, count: w)
        var out = [[Double]](repeating: [Double](repeating: 0, count: w), count: 5)
        var stats = ScaleStats()
        for step in (-n + 1)..<h {
            let incoming = step + n - 1
            if incoming < h {
                rows1(incoming, &r, &gg, &b)
                let slot = incoming % ringSize
                for x in 0..<w { raw[0][slot * w + x] = positiveXYB(c, r[x], gg[x], b[x]) }
                rows2(incoming, &r, &gg, &b)
                for x in 0..<w { raw[1][slot * w + x] = positiveXYB(c, r[x], gg[x], b[x]) }
                for x in 0..<w {
                    let a = raw[0][slot * w + x], d = raw[1][slot * w + x]
                    line[0][x] = a; line[1][x] = d; line[2][x] = a * a; line[3][x] = d * d; line[4][x] = a * d
                }
                for s in 0..<5 {
                    g.blur(line[s], into: &blurredLine)
                    ring[s].withUnsafeMutableBufferPointer { dst in
                        for x in 0..<w { dst[slot * w + x] = blurredLine[x] }
                    }
                }
            }
            let outgoing = step - n - 1
            for s in 0..<5 {
                ring[s].withUnsafeBufferPointer { src in
                    prev1.withUnsafeMutableBufferPointer { p1 in
                        prev2.withUnsafeMutableBufferPointer { p2 in
                            out[s].withUnsafeMutableBufferPointer { o in
                                let inOffset = incoming < h ? (incoming % ringSize) * w : -1
                                let outOffset = outgoing >= 0 ? (outgoing % ringSize) * w : -1
                                for x in 0..<w {
                                    let sum = (inOffset >= 0 ? src[inOffset + x] : 0) + (outOffset >= 0 ? src[outOffset + x] : 0)
                                    var total: Double = 0
                                    for k in 0..<3 {
                                        let si = (s * 3 + k) * w + x
                                        let y = g.n2[k] * sum - g.d1[k] * p1[si] - p2[si]
                                        p2[si] = p1[si]; p1[si] = y
                                        total += y
                                    }
                                    o[x] = total
                                }
                            }
                        }
                    }
                }
            }
            guard step >= 0 else { continue }
            let slot = step % ringSize
            var ssim1 = 0.0, ssim4 = 0.0, art1 = 0.0, art4 = 0.0, det1 = 0.0, det4 = 0.0
            for x in 0..<w {
                let mu1 = out[0][x], mu2 = out[1][x]
                let s11 = out[2][x] - mu1 * mu1, s22 = out[3][x] - mu2 * mu2, s12 = out[4][x] - mu1 * mu2
                let dm = mu1 - mu2
                let num = (1 - dm * dm) * (2 * s12 + 0.0009)
                let den = s11 + s22 + 0.0009
                let d = Double(max(1 - num / den, 0))
                ssim1 += d
                ssim4 += (d * d) * (d * d)
                let x1 = raw[0][slot * w + x], x2 = raw[1][slot * w + x]
                let e = Double((1 + abs(x2 - mu2)) / (1 + abs(x1 - mu1)) - 1)
                if e > 0 {
                    art1 += e; art4 += (e * e) * (e * e)
                } else {
                    det1 -= e; det4 += (e * e) * (e * e)
                }
            }
            stats.ssim1 += ssim1; stats.ssim4 += ssim4
            stats.artifact1 += art1; stats.artifact4 += art4
            stats.detail1 += det1; stats.detail4 += det4
        }
        stats.pixels = Double(w * h)
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
