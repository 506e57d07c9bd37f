import ImageCore
import ImageMetrics

/// Exact predictions of a resizer's output under bug hypotheses, for a pair judged against the
/// ``KernelOracle``: the declared design rendered again with one departure that a real bug makes.
/// Against the kernel-exact oracle a correct resizer differs only by rounding, so each prediction
/// is what the buggy resizer outputs (up to rounding) and needs no control
/// (``ImageMetrics/Counterfactual``).
///
/// The hypotheses (each the definition of the bug, never a mutant's code):
/// - `kernel.light-space` (light-space, B11): averaged in the other light space (sRGB codes where
///   linear light is declared, or the reverse); when the operation resamples.
/// - `kernel.point-sampling` (aliasing, D10): the source pixel under each output pixel's centre;
///   when it shrinks.
/// - `kernel.fixed-support` (aliasing, B12/D10): the kernel not widened by the scale when
///   shrinking; when it shrinks by more than 1.5.
/// - `kernel.straight-resampling` (premultiplication, B4): straight colour averaged, not weighted
///   by α (halos at alpha edges, hidden colour bleeding in); for a source with α < 1 somewhere.
/// - `kernel.straight-as-premultiplied` (premultiplication, D2/D6): the source's straight
///   colour read as already premultiplied.
/// - `kernel.alpha-dropped` (alpha-dropped, D2/D7): the source's alpha channel ignored, the
///   colour stored under it shown opaque.
/// - `kernel.palette-transparency-ignored` (alpha-dropped, D3): the palette's transparent
///   entries shown opaque.
/// - `kernel.half-pixel` (pixel-shift, B19): pixel centres at `i · scale` instead of
///   `(i + ½) · scale` (both axes); when it resamples.
/// - `kernel.wrap-edges` is not offered: no edge rule other than the declared one is told apart
///   reliably on small images.
public enum KernelCounterfactuals {
    /// The predictions for frame `frame` of `source` under `placement`, for a resizer of `design`.
    /// Hypotheses that do not apply, or that predict the correct output itself, are left out.
    public static func counterfactuals(source: Image, frame: Int, placement: OraclePlacement,
                                       design: KernelOracle.Design) -> [Counterfactual] {
        guard let correct = try? KernelOracle.render(source: source, frame: frame, placement: placement, design: design) else { return [] }
        let resamples = placement.source.width != placement.content.width || placement.source.height != placement.content.height
            || placement.source.x != placement.source.x.rounded() || placement.source.y != placement.source.y.rounded()
        let shrinks = placement.reduction > 1
        var hypotheses: [(id: String, bugClass: String, name: String, references: [String], source: Image, design: KernelOracle.Design)] = []
        func add(_ id: String, _ bugClass: String, _ name: String, _ references: [String], source s: Image = source,
                 _ change: (inout KernelOracle.Design) -> Void) {
            var d = design
            change(&d)
            hypotheses.append((id, bugClass, name, references, s, d))
        }
        if resamples {
            add("kernel.light-space", "light-space",
                design.lightSpace == .linear ? "averaged in gamma-encoded sRGB instead of linear light (the declared design re-averaged in sRGB predicts it)"
                    : "averaged in linear light where sRGB averaging is declared", ["B11"]) {
                $0.lightSpace = design.lightSpace == .linear ? .srgb : .linear
            }
            add("kernel.half-pixel", "pixel-shift", "pixel centres at i·scale instead of (i + ½)·scale: the image shifts by half a source pixel", ["B19"]) {
                let sx = placement.source.width / placement.content.width, sy = placement.source.height / placement.content.height
                $0.centreOffset = (-0.5 * sx, -0.5 * sy)
            }
        }
        if shrinks {
            add("kernel.point-sampling", "aliasing", "nearest-neighbour sampling where a filter was expected: one source pixel per output pixel", ["D10"]) {
                $0.kernel = .nearest
            }
            if placement.reduction > 1.5 && design.kernel != .nearest {
                add("kernel.fixed-support", "aliasing", "the kernel not widened when shrinking: a fixed support aliases", ["D10", "B12"]) {
                    $0.widensWhenShrinking = false
                }
            }
        }
        let bitmap = source.animation.flatMap { frame < $0.frames.count ? $0.frames[frame].canvas : nil } ?? source.bitmap
        if let rgba = try? bitmap.converted(to: .rgba16), ValueImage(rgba, withAlpha: true).hasTranslucency || hasTransparency(rgba) {
            add("kernel.straight-resampling", "premultiplication",
                "straight colour resampled without premultiplying by alpha: halos at alpha edges, colour hidden under α = 0 bleeds in", ["B4", "D2"]) {
                $0.premultiplied = false
            }
        }
        if let relabelled = CounterfactualOracle.straightReadAsPremultiplied(bitmap, orTransparent: true) {
            add("kernel.straight-as-premultiplied", "premultiplication",
                "straight alpha resampled as if premultiplied (the source's straight colour read as premultiplied predicts it)", ["D2", "D6"],
                source: replacing(source, frame: frame, with: relabelled)) { _ in }
        }
        if let opaque = CounterfactualOracle.alphaDropped(bitmap) {
            add("kernel.alpha-dropped", "alpha-dropped",
                "alpha channel ignored: every pixel shown opaque with the colour stored under it (colour hidden under α = 0 appears)", ["D2", "D7"],
                source: replacing(source, frame: frame, with: opaque)) { _ in }
        }
        if let opaque = CounterfactualOracle.opaquePalette(bitmap) {
            add("kernel.palette-transparency-ignored", "alpha-dropped",
                "palette transparency ignored (PNG tRNS / GIF transparent index): transparent entries shown opaque", ["D3", "D7"],
                source: replacing(source, frame: frame, with: opaque)) { _ in }
        }
        let correctBitmap = correct.bitmap16()
        return hypotheses.compactMap { h in
            guard let model = try? KernelOracle.render(source: h.source, frame: frame, placement: placement, design: h.design) else { return nil }
            let predicted = model.bitmap16()
            guard predicted.bytes != correctBitmap.bytes else { return nil }
            return Counterfactual(id: h.id, bugClass: h.bugClass, name: h.name, references: h.references, predicted: Image(bitmap: predicted))
        }
    }

    /// Whether some pixel is fully transparent (where straight resampling lets hidden colour in).
    static func hasTransparency(_ rgba16: Bitmap) -> Bool {
        stride(from: 6, to: rgba16.bytes.count, by: 8).contains { rgba16.bytes[$0] == 0 && rgba16.bytes[$0 + 1] == 0 }
    }

    /// `source` with frame `frame`'s pixels (or the still image's) replaced by `bitmap`.
    static func replacing(_ source: Image, frame: Int, with bitmap: Bitmap) -> Image {
        var image = source
        if var animation = image.animation, frame < animation.frames.count {
            animation.frames[frame].canvas = bitmap
            image.animation = animation
        } else {
            image.bitmap = bitmap
        }
        return image
    }
}
