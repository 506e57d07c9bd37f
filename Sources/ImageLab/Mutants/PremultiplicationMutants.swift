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
