import ImageCorpus
import ImageCore

extension Mutant {
    /// Straight alpha handed to code that expects premultiplied values: the source's straight
    /// RGBA is described as premultiplied before resampling, so colour is never weighted by
    /// alpha (colour under α = 0 bleeds in) and reads back divided by alpha (soft edges too bright).
    static let straightAsPremultiplied = Mutant(
        id: "straight-as-premultiplied", topic: "premultiply",
        title: "straight alpha resampled as if premultiplied (bright fringes, hidden colour bleeds in)",
        history: "PNG stores straight alpha (kCGImageAlphaLast); resamplers work on premultiplied values. Skipping the multiply gives the halos of sharp#605, libvips#599 and nfnt/resize#42 (B4): colour hidden under transparent pixels bleeds into the edge and translucent pixels come out too bright. D2 is the Quartz side: straight alpha is not a context format, so code that forces a premultiplied context without converting relabels the bytes.",
        references: ["D2", "D6", "B4"], bugClass: "premultiplication",
        triggers: { pair in
            guard let f = pair.sourceFormat else { return false }
            // The halo scene's translucent colours are 0 or full in every channel, which reading
            // them as premultiplied leaves unchanged (c / α clamps back to c): nothing to show.
            return (f.alphaInfo == .last || f.alphaInfo == .first) && pair.sourceHasTransparency && pair.record.scene != "halo"
        },
        make: { base in
            MutantResizer(name: "straight-as-premultiplied(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.format.alphaInfo == .last || source.format.alphaInfo == .first else {
                    return try base.apply(operation, to: source)
                }
                let relabelled = try source.mappingBitmaps { bitmap throws(ResizerError) in
                    let straight = bitmap.format.alphaInfo == .last || bitmap.format.alphaInfo == .first
                    return straight ? try FrameRewrite.relabel(bitmap, as: bitmap.format.withAlpha(Premultiplication.premultiplied(bitmap.format.alphaInfo))) : bitmap
                }
                return try base.apply(operation, to: relabelled)
            }
        })

    /// Premultiplied output labelled straight: the resizer's premultiplied result is handed on
    /// as straight alpha, so every translucent pixel's colour is multiplied by alpha twice.
    static let premultipliedAsStraight = Mutant(
        id: "premultiplied-as-straight", topic: "premultiply",
        title: "premultiplied output labelled straight (translucent pixels too dark)",
        history: "The double-premultiply reports (B5: fugleramme#121, pic-scale-safe#4, mapnik#1519): a premultiplied buffer (the only kind a CGBitmapContext draws into) saved or passed on as straight alpha. Soft edges and shadows darken, 50 % white becomes 50 % gray; opaque and fully transparent pixels are unchanged, so a test on opaque images never sees it.",
        references: ["D6", "D7", "B5"], bugClass: "premultiplication",
        triggers: { pair in pair.sourceHasTransparency || pair.roundsCorners },
        make: { base in
            MutantResizer(name: "premultiplied-as-straight(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                try base.apply(operation, to: source).mappingBitmaps { bitmap throws(ResizerError) in
                    guard bitmap.format.hasAlpha else { return bitmap }
                    let premultiplied = try FrameRewrite.convert(bitmap, to: .rgba8Premultiplied.withBits(bitmap.format.bitsPerComponent > 8 ? 16 : 8))
                    return try FrameRewrite.relabel(premultiplied, as: premultiplied.format.withAlpha(.last))
                }
            }
        })
}

/// Alpha-info arithmetic of the premultiplication mutants.
enum Premultiplication {
    /// The premultiplied variant of a straight alpha placement (others unchanged).
    static func premultiplied(_ a: AlphaInfo) -> AlphaInfo {
        switch a {
        case .last: return .premultipliedLast
        case .first: return .premultipliedFirst
        default: return a
        }
    }
}

extension PixelFormat {
    /// The same layout with `bits` per component (8 or 16).
    func withBits(_ bits: Int) -> PixelFormat {
        PixelFormat(colorModel: colorModel, bitsPerComponent: bits, alphaInfo: alphaInfo, byteOrder: .default, isFloat: false)
    }

    /// The same layout with another alpha placement.
    func withAlpha(_ alpha: AlphaInfo) -> PixelFormat {
        PixelFormat(colorModel: colorModel, bitsPerComponent: bitsPerComponent, alphaInfo: alpha, byteOrder: byteOrder, isFloat: isFloat)
    }
}

