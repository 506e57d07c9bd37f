import Foundation

/// How SSIMULACRA 2 packs the signals of one pixel into the lanes of a vector, and how it turns
/// the blurred vector into the six map sums of the three channels (X, Y, B in lanes 0…2 of
/// each `SIMD4`; lane 3 is ignored).
///
/// Two layouts: ``SIMD16`` carries every map (x1, x1 − x2, x1² + x2², (x1 − x2)² per
/// channel); ``SIMD8`` leaves out the SSIM' map of X and B, for the scales where both of its
/// weights are 0 in both norms (at 4K: scale 0, 75 % of the pixels), which halves the blur's work
/// there. A map whose weights are all 0 adds exactly 0 to the score, so the choice changes no
/// result.
protocol SSIMULACRA2Lanes: SIMD where Scalar == Float {
    /// The signals of one pixel from its XYB values in the original (`a`) and distorted (`v`) image.
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> Self
    /// Adds the maps of one pixel to `acc` (SSIM' L1 and ⁴, artifact L1 and ⁴, detail lost L1
    /// and ⁴): `blurred` is the blurred signal vector, `a`, `v` the pixel's XYB values.
    static func accumulate(_ blurred: Self, original a: SIMD4<Float>, distorted v: SIMD4<Float>,
                           into acc: inout (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>))
}

extension SSIMULACRA2Lanes {
    /// The edge maps from the blurred means: `e = (1 + |v − μ2|)/(1 + |a − μ1|) − 1`, artifact
    /// = max(e, 0), detail lost = max(−e, 0).
    @inline(__always)
    static func addEdges(mu1: SIMD4<Float>, mu2: SIMD4<Float>, original a: SIMD4<Float>, distorted v: SIMD4<Float>,
                         into acc: inout (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        typealias Q = SIMD4<Float>
        let one = Q(repeating: 1), zero = Q()
        let t2: Q = v - mu2, t1: Q = a - mu1
        // |t| as a lane select (the generic pointwiseMax is not inlined).
        let distortedEdge: Q = one + t2.replacing(with: -t2, where: t2 .< zero)
        let originalEdge: Q = one + t1.replacing(with: -t1, where: t1 .< zero)
        let e: Q = distortedEdge / originalEdge - one
        let e2 = e * e, e4 = e2 * e2
        let positive = e .> zero
        acc.2 += zero.replacing(with: e, where: positive)
        acc.3 += zero.replacing(with: e4, where: positive)
        acc.4 -= e.replacing(with: zero, where: positive)
        acc.5 += e4.replacing(with: zero, where: positive)
    }
}

/// Every map: lane 4·signal + channel, signals x1, x1 − x2, x1² + x2², (x1 − x2)².
extension SIMD16: SSIMULACRA2Lanes where Scalar == Float {
    @inline(__always)
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> SIMD16<Float> {
        let d = a - v
        return SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: d), highHalf: SIMD8(lowHalf: a * a + v * v, highHalf: d * d))
    }

    @inline(__always)
    static func accumulate(_ o: SIMD16<Float>, original a: SIMD4<Float>, distorted v: SIMD4<Float>,
                           into acc: inout (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        typealias Q = SIMD4<Float>
        let zero = Q(), c2 = Q(repeating: 0.0009)
        // With S = σ11 + σ22 and D = σ11 + σ22 − 2σ12 = G∗(x1 − x2)² − (μ1 − μ2)², the
        // reference's 1 − (1 − Δμ²)(2σ12 + C2)/(σ11 + σ22 + C2) is exactly (Δμ²(S + C2 − D) + D)/(S + C2).
        let mu1 = o.lowHalf.lowHalf, dm = o.lowHalf.highHalf
        let mu2 = mu1 - dm
        let dm2: Q = dm * dm
        let sigmaSum: Q = o.highHalf.lowHalf - mu1 * mu1 - mu2 * mu2 + c2
        let dd: Q = o.highHalf.highHalf - dm2
        let ratio: Q = (dm2 * (sigmaSum - dd) + dd) / sigmaSum
        let d = ratio.replacing(with: zero, where: ratio .< zero)
        let d2 = d * d
        acc.0 += d; acc.1 += d2 * d2
        addEdges(mu1: mu1, mu2: mu2, original: a, distorted: v, into: &acc)
    }
}

/// Without the SSIM' map of X and B: lanes 0…2 x1 and 4…6 x1 − x2 of X, Y, B; lane 3
/// x1² + x2² and lane 7 (x1 − x2)² of Y.
extension SIMD8: SSIMULACRA2Lanes where Scalar == Float {
    @inline(__always)
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> SIMD8<Float> {
        let d = a - v
        var low = a, high = d
        low[3] = a[1] * a[1] + v[1] * v[1]
        high[3] = d[1] * d[1]
        return SIMD8(lowHalf: low, highHalf: high)
    }

    @inline(__always)
    static func accumulate(_ o: SIMD8<Float>, original a: SIMD4<Float>, distorted v: SIMD4<Float>,
                           into acc: inout (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        let mu1 = o.lowHalf, dm = o.highHalf
        let mu2 = mu1 - dm
        // The SSIM' map of Y alone, as in the 16-lane layout.
        let m1 = mu1[1], m2 = mu2[1], dmY = dm[1]
        let dm2 = dmY * dmY
        let sigmaSum = mu1[3] - m1 * m1 - m2 * m2 + 0.0009
        let dd = dm[3] - dm2
        let ratio = (dm2 * (sigmaSum - dd) + dd) / sigmaSum
        let d = ratio < 0 ? 0 : ratio
        let d2 = d * d
        acc.0[1] += d; acc.1[1] += d2 * d2
        addEdges(mu1: mu1, mu2: mu2, original: a, distorted: v, into: &acc)
    }
}
