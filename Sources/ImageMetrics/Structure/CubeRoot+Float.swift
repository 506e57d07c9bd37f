import Foundation

extension CubeRoot {
    /// The `Float` cube root of SSIMULACRA 2's opsin response (the reference takes it in `float`
    /// with a Newton cube root of ≤ 6 ulp error): a bit-level first guess (the exponent divided
    /// by three plus FreeBSD `cbrtf`'s constant B1, within ~3 %) and two Halley steps
    /// `y ← y·(y³ + 2t)/(2y³ + t)` (cubic convergence: 3e-2 → 1e-5 → below `Float` rounding), so
    /// the result is within a few ulp of the true root. `t` must be positive and normal (XYB adds
    /// a bias of 0.0038 before the root). Branch-free and written per value, so a loop calling
    /// it is widened by the loop vectorizer (the division by 3 is a multiply by a constant).
    @inline(__always)
    static func ofPositive(_ t: Float) -> Float {
        var y = Float(bitPattern: t.bitPattern / 3 &+ 709_958_130)
        for _ in 0..<2 {
            let y3 = y * y * y
            y = y * (y3 + t + t) / (y3 + y3 + t)
        }
        return y
    }
}
