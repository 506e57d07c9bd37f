import ImageCore
import ImageCodecs
import ImageMetrics

/// The small picture of an image in an index (the folder diff's, the run's): the displayed
/// image (orientation applied, first frame) reduced by an integer box average so that neither
/// side exceeds ``maxSide`` pixels, as 8-bit straight RGBA in a PNG; or the difference of two,
/// each pixel its block's worst. For display only, never compared.
public enum IndexThumbnail {
    /// The largest width or height of a thumbnail, in pixels.
    public static let maxSide = 160

    /// The difference thumbnail of two images of equal displayed size: the heat map, each
    /// thumbnail pixel its block's worst (``HeatMap/thumbnail(expected:actual:ignored:maxSide:)``),
    /// so one changed pixel stays visible; `nil` for different sizes.
    public static func difference(_ expected: Image, _ actual: Image, ignored: PixelMask?) -> EmbeddedImage? {
        let withAlpha = expected.format.hasAlpha || actual.format.hasAlpha
        let e = ValueImage(expected, withAlpha: withAlpha), a = ValueImage(actual, withAlpha: withAlpha)
        guard e.width == a.width, e.height == a.height, e.width > 0, e.height > 0,
              let png = try? ImageCodecs.encode(Image(bitmap: HeatMap.thumbnail(expected: e, actual: a, ignored: ignored, maxSide: maxSide)),
                                                as: .png) else { return nil }
        return EmbeddedImage(png: png)
    }

    /// The thumbnail of `image`; `nil` when it cannot be encoded.
    public static func png(_ image: Image) -> EmbeddedImage? {
        let v = ValueImage(image, withAlpha: true)
        guard v.width > 0, v.height > 0 else { return nil }
        let step = max(1, (max(v.width, v.height) + maxSide - 1) / maxSide)
        let w = max(1, v.width / step), h = max(1, v.height / step)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        v.withSamples { samples in
        for ty in 0..<h {
            for tx in 0..<w {
                var sum = [Int](repeating: 0, count: 4)
                for y in (ty * step)..<(ty * step + step) {
                    var i = (y * v.width + tx * step) * 4
                    for _ in 0..<step {
                        for c in 0..<4 { sum[c] += Int(samples[i + c]) }
                        i += 4
                    }
                }
                let n = step * step * 257
                for c in 0..<4 { out[(ty * w + tx) * 4 + c] = UInt8(min(255, (sum[c] + n / 2) / n)) }
            }
        }
        }
        guard let bitmap = try? Bitmap(width: w, height: h, format: .rgba8, bytes: out),
              let png = try? ImageCodecs.encode(Image(bitmap: bitmap), as: .png) else { return nil }
        return EmbeddedImage(png: png)
    }
}

extension IndexThumbnail {
    /// Where a thumbnail of a report's `index`-th pair or key is, relative to the index:
    /// `thumbs/NNNN-NAME.png` (`expected`, `actual`, `both`, `difference`).
    static func path(index: Int, _ name: String) -> String { "thumbs/" + String(format: "%04d", index) + "-\(name).png" }

    /// Where the difference thumbnail of a report's `index`-th pair or key is.
    static func differencePath(index: Int) -> String { path(index: index, "difference") }
}
