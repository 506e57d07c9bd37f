import Foundation

/// The visible channels of a value image that the SSIM family compares, in 8-bit units: colour
/// composited over a grey `background` (0…1) in the encoded domain, `c·a + 255·bg·(1 − a)`;
/// luma is Y′ = 0.299R + 0.587G + 0.114B of those values, unrounded.
enum VisiblePlane {
    /// Rows of one visible channel (`channel` 0…2 = R, G, B; 3 = luma Y′), in `Double`.
    static func source(_ image: ValueImage, channel: Int, background bg: Double) -> PlaneSource {
        let n = image.channels, w = image.width
        return PlaneSource(width: w, height: image.height) { y, out in
            image.withSamples { s in
                var i = y * w * n
                if n == 3 {
                    // Opaque: no compositing (the same arithmetic as below without the alpha tests).
                    out.withUnsafeMutableBufferPointer { o in
                        if channel == 3 {
                            if let o = o.baseAddress { s.withSixteenBit(from: i, count: w * 3) { opaqueLuma($0, o, w) } }
                        } else {
                            for x in 0..<w { o[x] = Double(s[i + channel]) / 257; i += 3 }
                        }
                    }
                    return
                }
                for x in 0..<w {
                    func v(_ c: Int) -> Double {
                        let value = Double(s[i + c]) / 257
                        if n == 4 && s[i + 3] != 65535 {
                            let a = Double(s[i + 3]) / 65535
                            return value * a + bg * 255 * (1 - a)
                        }
                        return value
                    }
                    if channel != 3 {
                        out[x] = v(channel)
                    } else if n == 4 && s[i + 3] != 65535 {
                        out[x] = 0.299 * v(0) + 0.587 * v(1) + 0.114 * v(2)
                    } else {
                        out[x] = opaqueLuma(s[i], s[i + 1], s[i + 2])
                    }
                    i += n
                }
            }
        }
    }

    /// Y′ in 8-bit units of `count` opaque pixels (3 samples each) from `samples`.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func opaqueLuma(_ samples: UnsafePointer<UInt16>, _ out: UnsafeMutablePointer<Double>, _ count: Int) {
        for x in 0..<count { out[x] = opaqueLuma(samples[3 * x], samples[3 * x + 1], samples[3 * x + 2]) }
    }

    /// Y′ in 8-bit units of an opaque pixel: weighted in 16-bit units, then divided by 257 once.
    /// That differs from weighting R/257, G/257 and B/257 by a few ulp (relative ~1e-16, far under
    /// any SSIM figure) and needs no per-sample division or table lookup, so a row vectorizes.
    @inline(__always)
    private static func opaqueLuma(_ r: UInt16, _ g: UInt16, _ b: UInt16) -> Double {
        (0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)) / 257
    }

    /// `Float(v) / 257`, the 16-bit sample v in 8-bit units for the `Float` SSIM pass, computed as
    /// the `Double` product with 1/257 rounded to `Float`: the same value as the correctly rounded
    /// `Float` quotient for every v (`StructureTests` checks all 65 536), but a multiplication the
    /// vectorizer widens instead of a division.
    @inline(__always)
    static func floatEightBitUnits(_ v: UInt16) -> Float {
        Float(Double(v) * (1.0 / 257))
    }

    /// Mean SSIM and cs of the four visible planes Y′, R, G, B (in that order) of `e` against
    /// `a`, in one pass over the samples (``SSIMTiles`` with P = 4 planes), or `nil`
    /// when the sizes differ or either side is under 11 pixels.
    static func ssimMeans(_ e: ValueImage, _ a: ValueImage, background bg: Double) -> [(ssim: Double, cs: Double)]? {
        let w = e.width, h = e.height
        guard w >= 11, h >= 11, a.width == w, a.height == h, e.channels == a.channels else { return nil }
        let n = e.channels
        let back = Float(bg * 255)
        let signals: SSIMTiles.SignalRow = { y, x0, count, stride, xOut, yOut in
            e.withSamples { es in
            a.withSamples { ac in
                let i = (y * w + x0) * n
                es.withSixteenBit(from: i, count: count * n) { s in
                ac.withSixteenBit(from: i, count: count * n) { t in
                    if n == 3 {
                        centredOpaquePlanes(s, count, xOut, stride)
                        centredOpaquePlanes(t, count, yOut, stride)
                    } else {
                        centredPlanes(s, channels: n, count, back, xOut, stride)
                        centredPlanes(t, channels: n, count, back, yOut, stride)
                    }
                }
                }
            }
            }
        }
        let sums = SSIMTiles.sums(width: w, height: h, planes: 4, signals: signals)
        let count = Double((w - 10) * (h - 10))
        return (0..<4).map { (sums[$0] / count, sums[4 + $0] / count) }
    }

    /// Y′, R, G, B minus ``SSIMTiles/centre`` of `count` opaque pixels (3 samples each) from
    /// `samples`: plane p at `out + p·stride`. A plain loop, so the vectorizer widens it.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func centredOpaquePlanes(_ samples: UnsafePointer<UInt16>, _ count: Int,
                                            _ out: UnsafeMutablePointer<Float>, _ stride: Int) {
        let luma = out, red = luma + stride, green = red + stride, blue = green + stride
        let centre = SSIMTiles.centre
        for k in 0..<count {
            let r = floatEightBitUnits(samples[3 * k]), g = floatEightBitUnits(samples[3 * k + 1])
            let b = floatEightBitUnits(samples[3 * k + 2])
            luma[k] = 0.299 * r + 0.587 * g + 0.114 * b - centre
            red[k] = r - centre
            green[k] = g - centre
            blue[k] = b - centre
        }
    }

    /// ``centredOpaquePlanes(_:_:_:_:)`` for pixels of `channels` samples whose colour is
    /// composited over `back` (8-bit units) where a fourth sample (alpha) is below 65535.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func centredPlanes(_ samples: UnsafePointer<UInt16>, channels n: Int, _ count: Int, _ back: Float,
                                      _ out: UnsafeMutablePointer<Float>, _ stride: Int) {
        let luma = out, red = luma + stride, green = red + stride, blue = green + stride
        let centre = SSIMTiles.centre
        for k in 0..<count {
            let s = samples + k * n
            var r = floatEightBitUnits(s[0]), g = floatEightBitUnits(s[1]), b = floatEightBitUnits(s[2])
            if n == 4 && s[3] != 65535 {
                let alpha = Float(s[3]) / 65535
                let under = back * (1 - alpha)
                r = r * alpha + under
                g = g * alpha + under
                b = b * alpha + under
            }
            luma[k] = 0.299 * r + 0.587 * g + 0.114 * b - centre
            red[k] = r - centre
            green[k] = g - centre
            blue[k] = b - centre
        }
    }
}
