import ImageCore

/// The oracle of a pair for a resizer whose declared policies differ from
/// the ones the committed oracle assumes: averaging in sRGB instead of linear light, or another
/// rounding rule of output sizes.
///
/// It is rendered at run time from the case's `orient` oracle, the ideal upright source (each
/// pixel the linear-light area average of the scene, stored as 16-bit sRGB), which is what a
/// resizer sees when it reads the source. Each output pixel is the area average, over its
/// footprint (the operation's placement, sized by the declared rounding rule), of those source
/// pixels taken as constant squares (a box filter), supersampled like ``Oracle`` (16–64 points
/// per axis, rounded-corner and border coverage included), premultiplied, and averaged:
/// - in **sRGB**: the stored, gamma-encoded values are averaged (what libvips without
///   `--linear`, ImageMagick's `-resize` and Pillow do), then decoded to light for storage;
/// - in **linear** light: the decoded values are averaged (the committed oracle's rule, on the
///   pixelated source; used when only the rounding rule differs).
///
/// **Enlarging** (fewer than 1 source pixel per output pixel on an axis): an output pixel's
/// footprint lies within one or two source pixels, so the averaging space hardly matters, while a
/// rendering from source pixels would be blurrier (or blockier) than the committed oracle, which
/// integrates the continuous scene: an sRGB declaration alone keeps the committed oracle there
/// (and the label says so), so it never makes an enlargement easier to pass. When a rounding rule
/// changes an enlarging size, the source is reconstructed by bilinear interpolation of the
/// premultiplied values.
public enum DeclaredOracle {
    /// The output size a resizer averaging in `lightSpace` and rounding sizes by `rounding`
    /// expects for `operation` on a `width × height` upright source,
    /// whether the oracle must be rendered (sRGB light space when not enlarging, or a size that
    /// differs from the built-in rule's), and whether an sRGB declaration was set aside because
    /// the placement enlarges.
    public static func plan(_ operation: LabOperation, width: Int, height: Int,
                            lightSpace: LightSpace, rounding: SizeRounding) throws(OracleGeometryError) -> (placement: OraclePlacement, render: Bool, enlargingKept: Bool) {
        var placement = try OracleGeometry.placement(of: operation, width: width, height: height)
        let enlarging = placement.reduction < 1
        var render = lightSpace == .srgb && !enlarging
        if let s = rounding.size(of: operation, width: width, height: height), s != (placement.width, placement.height) {
            placement = OraclePlacement(width: s.width, height: s.height, content: (0, 0, Double(s.width), Double(s.height)),
                                        source: (0, 0, Double(width), Double(height)))
            render = true
        }
        return (placement, render, lightSpace == .srgb && enlarging && !render)
    }

    /// Renders the oracle of `placement` from `source` (the upright ideal source frame, any
    /// pixel format) averaging in `lightSpace`, as 16-bit straight sRGB-encoded RGBA (the form of
    /// the committed oracle files).
    /// - Throws: ``ConversionError`` when the source cannot be read as RGBA.
    public static func render(source: Bitmap, placement: OraclePlacement,
                              lightSpace: LightSpace) throws(ConversionError) -> Bitmap {
        try renderImage(source: source, placement: placement, lightSpace: lightSpace).bitmap16()
    }

    /// How a rendering reads the source pixels under an output pixel.
    enum Sampling: Sendable {
        /// The area average of the pixels under its footprint (box filter): the oracle's rule.
        case area
        /// The one source pixel under the output pixel's centre, mapped through the placement
        /// (point sampling, nearest neighbour without a filter). Coverage of rounded corners and
        /// borders is still integrated.
        case point
    }

    /// ``render(source:placement:lightSpace:)`` before quantisation: premultiplied linear light
    /// (``OracleImage``), with the source read by `sampling`, supersampled with `samples` points
    /// per axis (default: ``Oracle/samplesPerAxis(for:)``).
    static func renderImage(source: Bitmap, placement: OraclePlacement, lightSpace: LightSpace,
                            sampling: Sampling = .area, samples: Int? = nil) throws(ConversionError) -> OracleImage {
        let rgba = try source.converted(to: .rgba16)
        let w = rgba.width, h = rgba.height
        // Premultiplied values in the averaging space, 4 per pixel.
        var values = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let o = y * rgba.bytesPerRow + x * 8
                func sample(_ k: Int) -> Double { Double(UInt16(rgba.bytes[o + 2 * k]) << 8 | UInt16(rgba.bytes[o + 2 * k + 1])) / 65535 }
                let a = sample(3)
                let i = (y * w + x) * 4
                for k in 0..<3 {
                    let encoded = sample(k)
                    values[i + k] = (lightSpace == .srgb ? encoded : SRGBTransfer.toLinear(encoded)) * a
                }
                values[i + 3] = a
            }
        }
        let enlarging = placement.reduction < 1
        func premultiplied(_ x: Int, _ y: Int, _ k: Int) -> Double {
            values[((min(max(y, 0), h - 1)) * w + min(max(x, 0), w - 1)) * 4 + k]
        }
        let image = Oracle.render(canvasWidth: w, canvasHeight: h, placement: placement, samples: samples) { cx, cy in
            var p = (0.0, 0.0, 0.0, 0.0)
            if enlarging {
                let fx = cx - 0.5, fy = cy - 0.5
                let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                let tx = fx - Double(x0), ty = fy - Double(y0)
                func lerp(_ k: Int) -> Double {
                    let top = premultiplied(x0, y0, k) * (1 - tx) + premultiplied(x0 + 1, y0, k) * tx
                    let bottom = premultiplied(x0, y0 + 1, k) * (1 - tx) + premultiplied(x0 + 1, y0 + 1, k) * tx
                    return top * (1 - ty) + bottom * ty
                }
                p = (lerp(0), lerp(1), lerp(2), lerp(3))
            } else {
                var x = Int(cx), y = Int(cy)
                if sampling == .point {
                    // The output pixel holding this point, its centre, and the source pixel under that.
                    let scaleX = placement.sourceWidth / placement.contentWidth, scaleY = placement.sourceHeight / placement.contentHeight
                    let px = ((cx - placement.sourceX) / scaleX + placement.contentX).rounded(.down) + 0.5
                    let py = ((cy - placement.sourceY) / scaleY + placement.contentY).rounded(.down) + 0.5
                    x = Int((placement.sourceX + (px - placement.contentX) * scaleX).rounded(.down))
                    y = Int((placement.sourceY + (py - placement.contentY) * scaleY).rounded(.down))
                }
                p = (premultiplied(x, y, 0), premultiplied(x, y, 1), premultiplied(x, y, 2), premultiplied(x, y, 3))
            }
            // The oracle premultiplies what it is given: hand it straight values.
            guard p.3 > 0 else { return LinearRGBA(red: 0, green: 0, blue: 0, alpha: 0) }
            return LinearRGBA(red: p.0 / p.3, green: p.1 / p.3, blue: p.2 / p.3, alpha: p.3)
        }
        guard lightSpace == .srgb else { return image }
        // The averages are of encoded values: decode them to light, which the oracle image holds.
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = min(max(pixels[i + 3], 0), 1)
            for k in 0..<3 {
                pixels[i + k] = a > 0 ? SRGBTransfer.toLinear(min(max(pixels[i + k] / a, 0), 1)) * a : 0
            }
        }
        return OracleImage(width: image.width, height: image.height, pixels: pixels)
    }
}
