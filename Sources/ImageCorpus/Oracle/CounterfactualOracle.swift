import ImageCore
import ImageCodecs
import ImageMetrics

/// Counterfactual predictions for the diagnosis (``ImageMetrics/Counterfactual``): the ideal
/// output of a pair re-computed under a bug hypothesis, from what the lab knows and the two
/// images do not: the source pixels and the operation.
///
/// Each hypothesis is an independent model of the bug, never the mutant's code: the operation's
/// placement (``OracleGeometry``) rendered from the decoded upright source frame by
/// ``DeclaredOracle``'s box-filter renderer (``Oracle``'s supersampling, corner and border
/// coverage included), once *with* the bug (B) and once without (C, linear light, area
/// average). The prediction is the ideal image moved by the bug's effect:
/// `P = E + (B − C)` in premultiplied linear light (clamped to 0…1, colour ≤ α), so the
/// model's own error (a box filter instead of the resizer's kernel, the pixelated source
/// instead of the continuous scene) cancels and only the bug's change is added to the ideal.
///
/// The hypotheses:
/// - `counterfactual.srgb-averaging` (light-space, B11): B averages the stored, gamma-encoded
///   values (the definition of the bug: averaging in sRGB where linear light is declared);
///   only when the operation shrinks (reduction > 1).
/// - `counterfactual.point-sampling` (aliasing, D10): B takes, for each output pixel, the one
///   source pixel under its centre mapped through the placement (the definition of
///   nearest-neighbour sampling without a filter); only when the operation shrinks.
/// - `counterfactual.palette-transparency-ignored` (alpha-dropped, D3): B is the correct
///   average of the source whose palette entries are all made opaque (the definition of
///   ignoring PNG tRNS / the GIF transparent index: the entries' colours shown with α = 1);
///   only for an indexed source whose palette has transparent entries.
/// - `counterfactual.alpha-dropped` (alpha-dropped, D2/D7): B is the correct average of the
///   source, read as straight RGBA, whose alpha channel is declared padding (the definition of
///   dropping alpha: every pixel shown opaque with the colour stored in it, so the colour hidden
///   under α = 0 appears); only for a source with an alpha channel, not indexed, and a pixel
///   that is not opaque.
/// - `counterfactual.straight-as-premultiplied` (premultiplication, D2/D6): B is the correct
///   average of the source whose straight alpha (first or last) is declared premultiplied, the
///   bytes unchanged (the definition of the bug: straight colour taken as already multiplied
///   by alpha, so it is divided by alpha on the way in); only for a source with straight alpha
///   and a translucent pixel.
///
/// Each hypothesis is offered in three forms, all of its class:
/// - `ID`: `E + (B − C)`, the ideal moved by the model's change (no control: the ideal explains
///   nothing);
/// - `ID.source`: `B` itself, the model's output with the bug, whose control is `C` (what the
///   box model and the pixelated source differ from the ideal by is not evidence of the bug);
/// - `ID.reference`: `R + (B − C)`, the reference resizer's correct output `R` (the built-in
///   resizer on the same input: a resizer's own filter differs from the ideal more than a bug
///   on small images, and no transform of the ideal predicts that) moved by the model's change,
///   whose control is `R`; only when the caller gives `R`. `R` is never a mutant's output.
/// The controls make a form count only by what the bug adds (see ``ImageMetrics/Counterfactual``).
///
/// A source that states its colours other than sRGB's by an RGB or gray profile is modelled on
/// its stored values, each model shown through the statement (a resizer that keeps it); a CMYK
/// one is rendered in sRGB first. A source that cannot be read as RGBA or an operation without a placement gives no
/// counterfactual (the diagnosis then works from the images alone).
public enum CounterfactualOracle {
    /// The counterfactuals of frame `frame` of `source` (as decoded, any orientation) under
    /// `operation`, for the expected image `expected` (the oracle frame); `[]` when none applies.
    public static func counterfactuals(source: Image, frame: Int, operation: LabOperation, expected: Image,
                                reference: Image? = nil) -> [Counterfactual] {
        // A resizer works on the stored values, and its output shows them through the statement it
        // keeps: the models of an RGB or gray tagged source are shown through its statement; a
        // CMYK source's inks are shown in sRGB first.
        let statement = ProfileShown(source)
        let upright = (statement == nil ? (try? KernelOracle.sRGBColours(of: source)) ?? source : source).oriented()
        let bitmap = upright.animation.flatMap { frame < $0.frames.count ? $0.frames[frame].canvas : nil } ?? upright.bitmap
        guard let placement = try? OracleGeometry.placement(of: operation, width: bitmap.width, height: bitmap.height),
              placement.width == expected.displaySize.width, placement.height == expected.displaySize.height else { return [] }
        // 4 points per axis per source pixel under an output pixel (the oracle takes 16): the
        // models are compared with each other (B − C) or with a control rendered alike.
        let samples = 4 * max(1, Int(placement.reduction.rounded(.up)))
        guard let stored = try? DeclaredOracle.renderImage(source: bitmap, placement: placement, lightSpace: .linear, samples: samples),
              let ideal = statement.map({ $0.shown(stored) }) ?? stored else { return [] }
        var hypotheses: [(id: String, bugClass: String, name: String, references: [String], model: OracleImage)] = []
        if placement.reduction > 1 {
            if let b = try? DeclaredOracle.renderImage(source: bitmap, placement: placement, lightSpace: .srgb, samples: samples) {
                hypotheses.append(("counterfactual.srgb-averaging", "light-space",
                                   "averaged in gamma-encoded sRGB instead of linear light (the source re-averaged in sRGB predicts it)",
                                   ["B11"], b))
            }
            if let b = try? DeclaredOracle.renderImage(source: bitmap, placement: placement, lightSpace: .linear, sampling: .point, samples: samples) {
                hypotheses.append(("counterfactual.point-sampling", "aliasing",
                                   "nearest-neighbour sampling where a filter was expected: one source pixel per output pixel (the source point-sampled predicts it)",
                                   ["D10"], b))
            }
        }
        if let opaque = opaquePalette(bitmap),
           let b = try? DeclaredOracle.renderImage(source: opaque, placement: placement, lightSpace: .linear, samples: samples) {
            hypotheses.append(("counterfactual.palette-transparency-ignored", "alpha-dropped",
                               "palette transparency ignored (PNG tRNS / GIF transparent index): transparent entries shown opaque (the source with an opaque palette predicts it)",
                               ["D3", "D7"], b))
        }
        if let dropped = alphaDropped(bitmap),
           let b = try? DeclaredOracle.renderImage(source: dropped, placement: placement, lightSpace: .linear, samples: samples) {
            hypotheses.append(("counterfactual.alpha-dropped", "alpha-dropped",
                               "alpha dropped: the colour stored under transparent pixels is revealed (the source with its alpha channel ignored predicts it)",
                               ["D2", "D7"], b))
        }
        if let relabelled = straightReadAsPremultiplied(bitmap),
           let b = try? DeclaredOracle.renderImage(source: relabelled, placement: placement, lightSpace: .linear, samples: samples) {
            hypotheses.append(("counterfactual.straight-as-premultiplied", "premultiplication",
                               "straight alpha resampled as if premultiplied (the source's straight colour read as premultiplied predicts it)",
                               ["D2", "D6"], b))
        }
        if let statement {
            hypotheses = hypotheses.compactMap { h in statement.shown(h.model).map { (h.id, h.bugClass, h.name, h.references, $0) } }
        }
        guard !hypotheses.isEmpty, let e = try? expected.oriented().bitmap.converted(to: .rgba16) else { return [] }
        // The reference resizer's correct output of this frame, when given and of the same size.
        let r = reference.flatMap { image -> Bitmap? in
            let upright = image.oriented()
            let b = upright.animation.flatMap { frame < $0.frames.count ? $0.frames[frame].canvas : nil } ?? upright.bitmap
            guard b.width == e.width, b.height == e.height else { return nil }
            return try? b.converted(to: .rgba16)
        }
        let control = Image(bitmap: ideal.bitmap16())
        return hypotheses.flatMap { h -> [Counterfactual] in
            var list = [
                Counterfactual(id: h.id, bugClass: h.bugClass, name: h.name, references: h.references,
                               predicted: Image(bitmap: shifted(e, by: h.model, from: ideal))),
                Counterfactual(id: h.id + ".source", bugClass: h.bugClass, name: h.name, references: h.references,
                               predicted: Image(bitmap: h.model.bitmap16()), control: control),
            ]
            if let r {
                list.append(Counterfactual(id: h.id + ".reference", bugClass: h.bugClass, name: h.name, references: h.references,
                                           predicted: Image(bitmap: shifted(r, by: h.model, from: ideal)), control: Image(bitmap: r)))
            }
            return list
        }
    }

