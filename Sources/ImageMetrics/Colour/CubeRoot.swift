/// A fast real cube root for the colour conversions (CIELAB's `f(t)`, XYB's opsin response),
/// which need three per pixel per image.
///
/// A bit-level first guess (the exponent divided by three, Kahan's constant, within ~5 %)
/// refined by three Halley steps `y ← y·(y³ + 2t)/(2y³ + t)` in `Double` (cubic convergence:
/// 5e-2 → 1e-4 → 1e-12 → full precision); for 1e-12 ≤ t ≤ 10 the result agrees with
/// `Foundation.cbrt` to 1e-15 relative (`ColourScienceTests`). Negative input gives the
/// negative root; 0 gives 0.
enum CubeRoot {
    @inline(__always)
    static func of(_ t: Double) -> Double {
        if t == 0 { return 0 }
        let a = abs(t)
        var y = Double(bitPattern: a.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        var y3 = y * y * y
        y = y * (y3 + 2 * a) / (2 * y3 + a)
        y3 = y * y * y
        y = y * (y3 + 2 * a) / (2 * y3 + a)
        y3 = y * y * y
        y = y * (y3 + 2 * a) / (2 * y3 + a)
        return t < 0 ? -y : y
    }

    /// Eight cube roots at once, lane by lane, to the same accuracy as ``of(_:)``, with one
    /// division instead of three: a bit-level guess of the reciprocal root `r ≈ t^(−1/3)`
    /// (Moroz et al.'s constant, within a few %), three division-free Newton steps
    /// `r ← r·(4 − t·r³)/3` (quadratic: ~3e-2 → 3e-3 → 2e-5 → 1e-9), then `y = t·r²` and one
    /// Halley step (cubic: 1e-9 → below rounding). The colour conversions take the roots of both
    /// images' pixels together. Every lane must be positive (callers clamp: XYB adds a bias,
    /// CIELAB's `f` uses the root only above ε).
    @inline(__always)
    static func ofPositive(_ t: SIMD8<Double>) -> SIMD8<Double> {
        let bits = unsafeBitCast(t, to: SIMD8<UInt64>.self)
        var r = unsafeBitCast(SIMD8<UInt64>(repeating: 0x553E_F0FF_289D_D796) &- bits / 3, to: SIMD8<Double>.self)
        let third = SIMD8<Double>(repeating: 1.0 / 3), four = SIMD8<Double>(repeating: 4)
        for _ in 0..<3 {
            r = r * (four - t * r * r * r) * third
        }
        let y = t * r * r
        let y3 = y * y * y
        return y * (y3 + t + t) / (y3 + y3 + t)
    }
}
