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
    /// The light stripe of ignored pixels (``IgnoredPixels``), drawn hatched: diagonal stripes 3
    /// pixels wide of this colour and of the darkest grey, whatever their difference.
    public static let hatchColor: (UInt8, UInt8, UInt8) = (235, 235, 235)

    /// The heat map of two value images of equal size (8-bit RGB, upright).
    public static func bitmap(expected e: ValueImage, actual a: ValueImage) -> Bitmap {
        let indices = indexBytes(expected: e, actual: a)
        var out = [UInt8](repeating: 0, count: indices.count * 3)
        let colours = palette.entries
        for (p, index) in indices.enumerated() {
            let c = colours[Int(index)]
            out[p * 3] = c.red; out[p * 3 + 1] = c.green; out[p * 3 + 2] = c.blue
        }
        return Bitmap(uncheckedWidth: e.width, height: e.height, format: .rgb8, bytesPerRow: e.width * 3, bytes: out)
    }

    /// The same heat map as ``bitmap(expected:actual:)`` stored as 8-bit indices into
    /// ``palette`` (every colour it uses is one of 70), a third of the bytes for the PNG
    /// encoder of the HTML report.
    public static func indexedBitmap(expected e: ValueImage, actual a: ValueImage, ignored: PixelMask? = nil) -> Bitmap {
        var indices = indexBytes(expected: e, actual: a)
        if let ignored, ignored.width == e.width, ignored.height == e.height {
            for y in 0..<e.height {
                for x in 0..<e.width where ignored.bits[y * e.width + x] {
                    indices[y * e.width + x] = ((x + y) / 3) % 2 == 0 ? hatchIndex : UInt8(firstGreyIndex)
                }
            }
        }
        return Bitmap(uncheckedWidth: e.width, height: e.height, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8),
                      bytesPerRow: e.width, bytes: indices)
    }

    /// Every colour of the heat map: the 7 ramp colours, white (an error that is not a number),
    /// the hidden-colour violet, the 61 greys 40…100 of unchanged pixels, then the hatch of
    /// ignored pixels (71 colours).
    public static let palette: Palette = {
        var entries = ramp.map { Palette.Entry(red: $0.color.0, green: $0.color.1, blue: $0.color.2) }
        entries.append(Palette.Entry(red: 255, green: 255, blue: 255))
        entries.append(Palette.Entry(red: hiddenColor.0, green: hiddenColor.1, blue: hiddenColor.2))
        for g in 40...100 { entries.append(Palette.Entry(red: UInt8(g), green: UInt8(g), blue: UInt8(g))) }
        entries.append(Palette.Entry(red: hatchColor.0, green: hatchColor.1, blue: hatchColor.2))
        return Palette(entries)
    }()
    static let whiteIndex: UInt8 = 7, hiddenIndex: UInt8 = 8, firstGreyIndex = 9, hatchIndex: UInt8 = 70

    /// The palette index of every pixel, computed in fixed row bands on every core (each band
    /// writes its own rows).
    static func indexBytes(expected e: ValueImage, actual a: ValueImage) -> [UInt8] {
        let w = e.width, h = e.height, n = e.channels
        var out = [UInt8](repeating: 0, count: w * h)
        let limits = ramp.map(\.limit)
        let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
        // Opaque pixels whose samples are 8-bit codes (c·257): a channel's error max(black,
        // white) read from a table of every (actual, expected) code pair, computed by the same
        // expressions with α = 1, so the same value as the general loop.
        let eightBit: [Double]? = n == 3 ? (0..<65536).map { k in
            let av = Double((k >> 8) * 257) / 65535, ev = Double((k & 255) * 257) / 65535
            let one = 1.0
            let black = abs(av * one - ev * one) * 255
            let white = abs(av * one + 1 - one - (ev * one + 1 - one)) * 255
            return max(black, white)
        } : nil
        out.withUnsafeMutableBufferPointer { whole in
            let dst = DisjointBuffer(whole)
            _ = Parallel.map(bands.count) { b in
                let o = dst.slice((bands[b].lowerBound * w)..<(bands[b].upperBound * w))
                e.withSamples { es in
                    a.withSamples { as_ in
                        for p in (bands[b].lowerBound * w)..<(bands[b].upperBound * w) {
                            let i = p * n
                            let ea = n == 4 ? Double(es[i + 3]) / 65535 : 1, aa = n == 4 ? Double(as_[i + 3]) / 65535 : 1
                            var err = abs(aa - ea) * 255
                            var hidden = false
                            if let table = eightBit, es[i] % 257 == 0, es[i + 1] % 257 == 0, es[i + 2] % 257 == 0,
                               as_[i] % 257 == 0, as_[i + 1] % 257 == 0, as_[i + 2] % 257 == 0 {
                                for c in 0..<3 {
                                    err = max(err, table[Int(as_[i + c] / 257) << 8 | Int(es[i + c] / 257)])
                                    if es[i + c] != as_[i + c] { hidden = true }
                                }
                            } else {
                                for c in 0..<3 {
                                    let ev = Double(es[i + c]) / 65535, av = Double(as_[i + c]) / 65535
                                    let black = abs(av * aa - ev * ea) * 255
                                    let white = abs(av * aa + 1 - aa - (ev * ea + 1 - ea)) * 255
                                    err = max(err, black, white)
                                    if es[i + c] != as_[i + c] { hidden = true }
                                }
                            }
                            let index: UInt8
                            if err > 1e-9 {
                                index = limits.firstIndex { err <= $0 }.map { UInt8($0) } ?? whiteIndex
                            } else if hidden {
                                index = hiddenIndex
                            } else {
                                let y = (0.299 * Double(es[i]) + 0.587 * Double(es[i + 1]) + 0.114 * Double(es[i + 2])) / 65535 * ea
                                // 40 + y·60 lies in 40…100 for y in 0…1 (the clamp of the RGB form).
                                let g = min(max(Int(40 + y * 60), 40), 100)
                                index = UInt8(firstGreyIndex + g - 40)
                            }
                            o[p - bands[b].lowerBound * w] = index
                        }
                    }
                }
                return 0
            }
        }
        return out
    }
}
