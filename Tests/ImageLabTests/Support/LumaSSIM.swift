import Foundation

/// SSIM on luma exactly as `Tests/Fixtures/reference/README.md` §3 defines `ssim_y` (Wang, Bovik, Sheikh
/// and Simoncelli 2004): 11 × 11 Gaussian window with σ = 1.5 normalised to 1, K1 = 0.01,
/// K2 = 0.03, L = 255, population statistics, only windows wholly inside the image, plain mean.
/// A test support, checked against the reference values; the product's SSIM belongs to ImageMetrics.
enum LumaSSIM {
    static let window: [Double] = {
        let g: [Double] = (-5...5).map { (i: Int) -> Double in
            let d = Double(i)
            return exp(-(d * d) / 4.5)  // 2σ² with σ = 1.5
        }
        let s = g.reduce(0, +)
        return g.map { $0 / s }
    }()

    /// SSIM of two luma planes (0…255) of `width × height`, both at least 11 × 11.
    static func ssim(_ x: [Double], _ y: [Double], width: Int, height: Int) -> Double {
        let c1: Double = (0.01 * 255) * (0.01 * 255), c2: Double = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        var count = 0
        for cy in 5..<(height - 5) {
            for cx in 5..<(width - 5) {
                var mx = 0.0, my = 0.0, xx = 0.0, yy = 0.0, xy = 0.0
                for j in -5...5 {
                    for i in -5...5 {
                        let w = window[j + 5] * window[i + 5]
                        let a = x[(cy + j) * width + cx + i], b = y[(cy + j) * width + cx + i]
                        mx += w * a; my += w * b; xx += w * a * a; yy += w * b * b; xy += w * a * b
                    }
                }
                let vx = xx - mx * mx, vy = yy - my * my, cov = xy - mx * my
                total += (2 * mx * my + c1) * (2 * cov + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
                count += 1
            }
        }
        return total / Double(count)
    }
}
