/// Exact conversion between any two pixel formats.
///
/// Rules, in the order they apply to each pixel:
/// 1. Unpack to normalised samples: integer `v` of `n` bits becomes `v / (2ⁿ − 1)`, so low bit
///    depths expand exactly (1-bit → 0/255, 4-bit × 17) and palettes expand to their RGBA entry.
/// 2. If the colour model changes, or the target is straight or has no alpha, premultiplied
///    colour is divided by alpha first (colour under α = 0 becomes 0).
/// 3. Colour model: gray → RGB replicates; RGB → gray is `0.299 R + 0.587 G + 0.114 B` on the
///    stored (gamma-encoded) values; CMYK → RGB is the naive `R = (1 − C)(1 − K)` with no ICC,
///    where Adobe-inverted CMYK stores `1 − ink`; RGB → CMYK is `K = 1 − max(R, G, B)`,
///    `C = (1 − R − K) / (1 − K)`.
/// 4. A straight source going to a premultiplied target is multiplied by alpha.
/// 5. Pack: `round(x · (2ⁿ − 1))`, half up, clamped (a value within 10⁻⁷ below a half
///    counts as the half: every exact rational result with a denominator under 5·10⁶ then
///    rounds as integer arithmetic would, despite floating-point error). So 8 → 16 bits is exactly × 257 and
///    16 → 8 bits is the rounded ÷ 257; premultiplying 8-bit is `round(c · a / 255)` and
///    unpremultiplying is `round(p · 255 / a)`, clamped to 255.
/// A target without alpha drops it (colour is the straight colour, not composited).
extension Bitmap {
    /// Returns the pixels in `target` format (tight rows), following the rules above.
    /// - Throws: ``ConversionError`` when the target is indexed and a colour is not in its palette.
    public func converted(to requested: PixelFormat) throws(ConversionError) -> Bitmap {
        let target: PixelFormat
        do { target = try requested.validated() } catch { throw .invalidFormat(error) }
        if target == format && bytesPerRow == format.minimumBytesPerRow(width: width) { return self }
        let stride = target.minimumBytesPerRow(width: width)
        var out = Bitmap(uncheckedWidth: width, height: height, format: target, bytesPerRow: stride,
                         bytes: [UInt8](repeating: 0, count: stride * height))
        let from = SampleModel(format), to = SampleModel(target)
        var row: [Double] = []
        var converted = [Double](repeating: 0, count: width * to.stride)
        let sourcePremultiplied = format.isPremultiplied
        for y in 0..<height {
            unpackRow(y, into: &row)
            convertSamples(row, from: from, premultiplied: sourcePremultiplied,
                           to: to, premultiplied: target.isPremultiplied, targetHasAlpha: target.alphaInfo.hasAlpha || target.isIndexed,
                           width: width, into: &converted)
            try out.packRow(y, from: converted)
        }
        return out
    }

    /// Straight RGBA samples of row `y` in 0…1, whatever the format (gray replicated, CMYK by
    /// the naive formula, premultiplied colour divided by alpha). Four values per pixel.
    public func straightRGBARow(_ y: Int) -> [Double] {
        var row: [Double] = []
        unpackRow(y, into: &row)
        var out = [Double](repeating: 0, count: width * 4)
        convertSamples(row, from: SampleModel(format), premultiplied: format.isPremultiplied,
                       to: .rgb, premultiplied: false, targetHasAlpha: true, width: width, into: &out)
        // Float samples may lie outside 0…1 (the file's physical values); the image is sRGB, not
        // extended sRGB, so they read as the nearer bound, as a display shows them.
        if format.isFloat { for i in out.indices { out[i] = out[i].clamped(0, 1) } }
        return out
    }

    /// The stored components of pixel (x, y) normalised to 0…1 in the format's own model
    /// (palette expanded to RGB), followed by alpha (1 when the format has none).
    public func normalizedPixel(x: Int, y: Int) -> [Double] {
        var row: [Double] = []
        unpackRow(y, into: &row)
        let s = SampleModel(format).stride
        return Array(row[(x * s)..<(x * s + s)])
    }
}

/// Converts a row of samples between sample models and premultiplication states.
package func convertSamples(_ input: [Double], from: SampleModel, premultiplied sourcePremultiplied: Bool,
                            to: SampleModel, premultiplied targetPremultiplied: Bool, targetHasAlpha: Bool,
                            width: Int, into out: inout [Double]) {
    let si = from.stride, so = to.stride
    if out.count != width * so { out = [Double](repeating: 0, count: width * so) }
    let keepPremultiplied = sourcePremultiplied && targetPremultiplied && from == to
    var color = [Double](repeating: 0, count: 4)
    for x in 0..<width {
        let i = x * si, o = x * so
        let alpha = input[i + from.colorCount]
        for c in 0..<from.colorCount { color[c] = input[i + c] }
        if sourcePremultiplied && !keepPremultiplied {
            for c in 0..<from.colorCount { color[c] = alpha > 0 ? min(color[c] / alpha, 1) : 0 }
        }
        var rgb = (0.0, 0.0, 0.0)
        if from != to {
            switch from {
            case .gray: rgb = (color[0], color[0], color[0])
            case .rgb: rgb = (color[0], color[1], color[2])
            case .alphaOnly: rgb = (0, 0, 0)
            case .cmyk(let inverted):
                let ink = inverted ? (1 - color[0], 1 - color[1], 1 - color[2], 1 - color[3])
                                   : (color[0], color[1], color[2], color[3])
                rgb = ((1 - ink.0) * (1 - ink.3), (1 - ink.1) * (1 - ink.3), (1 - ink.2) * (1 - ink.3))
            }
            switch to {
            case .gray: color[0] = 0.299 * rgb.0 + 0.587 * rgb.1 + 0.114 * rgb.2
            case .rgb: color[0] = rgb.0; color[1] = rgb.1; color[2] = rgb.2
            case .alphaOnly: break
            case .cmyk(let inverted):
                let k = 1 - max(rgb.0, rgb.1, rgb.2)
                let d = 1 - k
                var ink = (d > 0 ? (1 - rgb.0 - k) / d : 0, d > 0 ? (1 - rgb.1 - k) / d : 0, d > 0 ? (1 - rgb.2 - k) / d : 0, k)
                if inverted { ink = (1 - ink.0, 1 - ink.1, 1 - ink.2, 1 - ink.3) }
                color[0] = ink.0; color[1] = ink.1; color[2] = ink.2; color[3] = ink.3
            }
        }
        let outAlpha = targetHasAlpha ? alpha : 1
        if targetPremultiplied && !keepPremultiplied {
            for c in 0..<to.colorCount { color[c] *= alpha }
        }
        for c in 0..<to.colorCount { out[o + c] = color[c] }
        out[o + to.colorCount] = outAlpha
    }
}
