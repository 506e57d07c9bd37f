/// The `Float` lanes of the per-pixel CIEDE2000 pass: eight pixels per call of
/// ``CIEDE2000/floatDifferences(_:)`` (the form the tests read).
typealias FloatLanes = SIMD8<Float>

/// √ (the hardware root), and ∛, atan2, exp and sin of one `Float` by bit-level guesses, Halley
/// steps and polynomials (Cephes `atanf` / `expf` and a Taylor series), for the CIEDE2000 loop of
/// ``CIEDE2000/floatDifferences(block:count:)``. Each is branch-free (choices
/// are selects) and calls nothing, so the loop vectorizer widens the loop that calls them to a
/// full register of lanes; each is within a few `Float` ulp on the range its caller uses (stated
/// per function).
///
/// They are written per value, not on `SIMD` types: the standard library's `SIMD` operators are
/// lane-by-lane loops that LLVM has to re-vectorize, and in a formula this long it packed lanes
/// of unrelated values together (half the instructions were shuffles, scalar arithmetic and
/// spills); a scalar loop body is widened uniformly, every value one vector.
enum ElementaryFloatLanes {
    /// atan2(y, x) in radians, (−π, π], for any (x, y) ≠ (0, 0). The ratio min/max of |x|, |y|
    /// is in [0, 1]; above tan(π/8) it is mapped to (w − 1)/(w + 1) around π/4, so Cephes'
    /// `atanf` polynomial runs on |w| ≤ tan(π/8) (relative error 1.9e-7 there), then the octant
    /// and quadrant are restored exactly. Absolute error ≤ 4e-7 rad.
    @inline(__always)
    static func atan2(_ y: Float, _ x: Float) -> Float {
        let ax = x < 0 ? -x : x, ay = y < 0 ? -y : y
        let yLarger = ax < ay
        let big = yLarger ? ay : ax, small = yLarger ? ax : ay
        let z = small / (big == 0 ? 1 : big)
        let reduce = z > 0.41421356237
        let w = reduce ? (z - 1) / (z + 1) : z
        let ww = w * w
        var p: Float = 0.0805374449538 * ww - 0.138776856032
        p = p * ww + 0.199777106478
        p = p * ww - 0.333329491539
        p = p * ww * w + w
        var angle = p + (reduce ? .pi / 4 : 0)
        angle = ay > ax ? .pi / 2 - angle : angle
        angle = x < 0 ? .pi - angle : angle
        return y < 0 ? -angle : angle
    }

    /// eˣ for x in [−80, 0] (values below are clamped): x = n·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2
    /// split in two parts so r is exact to a few ulp), Cephes' `expf` polynomial for eʳ
    /// (relative error ≤ 1.2e-7 in its documentation), times 2ⁿ built from its bits (n ≥ −116, a
    /// normal `Float`).
    @inline(__always)
    static func exp(_ x: Float) -> Float {
        let x = x > -80 ? x : -80
        // n = round(x·log₂e) by the 1.5·2²³ trick (the sum's low mantissa bits hold n).
        let magic: Float = 12_582_912
        let shifted = x * 1.44269504089 + magic
        let n = shifted - magic
        var r: Float = x - n * 0.693359375
        r += n * 2.12194440e-4
        var p: Float = 1.9875691500e-4 * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * r * r + r + 1
        let nBits = Int32(bitPattern: shifted.bitPattern) &- Int32(bitPattern: magic.bitPattern)
        let scale = Float(bitPattern: UInt32(bitPattern: (nBits &+ 127) &<< 23))
        return p * scale
    }

    /// √x for x ≥ 0, correctly rounded (IEEE `sqrtps`/`sqrtss`, the same bits on every x86-64
    /// build); a negative x gives 0. The clamp is what lets the loop vectorize: on Linux
    /// `Float.squareRoot()` keeps a call to libm's `sqrtf` for negative arguments (to set
    /// `errno`), and a call in the loop body stops the vectorizer; after the select LLVM knows the
    /// argument is not negative and drops the call.
    ///
    /// This replaced a bit-level guess of 1/√x with two Newton steps: that guess is within 3.4 %
    /// (not the 0.18 % of the constant's usual description, which is after one step), so two steps
    /// left a relative error of up to 4.8e-6, and the hardware root is also faster in the ΔE00
    /// loop (its latency is shorter than six dependent multiplications).
    @inline(__always)
    static func squareRoot(_ x: Float) -> Float {
        (x < 0 ? 0 : x).squareRoot()
    }

    /// ∛t for positive normal t: the bit-level first guess of FreeBSD `cbrtf` (exponent and
    /// mantissa bits divided by three, plus its constant B1; within ~4 %), then two Halley steps
    /// y ← y(y³ + 2t)/(2y³ + t) (cubic: ≤ 4 % → ≤ 7e-5 → below `Float` rounding), so the root
    /// is within a few ulp. bits/3 is taken as the `Float` Float(bits)/768 (below 2²³; its
    /// rounding is ≤ 2⁻²⁴ relative), rounded to an integer by adding 2²³ (the sum's low mantissa
    /// bits then hold it) and scaled back by 256, so it is within ~200 of bits/3: the guess moves
    /// by < 3e-5 relative (200 units of 2⁻²³). Vector integer division does not exist.
    @inline(__always)
    static func cubeRoot(_ t: Float) -> Float {
        let bits = Int32(bitPattern: t.bitPattern)
        let scaled = Float(bits) * (1.0 / 768) + 8_388_608
        let third = (Int32(bitPattern: scaled.bitPattern) &- 0x4B00_0000) &<< 8
        var y = Float(bitPattern: UInt32(bitPattern: third &+ 709_958_130))
        for _ in 0..<2 {
            let y3 = y * y * y
            y = y * (y3 + t + t) / (y3 + y3 + t)
        }
        return y
    }

    /// sin u for u in [0, π/3] by its Taylor series to u¹¹: the first omitted term is
    /// u¹³/13! ≤ 3e-10, below `Float` rounding of the result.
    @inline(__always)
    static func sin(_ u: Float) -> Float {
        let uu = u * u
        var p: Float = -2.5052108385e-8 * uu + 2.7557319224e-6
        p = p * uu - 1.9841269841e-4
        p = p * uu + 8.3333333333e-3
        p = p * uu - 1.6666666667e-1
        p = p * uu + 1
        return u * p
    }
}
