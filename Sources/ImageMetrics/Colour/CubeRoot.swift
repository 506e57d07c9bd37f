/// A fast real cube root for the colour conversions (CIELAB's `f(t)`, XYB's opsin response),
/// which need three per pixel per image.
///
/// A bit-level first guess (the exponent divided by three, Kahan's constant) refined by three
/// Newton steps in `Double`; for 1e-12 ≤ t ≤ 10 the result agrees with `Foundation.cbrt` to a
/// few ulp (checked in `CubeRootTests`). Negative input gives the negative root; 0 gives 0.
enum CubeRoot {
    @inline(__always)
    static func of(_ t: Double) -> Double {
        if t == 0 { return 0 }
        let a = abs(t)
        var y = Double(bitPattern: a.bitPattern / 3 &+ 0x2A9F_7893_782D_A1CE)
        y = y - (y * y * y - a) / (3 * y * y)
        y = y - (y * y * y - a) / (3 * y * y)
        y = y - (y * y * y - a) / (3 * y * y)
        y = y - (y * y * y - a) / (3 * y * y)
        return t < 0 ? -y : y
    }
}