extension Mutant {
    /// Straight colour resampled without premultiplying, in the resampling step only.
    static let straightResampling = Mutant(
        id: "straight-resampling", topic: "premultiply",
        title: "resampling without premultiplying (halo: colour hidden under transparent pixels bleeds into the edges)",
        history: "The halo bug (B4): the resampler averages the straight colour of every pixel in its window with the kernel's weights alone, so a transparent neighbour, whose colour should not count, pulls the edge toward whatever colour it stores (black, white, the encoder's leftovers): sharp#605 and libvips#599 (dark fringes around transparent PNG logos until libvips premultiplied before shrinking), nfnt/resize#42 (the Go resizer's halos). Only the resample step is wrong: orient, crop and transparent borders copy pixels and stay exact. Here: the colour of the source made opaque, resized by the built-in, with the alpha of the real resize.",
        references: ["B4", "D2"], bugClass: "premultiplication", subtle: true,
        triggers: { pair in pair.resamples && pair.sourceHasTransparency },
        make: { base in
            MutantResizer(name: "straight-resampling(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                switch operation {
                case .resize, .squareThumbnail, .maxPixelSize: break
                default: return try base.apply(operation, to: source)
                }
                guard source.format.hasAlpha else { return try base.apply(operation, to: source) }
                let opaque = try source.mappingBitmaps { bitmap throws(ResizerError) in try StraightResampling.opaque(bitmap) }
                let colour = try base.apply(operation, to: opaque), alpha = try base.apply(operation, to: source)
                return try StraightResampling.combining(colour: colour, alpha: alpha)
            }
        })

    /// Every pixel held premultiplied in 8 bits (a Quartz context, Pillow's RGBa) on the way in and out.
    static let premultipliedEightBit = Mutant(
        id: "premultiplied-8bit", topic: "premultiply",
        title: "an 8-bit premultiplied intermediate (dark translucent colours lose precision)",
        history: "Drawing into an 8-bit premultiplied context (kCGImageAlphaPremultipliedLast, the only alpha a CGBitmapContext takes, which UIImage-Categories 4ab62b2 switched to) or converting RGBA to Pillow's RGBa before resampling stores c · α in 8 bits; dividing by a small α on the way out magnifies the rounding, so a dark colour at α = 0.1 comes back up to 5 codes off and smooth translucent gradients band (B5: mapnik#1519 \"mitigating rounding errors from premultiply/demultiply round trip\", Pillow's own test_levels_rgba marked xfail \"Current implementation isn't precise enough\", mtasa-blue#4896). Here: the source converted to 8-bit premultiplied RGBA, the built-in's output (premultiplied 8-bit, as its input) converted back to straight RGBA.",
        references: ["B5", "D2"], bugClass: "premultiplied-precision", subtle: true,
        triggers: { pair in
            guard let f = pair.sourceFormat else { return false }
            return pair.sourceHasTransparency && !f.isPremultiplied && f.bitsPerComponent <= 8 && !f.isFloat
        },
        make: { base in
            MutantResizer(name: "premultiplied-8bit(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.format.hasAlpha else { return try base.apply(operation, to: source) }
                let premultiplied = try source.mappingBitmaps { bitmap throws(ResizerError) in try FrameRewrite.convert(bitmap, to: .rgba8Premultiplied) }
                return try base.apply(operation, to: premultiplied).mappingBitmaps { bitmap throws(ResizerError) in
                    try FrameRewrite.convert(bitmap, to: .rgba8)
                }
            }
        })
}

/// The arithmetic of ``Mutant/straightResampling``: straight colour resized as if opaque, alpha
/// resized as it is, put together.
enum StraightResampling {
    /// `bitmap` as straight RGBA 16 with every pixel made opaque: the colour stored under
    /// transparent and translucent pixels shown at full strength.
    static func opaque(_ bitmap: Bitmap) throws(ResizerError) -> Bitmap {
        var samples = FrameRewrite.samples(ofRGBA16: try FrameRewrite.rgba16(bitmap))
        for i in stride(from: 3, to: samples.count, by: 4) { samples[i] = 65535 }
        return try FrameRewrite.rgba16(width: bitmap.width, height: bitmap.height, samples: samples)
    }

    /// Straight RGBA (16-bit when the alpha pass has more than 8 bits, else 8-bit) with the colour
    /// of `colour` and the alpha of `alpha`, frame by frame.
    static func combining(colour: Image, alpha: Image) throws(ResizerError) -> Image {
        func one(_ c: Bitmap, _ a: Bitmap) throws(ResizerError) -> Bitmap {
            let wide = a.format.bitsPerComponent > 8
            var samples = FrameRewrite.samples(ofRGBA16: try FrameRewrite.rgba16(c))
            let alphas = FrameRewrite.samples(ofRGBA16: try FrameRewrite.rgba16(a))
            guard samples.count == alphas.count else { throw .failed("straight-resampling: colour and alpha passes differ in size") }
            for i in stride(from: 3, to: samples.count, by: 4) { samples[i] = alphas[i] }
            let combined = try FrameRewrite.rgba16(width: c.width, height: c.height, samples: samples)
            return wide ? combined : try FrameRewrite.convert(combined, to: .rgba8)
        }
        var out = alpha
        out.bitmap = try one(colour.bitmap, alpha.bitmap)
        if var animation = out.animation, let colours = colour.animation, colours.frames.count == animation.frames.count {
            for k in animation.frames.indices { animation.frames[k].canvas = try one(colours.frames[k].canvas, animation.frames[k].canvas) }
            out.animation = animation
        }
        return out
    }
}
