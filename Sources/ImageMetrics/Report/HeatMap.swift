import ImageCore

/// The error heat map: one RGB pixel per compared pixel, coloured by the visible error.
///
/// Each pixel's error is the largest |Δ| of R, G, B after compositing both images over black
/// and over white (the worse), plus |Δα|, in 8-bit code units (the ``PixelStatistics``
/// definition). Unchanged pixels show the expected image's luma faded to 25 % grey for
/// orientation; changed pixels use a fixed ramp: ≤ 1 blue, ≤ 2 cyan, ≤ 5 green, ≤ 10 yellow,
/// ≤ 20 orange, ≤ 50 red, larger magenta-white. Colour changed only under α = 0 in both
/// images (invisible) is drawn dark violet.
public enum HeatMap {
    /// The legend: (upper bound of |Δ|, RGB colour, label).
    public static let ramp: [(limit: Double, color: (UInt8, UInt8, UInt8), label: String)] = [
        (1, (40, 80, 255), "≤ 1"), (2, (0, 200, 230), "≤ 2"), (5, (0, 210, 60), "≤ 5"), (10, (240, 230, 0), "≤ 10"),
        (20, (255, 140, 0), "≤ 20"), (50, (240, 20, 20), "≤ 50"), (.infinity, (255, 120, 255), "> 50"),
    ]
    /// Colour of pixels whose colour changed only under α = 0.
    public static let hiddenColor: (UInt8, UInt8, UInt8) = (90, 30, 120)

    /// The heat map of two value images of equal size (8-bit RGB, upright).
    public static func bitmap(expected e: ValueImage, actual a: ValueImage) -> Bitmap {
        let w = e.width, h = e.height, n = e.channels
        var out = [UInt8](repeating: 0, count: w * h * 3)
        e.samples.withUnsafeBufferPointer { es in
            a.samples.withUnsafeBufferPointer { as_ in
                out.withUnsafeMutableBufferPointer { o in
                    for p in 0..<(w * h) {
                        let i = p * n
                        let ea = n == 4 ? Double(es[i + 3]) / 65535 : 1, aa = n == 4 ? Double(as_[i + 3]) / 65535 : 1
                        var err = abs(aa - ea) * 255
                        var hidden = false
                        for c in 0..<3 {
                            let ev = Double(es[i + c]) / 65535, av = Double(as_[i + c]) / 65535
                            let black = abs(av * aa - ev * ea) * 255
                            let white = abs(av * aa + 1 - aa - (ev * ea + 1 - ea)) * 255
                            err = max(err, black, white)
                            if es[i + c] != as_[i + c] { hidden = true }
                        }
                        let rgb: (UInt8, UInt8, UInt8)
                        if err > 1e-9 {
                            rgb = ramp.first { err <= $0.limit }?.color ?? (255, 255, 255)
                        } else if hidden {
                            rgb = hiddenColor
                        } else {
                            let y = (0.299 * Double(es[i]) + 0.587 * Double(es[i + 1]) + 0.114 * Double(es[i + 2])) / 65535 * ea
                            let g = UInt8(clamping: Int(40 + y * 60))
                            rgb = (g, g, g)
                        }
                        o[p * 3] = rgb.0; o[p * 3 + 1] = rgb.1; o[p * 3 + 2] = rgb.2
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: w, height: h, format: .rgb8, bytesPerRow: w * 3, bytes: out)
    }
}
