import Foundation

/// The structural similarity index of Wang, Bovik, Sheikh & Simoncelli, "Image quality
/// assessment: from error visibility to structural similarity", IEEE TIP 13(4), 2004 — the
/// definition of Wang's `ssim_index.m`, reproduced by scikit-image's
/// `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
/// data_range=255)` (`shared/reference/README.md` §3):
///
/// - window: 11×11 Gaussian, σ = 1.5, normalised to sum 1 (MATLAB `fspecial('gaussian', 11, 1.5)`);
/// - K1 = 0.01, K2 = 0.03, L = 255, so C1 = 6.5025, C2 = 58.5225;
/// - population statistics: σx² = G∗x² − μx², σxy = G∗xy − μxμy;
/// - `SSIM = (2μxμy + C1)(2σxy + C2) / ((μx² + μy² + C1)(σx² + σy² + C2))`, evaluated only where
///   the window lies inside the image (the "valid" (H−10)×(W−10) map), and averaged.
///
/// Samples are in 8-bit units (0…255, fractional allowed), computed in `Double`. Unit of the
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
    /// valid map, or `nil` when either side is shorter than 11 pixels.
    ///
    /// The map is computed in fixed bands of rows, in parallel; each band sums its own rows
    /// in order and the band sums are added in order, so the result does not depend on the
    /// number of cores.
    static func mean(_ x: PlaneSource, _ y: PlaneSource) -> (ssim: Double, cs: Double)? {
        let w = x.width, h = x.height
        guard w >= 11, h >= 11, y.width == w, y.height == h else { return nil }
        let mw = w - 10, mh = h - 10
        let bands = Parallel.bands(rows: mh, rowsPerBand: 96)
        let sums = Parallel.map(bands.count) { b -> (Double, Double) in
            bandSums(x, y, outputRows: bands[b])
        }
        var s = 0.0, cs = 0.0
        for (a, b) in sums { s += a; cs += b }
        let n = Double(mw * mh)
        return (s / n, cs / n)
    }

    /// Sums of the SSIM and cs maps over output rows `rows` of the valid map.
    private static func bandSums(_ xs: PlaneSource, _ ys: PlaneSource, outputRows rows: Range<Int>) -> (Double, Double) {
        let w = xs.width, mw = w - 10
        let inRows = rows.count + 10
        // Horizontally filtered signals for every input row of the band: μx, μy, x², y², xy.
        var hx = [Double](repeating: 0, count: inRows * mw), hy = hx, hxx = hx, hyy = hx, hxy = hx
        var rx = [Double](repeating: 0, count: w), ry = rx
        let t = taps
        for r in 0..<inRows {
            xs.read(rows.lowerBound + r, &rx)
            ys.read(rows.lowerBound + r, &ry)
            let o = r * mw
            rx.withUnsafeBufferPointer { px in
                ry.withUnsafeBufferPointer { py in
                    for i in 0..<mw {
                        var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                        for k in 0..<11 {
                            let a = px[i + k], b = py[i + k], wk = t[k]
                            sx += wk * a; sy += wk * b
                            sxx += wk * a * a; syy += wk * b * b; sxy += wk * a * b
                        }
                        hx[o + i] = sx; hy[o + i] = sy; hxx[o + i] = sxx; hyy[o + i] = syy; hxy[o + i] = sxy
                    }
                }
            }
        }
        var total = 0.0, totalCS = 0.0
        var mx = [Double](repeating: 0, count: mw), my = mx, vxx = mx, vyy = mx, vxy = mx
        for (r, _) in rows.enumerated() {
            for i in 0..<mw { mx[i] = 0; my[i] = 0; vxx[i] = 0; vyy[i] = 0; vxy[i] = 0 }
            for k in 0..<11 {
                let wk = t[k], o = (r + k) * mw
                for i in 0..<mw {
                    mx[i] += wk * hx[o + i]; my[i] += wk * hy[o + i]
                    vxx[i] += wk * hxx[o + i]; vyy[i] += wk * hyy[o + i]; vxy[i] += wk * hxy[o + i]
                }
            }
            var rowSum = 0.0, rowCS = 0.0
            for i in 0..<mw {
                let ux = mx[i], uy = my[i]
                let sxx = vxx[i] - ux * ux, syy = vyy[i] - uy * uy, sxy = vxy[i] - ux * uy
                let cs = (2 * sxy + c2) / (sxx + syy + c2)
                rowSum += (2 * ux * uy + c1) / (ux * ux + uy * uy + c1) * cs
                rowCS += cs
            }
            total += rowSum
            totalCS += rowCS
        }
        return (total, totalCS)
    }

    /// Wang's 2009 `ssim.m`: downsample first by `f = max(1, round(min(H, W)/256))` with an
    /// f×f box (see ``Plane/boxDownsample(_:factor:)``), then ``mean(_:_:)``'s SSIM.
    static func wangAutoDownsampled(_ x: PlaneSource, _ y: PlaneSource) -> Double? {
        let f = max(1, Int((Double(min(x.width, x.height)) / 256).rounded(.toNearestOrAwayFromZero)))
        if f == 1 { return mean(x, y)?.ssim }
        let dx = Plane.boxDownsample(x, factor: f), dy = Plane.boxDownsample(y, factor: f)
        return mean(dx.source, dy.source)?.ssim
    }

    /// MS-SSIM of Wang, Simoncelli & Bovik (Asilomar 2003) as their `msssim.m`: 5 levels with
    /// weights 0.0448, 0.2856, 0.3001, 0.2363, 0.1333; `Π_{l=1..4} cs_l^{w_l} · ssim_5^{w_5}`
    /// with the mean maps of each level; levels halved by ``Plane/halved()``. `nil` when
    /// min(H, W) < 176 (`msssim.m` returns −Inf there). `level1` passes a full-resolution
    /// result already computed for plain SSIM.
    static func multiScale(_ x: PlaneSource, _ y: PlaneSource, level1: (ssim: Double, cs: Double)? = nil) -> Double? {
        guard min(x.width, x.height) >= 176 else { return nil }
        let weights = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]
        guard let first = level1 ?? mean(x, y) else { return nil }
        var product = pow(first.cs, weights[0])
        var px = Plane.boxDownsample(x, factor: 2), py = Plane.boxDownsample(y, factor: 2)
        for level in 1..<5 {
            guard let m = mean(px.source, py.source) else { return nil }
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
