import Foundation

extension CubeRoot {
    /// Eight `Float` cube roots at once, for SSIMULACRA 2's opsin response (the reference takes
    /// them in `float` with a Newton cube root of ≤ 6 ulp error): a bit-level first guess (the
    /// exponent divided by three plus FreeBSD `cbrtf`'s constant B1, within ~3 %) and two Halley
    /// steps `y ← y·(y³ + 2t)/(2y³ + t)` (cubic convergence: 3e-2 → 1e-5 → below `Float`
    /// rounding), so the result is within a few ulp of the true root. Every lane must be
    /// positive and normal (XYB adds a bias of 0.0038 before the root).
    @inline(__always)
    static func ofPositive(_ t: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(t, to: SIMD8<UInt32>.self)
        var y = unsafeBitCast(bits / 3 &+ SIMD8<UInt32>(repeating: 709_958_130), to: SIMD8<Float>.self)
        for _ in 0..<2 {
            let y3 = y * y * y
            y = y * (y3 + t + t) / (y3 + y3 + t)
        }
        return y
    }
}
