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
    ///
    /// Streams the band: each input row is filtered horizontally into an 11-row ring (signals
    /// x, y, x², y², xy), and as soon as 11 rows are in, the vertical filter gives one row of the
    /// valid map. The window is symmetric, so taps k and 10 − k share one multiplication.
    private static func bandSums(_ xs: PlaneSource, _ ys: PlaneSource, outputRows rows: Range<Int>) -> (Double, Double) {
        let w = xs.width, mw = w - 10
        let inRows = rows.count + 10
        // ring: [slot][signal][x], horizontally filtered.
        var ring = [Double](repeating: 0, count: 11 * 5 * mw)
        var rx = [Double](repeating: 0, count: w), ry = rx, sq = [Double](repeating: 0, count: 3 * w)
        var acc = [Double](repeating: 0, count: 5 * mw)
        let t = (taps[0], taps[1], taps[2], taps[3], taps[4], taps[5])
        var total = 0.0, totalCS = 0.0
        ring.withUnsafeMutableBufferPointer { ringB in
        sq.withUnsafeMutableBufferPointer { sqB in
        acc.withUnsafeMutableBufferPointer { accB in
            guard let ringP = ringB.baseAddress, let sp = sqB.baseAddress, let ap = accB.baseAddress else { return }
            for r in 0..<inRows {
                xs.read(rows.lowerBound + r, &rx)
                ys.read(rows.lowerBound + r, &ry)
                for x in 0..<w {
                    let a = rx[x], b = ry[x]
                    sp[x] = a * a; sp[w + x] = b * b; sp[2 * w + x] = a * b
                }
                let slot = ringP + (r % 11) * 5 * mw
                rx.withUnsafeBufferPointer { px in
                ry.withUnsafeBufferPointer { py in
                    guard let bx = px.baseAddress, let by = py.baseAddress else { return }
                    for signal in 0..<5 {
                        let src: UnsafePointer<Double>
                        switch signal {
                        case 0: src = bx
                        case 1: src = by
                        default: src = UnsafePointer(sp + (signal - 2) * w)
                        }
                        let dst = slot + signal * mw
                        for i in 0..<mw {
                            let s = src + i
                            dst[i] = t.5 * s[5] + t.0 * (s[0] + s[10]) + t.1 * (s[1] + s[9]) + t.2 * (s[2] + s[8])
                                + t.3 * (s[3] + s[7]) + t.4 * (s[4] + s[6])
                        }
                    }
                }
                }
                guard r >= 10 else { continue }
                // Output row r − 10 from ring rows r − 10 … r.
                func row(_ k: Int) -> UnsafeMutablePointer<Double> { ringP + ((r - 10 + k) % 11) * 5 * mw }
                let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5)
                let r6 = row(6), r7 = row(7), r8 = row(8), r9 = row(9), r10 = row(10)
                for i in 0..<(5 * mw) {
                    ap[i] = t.5 * r5[i] + t.0 * (r0[i] + r10[i]) + t.1 * (r1[i] + r9[i]) + t.2 * (r2[i] + r8[i])
                        + t.3 * (r3[i] + r7[i]) + t.4 * (r4[i] + r6[i])
                }
                var rowSum = 0.0, rowCS = 0.0
                for i in 0..<mw {
                    let ux = ap[i], uy = ap[mw + i]
                    let sxx = ap[2 * mw + i] - ux * ux, syy = ap[3 * mw + i] - uy * uy, sxy = ap[4 * mw + i] - ux * uy
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
