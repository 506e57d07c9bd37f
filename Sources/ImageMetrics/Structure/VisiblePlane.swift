import Foundation

/// The visible channels of a value image that the SSIM family compares, in 8-bit units: colour
/// composited over a grey `background` (0…1) in the encoded domain, `c·a + 255·bg·(1 − a)`;
/// luma is Y′ = 0.299R + 0.587G + 0.114B of those values, unrounded.
enum VisiblePlane {
    /// Rows of one visible channel (`channel` 0…2 = R, G, B; 3 = luma Y′), in `Double`.
    static func source(_ image: ValueImage, channel: Int, background bg: Double) -> PlaneSource {
        let n = image.channels, w = image.width
        let samples = image.samples
        let units = eightBitUnits
        return PlaneSource(width: w, height: image.height) { y, out in
            samples.withUnsafeBufferPointer { s in
            units.withUnsafeBufferPointer { u in
                var i = y * w * n
                if n == 3 {
                    // Opaque: no compositing; the same arithmetic as below without the alpha tests
                    // (`u[v]` is `Double(v) / 257`, looked up instead of divided).
                    out.withUnsafeMutableBufferPointer { o in
                        if channel == 3 {
                            for x in 0..<w {
                                o[x] = 0.299 * u[Int(s[i])] + 0.587 * u[Int(s[i + 1])] + 0.114 * u[Int(s[i + 2])]
                                i += 3
                            }
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
                    out[x] = channel == 3 ? 0.299 * v(0) + 0.587 * v(1) + 0.114 * v(2) : v(channel)
                    i += n
                }
            }
            }
        }
    }

    /// `Float(v) / 257` for every 16-bit sample v: the sample in 8-bit units, for the `Float` SSIM pass.
    static let floatEightBitUnits: [Float] = (0...65535).map { Float($0) / 257 }

    /// `Double(v) / 257` for every 16-bit sample v: the sample in 8-bit units.
    static let eightBitUnits: [Double] = (0...65535).map { Double($0) / 257 }

    /// Mean SSIM and cs of the four visible planes Y′, R, G, B (in that order) of `e` against
    /// `a`, in one pass over the samples (``SSIMTiles``, 16 `Float` lanes per pixel), or `nil`
    /// when the sizes differ or either side is under 11 pixels.
    static func ssimMeans(_ e: ValueImage, _ a: ValueImage, background bg: Double) -> [(ssim: Double, cs: Double)]? {
        let w = e.width, h = e.height
        guard w >= 11, h >= 11, a.width == w, a.height == h, e.channels == a.channels else { return nil }
        let n = e.channels
        let es = e.samples, ac = a.samples
        let back = Float(bg * 255)
        let units = floatEightBitUnits
        let signals: SSIMTiles.SignalRow<SIMD16<Float>> = { y, x0, count, out in
            es.withUnsafeBufferPointer { s in
            ac.withUnsafeBufferPointer { t in
            units.withUnsafeBufferPointer { u in
                var i = (y * w + x0) * n
                @inline(__always) func fill(channels n: Int) {
                    for k in 0..<count {
                        let x = centredPlanes(s, i, n, back, u), v = centredPlanes(t, i, n, back, u)
                        let d = x - v
                        out[k] = SIMD16(lowHalf: SIMD8(lowHalf: x, highHalf: v), highHalf: SIMD8(lowHalf: x * x + v * v, highHalf: d * d))
                        i += n
                    }
                }
                // A constant 3 lets the compiler drop the compositing test of opaque images.
                if n == 3 { fill(channels: 3) } else { fill(channels: n) }
            }
            }
            }
        }
        let sums = SSIMTiles.sums(width: w, height: h, sumCount: 8, signals: signals, score: SSIMTiles.scoreFour)
        let count = Double((w - 10) * (h - 10))
        return (0..<4).map { (sums[$0] / count, sums[4 + $0] / count) }
    }

    /// (Y′, R, G, B) of the pixel at sample index `i`, composited, minus ``SSIMTiles/centre``.
    @inline(__always)
    private static func centredPlanes(_ s: UnsafeBufferPointer<UInt16>, _ i: Int, _ n: Int, _ back: Float,
                                      _ u: UnsafeBufferPointer<Float>) -> SIMD4<Float> {
        var rgb = SIMD4<Float>(u[Int(s[i])], u[Int(s[i + 1])], u[Int(s[i + 2])], 0)
        if n == 4 && s[i + 3] != 65535 {
            let alpha = Float(s[i + 3]) / 65535
            rgb = rgb * alpha + back * (1 - alpha)
        }
        let luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
        return SIMD4(luma, rgb[0], rgb[1], rgb[2]) - SSIMTiles.centre
    }
}
