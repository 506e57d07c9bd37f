import ImageCorpus
import ImageCore

// The subtle mutants that change how the resampler filters: each is the built-in's resampling
// written again (``ResamplingDeparture``) with one departure; copies stay the base's.

extension Mutant {
    /// The resampling of `departure` for the operations that resample, the base's for the others.
    static func departing(_ id: String, _ departure: ResamplingDeparture) -> @Sendable (any Resizer) -> any Resizer {
        { base in
            MutantResizer(name: "\(id)(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                if let departed = try departure.apply(operation, to: source) { return departed }
                return try base.apply(operation, to: source)
            }
        }
    }

    /// Lanczos 3 with a fixed support of 3 source pixels, not widened by the scale when shrinking.
    static let fixedSupport = Mutant(
        id: "fixed-support", topic: "jaggies",
        title: "kernel support not widened when shrinking (a fixed-support Lanczos 3 aliases)",
        history: "A resampler that uses its kernel as an interpolator samples 6 source pixels around each output centre whatever the scale, so a shrink by 2 or more skips detail and aliases: OpenCV's cv::resize with INTER_CUBIC / INTER_LANCZOS4 (its documentation recommends INTER_AREA for decimation; thumbor#189 switched for that reason), NVIDIA DALI's INTERP_LANCZOS3 (DALI#2034: \"We use Lanczos filter as an interpolation filter, not a low-pass filter\"), Pillow before 2.7.0 (BILINEAR and BICUBIC on a fixed 2×2 / 4×4 neighbourhood, quoted in DALI#2150), torch/image#222. Here: the built-in's Lanczos 3 with its support kept at 3 source pixels on each axis.",
        references: ["D10", "B12", "B8"], bugClass: "aliasing", subtle: true,
        triggers: { pair in pair.resamples && !pair.enlarges && pair.record.scene != "constant" },
        make: departing("fixed-support", ResamplingDeparture(widensKernel: false)))

    /// Linear light approximated by a pure power 2.2 instead of the sRGB curve.
    static let powerGamma = Mutant(
        id: "power-gamma", topic: "gamma",
        title: "pure power 2.2 taken for the sRGB curve when averaging in linear light (edges off by a few codes, most in the dark)",
        history: "The common shortcut for linear-light resizing: decode with v^2.2 and encode with v^(1/2.2) instead of the piecewise sRGB curve of IEC 61966-2-1. sharp's gamma() is documented as this (\"darkens by 1/γ before resize and re-brightens after\", default 2.2), ComfyUI-KJNodes#744 proposes torch.pow(x, 2.2) around the resize, RLHD#23 replaced gamma 2.2 by the sRGB EOTF because dark colours came out wrong. Flat areas survive the round trip; mixed pixels at edges differ by 1 to 3 codes, the most where the curves differ, near black.",
        references: ["B11"], bugClass: "light-space", subtle: true,
        triggers: { pair in pair.resamples && pair.record.scene != "constant" },
        make: departing("power-gamma", ResamplingDeparture(transfer: .power(2.2))))

    /// Pixel centres at `i · scale` across (x) only; rows are right.
    static let halfPixelOneAxis = Mutant(
        id: "half-pixel-x", topic: "half-pixel",
        title: "half-pixel offset on one axis only (centres at i · scale across, (i + ½) · scale down)",
        history: "Centre conventions are fixed one pass at a time: the libvips analysis of the half-pixel shift (libvips#703) found the fix for reduceh (horizontal) first, while reducev kept the corner convention until libvips#1592; vapoursynth#385 (\"What if the user needs to shift only one direction, but not both?\") shows the two axes handled apart. A resizer with one pass fixed and one not shifts the image half a source pixel left, and only horizontally (B19).",
        references: ["B19"], bugClass: "pixel-shift", subtle: true,
        triggers: { pair in pair.resamples && pair.record.scene != "constant" },
        make: departing("half-pixel-x", ResamplingDeparture(cornerCentres: (true, false))))

    /// Taps beyond an edge read from the opposite edge.
    static let wrapEdges = Mutant(
        id: "wrap-edges", topic: "edges",
        title: "wrap-around edges instead of renormalised ones (each border takes colour from the other side)",
        history: "A texture sampler's repeat mode left on for a resize or blur: the kernel's taps beyond the right edge read the left edge, so every border pixel mixes in the opposite side. Unity's render textures default to Repeat (Unified-Universal-Blur#4: \"Blur should not repeat from corners, so we should set wrapping mode to Clamp\"), VTF-Forge#12 (\"Image repeats slightly on its borders\": linear filtering with wrap), and OpenImageIO's resample used a different wrap mode from resize (OpenImageIO#2481). Here: the built-in's Lanczos 3 on the image tiled.",
        references: ["B20"], bugClass: "edge-handling", subtle: true,
        triggers: { pair in pair.resamples && pair.record.scene != "constant" },
        make: departing("wrap-edges", ResamplingDeparture(wrapsEdges: true)))
}