    /// `bitmap` with every palette entry made opaque, or `nil` when it is not indexed with a
    /// transparent entry.
    static func opaquePalette(_ bitmap: Bitmap) -> Bitmap? {
        guard case .indexed(let palette) = bitmap.format.colorModel, palette.hasAlpha else { return nil }
        let opaque = Palette(palette.entries.map { Palette.Entry(red: $0.red, green: $0.green, blue: $0.blue) })
        let format = PixelFormat(colorModel: .indexed(opaque), bitsPerComponent: bitmap.format.bitsPerComponent)
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, format: format, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes)
    }

    /// `bitmap` as 16-bit straight RGBA with its alpha channel declared padding
    /// (`kCGImageAlphaNoneSkipLast`), or `nil` when it is indexed (``opaquePalette(_:)``), has no
    /// alpha channel, or every pixel is opaque.
    static func alphaDropped(_ bitmap: Bitmap) -> Bitmap? {
        guard bitmap.format.alphaInfo.hasAlpha, !bitmap.format.isIndexed,
              let rgba = try? bitmap.converted(to: .rgba16), ValueImage(rgba, withAlpha: true).hasTranslucency else { return nil }
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .noneSkipLast, byteOrder: rgba.format.byteOrder)
        return Bitmap(uncheckedWidth: rgba.width, height: rgba.height, format: format, bytesPerRow: rgba.bytesPerRow, bytes: rgba.bytes)
    }

    /// `bitmap` with its straight alpha (first or last) declared premultiplied, the bytes
    /// unchanged, or `nil` when its alpha is not straight or no pixel is translucent (with
    /// `orTransparent`, or transparent: colour stored under α = 0 is then read as light).
    static func straightReadAsPremultiplied(_ bitmap: Bitmap, orTransparent: Bool = false) -> Bitmap? {
        let f = bitmap.format
        let alpha: AlphaInfo
        switch f.alphaInfo {
        case .last: alpha = .premultipliedLast
        case .first: alpha = .premultipliedFirst
        default: return nil
        }
        guard let rgba = try? bitmap.converted(to: .rgba16),
              ValueImage(rgba, withAlpha: true).hasTranslucency || (orTransparent && KernelCounterfactuals.hasTransparency(rgba)) else { return nil }
        let format = PixelFormat(colorModel: f.colorModel, bitsPerComponent: f.bitsPerComponent, alphaInfo: alpha,
                                 byteOrder: f.byteOrder, isFloat: f.isFloat)
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, format: format, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes)
    }

    /// `expected` (16-bit straight sRGB RGBA) plus `model − base` in premultiplied linear light,
    /// clamped, as 16-bit straight sRGB RGBA. The three have the same size.
    static func shifted(_ expected: Bitmap, by model: OracleImage, from base: OracleImage) -> Bitmap {
        let w = expected.width, h = expected.height
        var bytes = [UInt8](repeating: 0, count: w * h * 8)
        for y in 0..<h {
            for x in 0..<w {
                let o = y * expected.bytesPerRow + x * 8
                func sample(_ k: Int) -> Double {
                    Double(UInt16(expected.bytes[o + 2 * k]) << 8 | UInt16(expected.bytes[o + 2 * k + 1])) / 65535
                }
                let i = (y * w + x) * 4
                let ea = sample(3)
                let a = min(max(ea + model.pixels[i + 3] - base.pixels[i + 3], 0), 1)
                var out = [0.0, 0.0, 0.0, a]
                for k in 0..<3 {
                    let premultiplied = SRGBTransfer.toLinear(sample(k)) * ea + model.pixels[i + k] - base.pixels[i + k]
                    out[k] = a > 0 ? SRGBTransfer.fromLinear(min(max(premultiplied / a, 0), 1)) : 0
                }
                let d = (y * w + x) * 8
                for k in 0..<4 {
                    let q = UInt16((out[k] * 65535 + 0.5).rounded(.down))
                    bytes[d + 2 * k] = UInt8(q >> 8)
                    bytes[d + 2 * k + 1] = UInt8(q & 0xFF)
                }
            }
        }
        return Bitmap(uncheckedWidth: w, height: h, format: .rgba16, bytesPerRow: w * 8, bytes: bytes)
    }
}
