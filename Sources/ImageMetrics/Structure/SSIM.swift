import Foundation

/// The structural similarity index of Wang, Bovik, Sheikh & Simoncelli, "Image quality
/// assessment: from error visibility to structural similarity", IEEE TIP 13(4), 2004 — the
/// definition of Wang's `ssim_index.m`, reproduced by scikit-image's
/// `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
/// data_range=255)` (`Tests/Fixtures/reference/README.md` §3):
///
/// - window: 11×11 Gaussian, σ = 1.5, normalised to sum 1 (MATLAB `fspecial('gaussian', 11, 1.5)`);
/// - K1 = 0.01, K2 = 0.03, L = 255, so C1 = 6.5025, C2 = 58.5225;
/// - population statistics: σx² = G∗x² − μx², σxy = G∗xy − μxμy;
/// - `SSIM = (2μxμy + C1)(2σxy + C2) / ((μx² + μy² + C1)(σx² + σy² + C2))`, evaluated only where
///   the window lies inside the image (the "valid" (H−10)×(W−10) map), and averaged.
///
/// Samples are in 8-bit units (0…255, fractional allowed); the maps are computed in `Float`
/// (``SSIMTiles``, with its error analysis), sums and the downsampling in `Double`. Unit of the
/// result: none (1 = identical, ≤ 1). Images smaller than 11×11 have no SSIM (`nil`).
enum SSIM {
    /// Definition version of the SSIM family (`ssim`, `ssim.rgb`, `ssim.wang`, `msssim`).
    static let version = "ssim-wang2004-gauss11-valid/1"

    /// C1 = (K1·L)², C2 = (K2·L)².
    static let c1 = (0.01 * 255) * (0.01 * 255)
    static let c2 = (0.03 * 255) * (0.03 * 255)

    /// The normalised 11-tap Gaussian, σ = 1.5 (the 2-D window is its outer product).
    static let taps: [Double] = {
        let raw = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }()

    /// Mean SSIM and mean contrast-structure term `cs = (2σxy + C2)/(σx² + σy² + C2)` over the
    /// valid map, or `nil` when the sizes differ or either side is shorter than 11 pixels.
    ///
    /// Computed by ``SSIMTiles`` in `Float` on samples centred by 128 (its error analysis: far
    /// under 1e-4 of the mean), in fixed tiles whose sums are added in order, so the result does
    /// not depend on the number of cores.
    static func mean(_ x: Plane, _ y: Plane) -> (ssim: Double, cs: Double)? {
        let w = x.width, h = x.height
        guard w >= 11, h >= 11, y.width == w, y.height == h else { return nil }
        let xv = x.values, yv = y.values
        let signals: SSIMTiles.SignalRow = { row, x0, count, _, xOut, yOut in
            xv.withUnsafeBufferPointer { a in
            yv.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                let o = row * w + x0
                for k in 0..<count {
                    xOut[k] = Float(a[o + k] - 128)
                    yOut[k] = Float(b[o + k] - 128)
                }
            }
            }
        }
        let sums = SSIMTiles.sums(width: w, height: h, planes: 1, signals: signals)
        let n = Double((w - 10) * (h - 10))
        return (sums[0] / n, sums[1] / n)
    }

    /// Wang's 2009 `ssim.m` and MS-SSIM of the luma planes `x` and `y`, their downsampled
    /// planes made in one read of each side (``Plane/boxDownsamples(_:factors:)``). `level1` is
    /// the full-resolution result of ``mean(_:_:)`` for `x` and `y`, already computed for plain SSIM.
    ///
    /// - `wang`: downsample first by `f = max(1, round(min(H, W)/256))` with an f×f box (see
    ///   ``Plane/boxDownsample(_:factor:)``), then ``mean(_:_:)``'s SSIM; `level1`'s SSIM when f = 1.
    /// - `multiScale`: MS-SSIM of Wang, Simoncelli & Bovik (Asilomar 2003) as their `msssim.m`:
    ///   5 levels with weights 0.0448, 0.2856, 0.3001, 0.2363, 0.1333;
    ///   `Π_{l=1..4} cs_l^{w_l} · ssim_5^{w_5}` with the mean maps of each level; levels halved by
    ///   ``Plane/halved()``. `nil` when min(H, W) < 176 (`msssim.m` returns −Inf there).
    static func downsampledScores(_ x: PlaneSource, _ y: PlaneSource,
                                  level1: (ssim: Double, cs: Double)?) -> (wang: Double?, multiScale: Double?) {
        let wangFactor = max(1, Int((Double(min(x.width, x.height)) / 256).rounded(.toNearestOrAwayFromZero)))
        let multiScaleLevel1 = min(x.width, x.height) >= 176 ? level1 : nil
        var factors: [Int] = []
        if wangFactor > 1 { factors.append(wangFactor) }
        if multiScaleLevel1 != nil && wangFactor != 2 { factors.append(2) }
        let dx = Plane.boxDownsamples(x, factors: factors), dy = Plane.boxDownsamples(y, factors: factors)
        func planes(_ f: Int) -> (Plane, Plane)? { factors.firstIndex(of: f).map { (dx[$0], dy[$0]) } }
        let wang = wangFactor == 1 ? level1?.ssim : planes(wangFactor).flatMap { mean($0.0, $0.1)?.ssim }
        var multiScale: Double? = nil
        if let first = multiScaleLevel1, let halves = planes(2) {
            multiScale = multiScaleProduct(level1: first, halves: halves)
        }
        return (wang, multiScale)
    }

    /// MS-SSIM's product from its first level's result and the planes halved once.
    private static func multiScaleProduct(level1 first: (ssim: Double, cs: Double), halves: (Plane, Plane)) -> Double? {
        let weights = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]
        var product = pow(first.cs, weights[0])
        var (px, py) = halves
        for level in 1..<5 {
            guard let m = mean(px, py) else { return nil }
            if level == 4 {
                product *= pow(m.ssim, weights[level])
            } else {
                product *= pow(m.cs, weights[level])
                px = px.halved(); py = py.halved()
            }
        }
        return product
    }
}
