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
        // Horizontally filtered signals for every input row of the band: x, y, x², y², xy.
        var h = [Double](repeating: 0, count: 5 * inRows * mw)
        var rx = [Double](repeating: 0, count: w), ry = rx, sq = [Double](repeating: 0, count: 3 * w)
        var acc = [Double](repeating: 0, count: 5 * mw)
        let t = taps
        var total = 0.0, totalCS = 0.0
        h.withUnsafeMutableBufferPointer { hp in
        sq.withUnsafeMutableBufferPointer { sp in
        acc.withUnsafeMutableBufferPointer { ap in
            for r in 0..<inRows {
                xs.read(rows.lowerBound + r, &rx)
                ys.read(rows.lowerBound + r, &ry)
                for x in 0..<w {
                    let a = rx[x], b = ry[x]
                    sp[x] = a * a; sp[w + x] = b * b; sp[2 * w + x] = a * b
                }
                rx.withUnsafeBufferPointer { px in
                ry.withUnsafeBufferPointer { py in
                    for signal in 0..<5 {
                        let src: UnsafePointer<Double>
                        switch signal {
                        case 0: src = px.baseAddress!
                        case 1: src = py.baseAddress!
                        default: src = UnsafePointer(sp.baseAddress! + (signal - 2) * w)
                        }
                        let dst = hp.baseAddress! + (signal * inRows + r) * mw
                        // The window is symmetric: taps k and 10 − k share a weight.
                        let centre = src + 5
                        for i in 0..<mw { dst[i] = t[5] * centre[i] }
                        for k in 0..<5 {
                            let wk = t[k], lo = src + k, hi = src + 10 - k
                            for i in 0..<mw { dst[i] += wk * (lo[i] + hi[i]) }
                        }
                    }
                }
                }
            }
            for r in 0..<rows.count {
                for signal in 0..<5 {
                    let dst = ap.baseAddress! + signal * mw
                    let src0 = hp.baseAddress! + (signal * inRows + r) * mw
                    let centre = src0 + 5 * mw
                    for i in 0..<mw { dst[i] = t[5] * centre[i] }
                    for k in 0..<5 {
                        let wk = t[k], lo = src0 + k * mw, hi = src0 + (10 - k) * mw
                        for i in 0..<mw { dst[i] += wk * (lo[i] + hi[i]) }
                    }
                }
                var rowSum = 0.0, rowCS = 0.0
                let a = ap.baseAddress!
                for i in 0..<mw {
                    let ux = a[i], uy = a[mw + i]
                    let sxx = a[2 * mw + i] - ux * ux, syy = a[3 * mw + i] - uy * uy, sxy = a[4 * mw + i] - ux * uy
                    let cs = (2 * sxy + c2) / (sxx + syy + c2)
                    rowSum += (2 * ux * uy + c1) / (ux * ux + uy * uy + c1) * cs
                    rowCS += cs
                }
                total += rowSum
                totalCS += rowCS
            }
        }
        }
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
