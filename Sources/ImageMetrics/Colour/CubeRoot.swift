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
}
