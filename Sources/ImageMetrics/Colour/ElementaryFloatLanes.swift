/// The `Float` lanes of the per-pixel CIEDE2000 pass: eight (two SSE registers; four lanes
/// measured slower: the formula's fixed costs then count twice per pixel).
typealias FloatLanes = SIMD8<Float>

/// atan2, exp and sin of `Float` lanes (``FloatLanes``) by polynomials (Cephes `atanf` / `expf` and a
/// Taylor series), for the CIEDE2000 rotation term in ``CIEDE2000/floatDifferences(_:)``.
/// Each is within a few `Float` ulp on the range its caller uses (stated per function); no
/// lane calls libm.
enum ElementaryFloatLanes {
    typealias V = FloatLanes

    /// atan2(y, x) in radians, (−π, π], for any (x, y) ≠ (0, 0). The ratio min/max of |x|, |y|
    /// is in [0, 1]; above tan(π/8) it is mapped to (w − 1)/(w + 1) around π/4, so Cephes'
    /// `atanf` polynomial runs on |w| ≤ tan(π/8) (relative error 1.9e-7 there), then the octant
    /// and quadrant are restored exactly. Absolute error ≤ 4e-7 rad.
    @inline(__always)
    static func atan2(_ y: V, _ x: V) -> V {
        let ax = x.replacing(with: -x, where: x .< 0), ay = y.replacing(with: -y, where: y .< 0)
        let big = larger(ax, ay), small = ay.replacing(with: ax, where: ax .< ay)
        let z = small / big.replacing(with: 1, where: big .== 0)
        let reduce = z .> 0.41421356237
        let w = z.replacing(with: (z - 1) / (z + 1), where: reduce)
        let ww = w * w
        var p: V = 0.0805374449538 * ww - 0.138776856032
        p = p * ww + 0.199777106478
        p = p * ww - 0.333329491539
        p = p * ww * w + w
        var angle = p + V(repeating: 0).replacing(with: .pi / 4, where: reduce)
        angle = angle.replacing(with: .pi / 2 - angle, where: ay .> ax)
        angle = angle.replacing(with: .pi - angle, where: x .< 0)
        return angle.replacing(with: -angle, where: y .< 0)
    }

    /// The lane-wise larger of `a` and `b` (`b` where either is NaN): the values of the standard
    /// library's `pointwiseMax` on non-NaN lanes, which here is an out-of-line call (so every live
    /// vector register is spilled around it).
    @inline(__always)
    static func larger(_ a: V, _ b: V) -> V { b.replacing(with: a, where: a .> b) }

    /// Whether any lane of `mask` is set: the standard library's `any(_:)` is an out-of-line call
    /// here (the storage's `min()`); this ors the two halves of the bit pattern instead.
    @inline(__always)
    static func anyLane(_ mask: SIMDMask<V.MaskStorage>) -> Bool {
        let bits = unsafeBitCast(mask, to: SIMD4<UInt64>.self)
        let half = bits.lowHalf | bits.highHalf
        return half[0] | half[1] != 0
    }

    /// eˣ for x in [−80, 0] (lanes below are clamped): x = n·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2
    /// split in two parts so r is exact to a few ulp), Cephes' `expf` polynomial for eʳ
    /// (relative error ≤ 1.2e-7 in its documentation), times 2ⁿ built from its bits (n ≥ −116, a
    /// normal `Float`).
    @inline(__always)
    static func exp(_ x: V) -> V {
        let x = larger(x, V(repeating: -80))
        // n = round(x·log₂e) by the 1.5·2²³ trick (the sum's low mantissa bits hold n).
        let magic = V(repeating: 12_582_912)
        let shifted = x * 1.44269504089 + magic
        let n = shifted - magic
        var r: V = x - n * 0.693359375
        r += n * 2.12194440e-4
        var p: V = 1.9875691500e-4 * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * r * r + r + 1
        let nBits = unsafeBitCast(shifted, to: FloatLanes.MaskStorage.self) &- unsafeBitCast(magic, to: FloatLanes.MaskStorage.self)
        let scale = unsafeBitCast((nBits &+ 127) &<< 23, to: V.self)
        return p * scale
    }

    /// √x for x ≥ 0: the bit-level guess of 1/√x (error ≤ 0.18 %) and two Newton steps
    /// y ← y(1.5 − x/2·y²) (quadratic: 1.8e-3 → 4.7e-6 → 3e-11, so the result is within a few
    /// `Float` ulp), times x. √0 = 0. Written out because the standard library's SIMD
    /// `squareRoot()` becomes one scalar `sqrtf` call per lane here.
    @inline(__always)
    static func squareRoot(_ x: V) -> V {
        let bits = unsafeBitCast(x, to: FloatLanes.MaskStorage.self)
        var y = unsafeBitCast(FloatLanes.MaskStorage(repeating: 0x5F37_5A86) &- (bits &>> 1), to: V.self)
        let h = 0.5 * x
        y = y * (1.5 - h * y * y)
        y = y * (1.5 - h * y * y)
        return x * y
    }

    /// ∛t for positive normal t: the bit-level first guess of FreeBSD `cbrtf` (exponent and
    /// mantissa bits divided by three, plus its constant B1; within ~4 %), then two Halley steps
    /// y ← y(y³ + 2t)/(2y³ + t) (cubic: ≤ 4 % → ≤ 7e-5 → below `Float` rounding), so the root
    /// is within a few ulp. SIMD has no integer division: bits/3 is taken as the `Float`
    /// Float(bits)/768 (below 2²³; its rounding is ≤ 2⁻²⁴ relative), rounded to an integer by
    /// adding 2²³ (the sum's low mantissa bits then hold it) and scaled back by 256, so it is
    /// within ~200 of bits/3: the guess moves by < 3e-5 relative (200 units of 2⁻²³).
    @inline(__always)
    static func cubeRoot(_ t: V) -> V {
        typealias Bits = FloatLanes.MaskStorage
        let bits = unsafeBitCast(t, to: Bits.self)
        let scaled = V(bits) * (1.0 / 768) + 8_388_608
        let third = (unsafeBitCast(scaled, to: Bits.self) &- 0x4B00_0000) &<< 8
        var y = unsafeBitCast(third &+ 709_958_130, to: V.self)
        for _ in 0..<2 {
            let y3 = y * y * y
            y = y * (y3 + t + t) / (y3 + y3 + t)
        }
        return y
    }

    /// sin u for u in [0, π/3] by its Taylor series to u¹¹: the first omitted term is
    /// u¹³/13! ≤ 3e-10, below `Float` rounding of the result.
    @inline(__always)
    static func sin(_ u: V) -> V {
        let uu = u * u
        var p: V = -2.5052108385e-8 * uu + 2.7557319224e-6
        p = p * uu - 1.9841269841e-4
        p = p * uu + 8.3333333333e-3
        p = p * uu - 1.6666666667e-1
        p = p * uu + 1
        return u * p
    }
}
