import ImageCorpus
import ImageCore
import ImageResize

// The mutants that average samples wrongly. They need the built-in resizer's own geometry
// and options (`OutputGeometry`, `ResizeOptions`), hence this file's ImageResize import; the
// gamma mutant replaces the base adapter by `BuiltinResizer(options:)` (the option exists only
// there), so it is meaningful on the built-in resizer, which is what `imglab selftest` and the
// canaries build mutants on.

extension Mutant {
    /// Averaging in gamma-encoded sRGB where linear light is declared.
    static let srgbAveraging = Mutant(
        id: "srgb-averaging", topic: "gamma",
        title: "averaged in gamma-encoded sRGB instead of linear light (fine detail darkens)",
        history: "Averaging the stored sRGB codes instead of light (B11: Pillow#1604, darktable#13335, cantaloupe#441; Eric Brasseur's \"gamma error in picture scaling\"): a 1-pixel black/white checker shrinks to 128 instead of the 188 of its linear mean, thin bright lines fade, dark detail grows. imglab declares linear light; this mutant is the built-in resizer with ResizeOptions.lightSpace = .sRGB.",
        references: ["B11"], bugClass: "light-space",
        triggers: { pair in pair.resamples && ["checkerAndGray", "thinStrokes", "zonePlate", "stepEdges", "orientation", "colorPatches", "stencil"].contains(pair.record.scene) },
        make: { _ in
            MutantResizer(name: "srgb-averaging(builtin)", base: BuiltinResizer(options: ResizeOptions(lightSpace: .sRGB))) { base, operation, source throws(ResizerError) in
                try base.apply(operation, to: source)
            }
        })

    /// Nearest-neighbour sampling where high quality was asked (D10): every shrink picks one
    /// source pixel per output pixel (the one under the output pixel's centre) instead of
    /// filtering. (The built-in `Kernel.nearest` widens to a box when shrinking, which is the
    /// right antialiasing, so the mutant point-samples the source itself, then lets the base
    /// resizer crop and place the result at 1 : 1.)
    static let nearestNeighbour = Mutant(
        id: "nearest-neighbour", topic: "jaggies",
        title: "nearest-neighbour sampling where high quality was asked (jaggies, moiré)",
        history: "D10: the resize articles' \"no antialiasing when shrinking\" — CGContextSetInterpolationQuality left at none, so a shrink picks one source pixel per output pixel: edges stair-step, thin lines vanish or break, zone plates and fabrics show moiré (B8: thumbor#859).",
        references: ["D10", "B8"], bugClass: "aliasing",
        triggers: { pair in pair.resamples && !pair.enlarges && pair.record.scene != "constant" },
        make: { base in
            MutantResizer(name: "nearest-neighbour(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let upright = source.oriented()
                let (w, h) = (upright.width, upright.height)
                let target: (width: Int, height: Int)
                switch operation {
                case .resize(let bw, let bh, .scaleToFill): target = (bw, bh)
                case .resize(let bw, let bh, .aspectFit): target = OutputGeometry.aspectFit(width: w, height: h, boxWidth: bw, boxHeight: bh)
                case .resize(let bw, let bh, _): target = OutputGeometry.aspectCover(width: w, height: h, boxWidth: bw, boxHeight: bh)
                case .squareThumbnail(let s, _, _): target = OutputGeometry.aspectCover(width: w, height: h, boxWidth: s, boxHeight: s)
                case .maxPixelSize(let n): target = OutputGeometry.maxPixelSize(width: w, height: h, limit: n)
                default: return try base.apply(operation, to: source)
                }
                guard target.width <= w, target.height <= h, !(target.width == w && target.height == h) else { return try base.apply(operation, to: source) }
                // Sampled as RGBA: a source whose colours a CMYK or gray statement gives is shown in sRGB first.
                let shown = upright.format.colorModel == .rgb ? upright : try ProfileConversion.rendered(upright)
                let sampled = try shown.mappingBitmaps { bitmap throws(ResizerError) in
                    try PointSampling.sampled(bitmap, width: target.width, height: target.height)
                }
                return try base.apply(operation, to: sampled)
            }
        })
}

/// The decimation of ``Mutant/nearestNeighbour``.
enum PointSampling {
    /// `bitmap` shrunk to `width × height` by taking, for each output pixel, the source pixel
    /// under its centre: source column `⌊(i + ½) · W / width⌋` (same for rows). Straight RGBA 16.
    static func sampled(_ bitmap: Bitmap, width: Int, height: Int) throws(ResizerError) -> Bitmap {
        let wide = try FrameRewrite.rgba16(bitmap)
        let src = FrameRewrite.samples(ofRGBA16: wide)
        var out = [UInt16](repeating: 0, count: width * height * 4)
        for j in 0..<height {
            let sy = min((2 * j + 1) * bitmap.height / (2 * height), bitmap.height - 1)
            for i in 0..<width {
                let sx = min((2 * i + 1) * bitmap.width / (2 * width), bitmap.width - 1)
                for c in 0..<4 { out[(j * width + i) * 4 + c] = src[(sy * bitmap.width + sx) * 4 + c] }
            }
        }
        return try FrameRewrite.rgba16(width: width, height: height, samples: out)
    }
}
