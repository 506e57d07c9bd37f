import ImageCorpus
import ImageCore

extension Mutant {
    /// Half-pixel offset: the resampler puts pixel centres at integer coordinates instead of
    /// `i + ½`, so the output is shifted half a pixel right and down (and softened).
    static let halfPixelOffset = Mutant(
        id: "half-pixel", topic: "half-pixel",
        title: "half-pixel offset (pixel centres at integers instead of i + ½): output shifted right and down",
        history: "Mapping output pixel i to source coordinate i · scale instead of (i + ½) · scale − ½ shifts the image by half a pixel toward the bottom right; repeated thumbnails drift, and the result is no longer flip-symmetric (B19: libvips#504 and #703, sharp#568 and #452). Here the shift is half an output pixel in both axes, as bilinear interpolation at (x − ½, y − ½) gives it.",
        references: ["B19"], bugClass: "pixel-shift",
        triggers: { pair in pair.resamples && pair.record.scene != "constant" },
        make: { base in
            MutantResizer(name: "half-pixel(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                switch operation {
                case .resize, .squareThumbnail, .maxPixelSize:
                    return try output.mappingBitmaps { bitmap throws(ResizerError) in try HalfPixel.shifted(bitmap) }
                default:
                    return output
                }
            }
        })
}

/// The shift of ``Mutant/halfPixelOffset``.
enum HalfPixel {
    /// Each pixel the mean of itself and its left, upper and upper-left neighbours (edges
    /// repeat), averaged premultiplied on the stored (encoded) 16-bit values: the bitmap
    /// sampled at (x − ½, y − ½). Straight RGBA 16 out.
    static func shifted(_ bitmap: Bitmap) throws(ResizerError) -> Bitmap {
        let wide = try FrameRewrite.rgba16(bitmap)
        let s = FrameRewrite.samples(ofRGBA16: wide)
        let w = bitmap.width, h = bitmap.height
        var out = [UInt16](repeating: 0, count: s.count)
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD4<Double>(repeating: 0)
                for (dx, dy) in [(0, 0), (-1, 0), (0, -1), (-1, -1)] {
                    let i = (max(y + dy, 0) * w + max(x + dx, 0)) * 4
                    let a = Double(s[i + 3]) / 65535
                    sum += SIMD4(Double(s[i]) * a, Double(s[i + 1]) * a, Double(s[i + 2]) * a, Double(s[i + 3]))
                }
                let alpha = sum.w / 4
                let o = (y * w + x) * 4
                out[o + 3] = UInt16((alpha).rounded())
                for c in 0..<3 {
                    let straight = alpha > 0 ? (sum[c] / 4) / (alpha / 65535) : 0
                    out[o + c] = UInt16(min(max(straight, 0), 65535).rounded())
                }
            }
        }
        return try FrameRewrite.rgba16(width: w, height: h, samples: out)
    }
}
