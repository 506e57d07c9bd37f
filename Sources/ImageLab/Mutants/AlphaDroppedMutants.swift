import ImageCorpus
import ImageCore

extension Mutant {
    /// The `kCGImageAlphaNoneSkipLast` "fix": the output's alpha byte is declared padding, so
    /// transparent pixels show the colour stored under them and translucent ones their straight colour.
    static let alphaDroppedHidden = Mutant(
        id: "alpha-dropped-hidden", topic: "alpha-dropped",
        title: "alpha dropped: the colour hidden under transparent pixels is revealed",
        history: "The common answer to \"CGBitmapContextCreate: unsupported parameter combination … kCGImageAlphaLast\" (D2) is to switch to kCGImageAlphaNoneSkipLast: the context is accepted and the alpha byte silently ignored. Transparent areas then show whatever colour the encoder left under them (often magenta, black or garbage) and logos lose their cut-out (B6: thumbnailator#41, thumbor#1606).",
        references: ["D2", "D7", "B6"], bugClass: "alpha-dropped",
        triggers: { pair in pair.sourceHasTransparency },
        make: { base in
            MutantResizer(name: "alpha-dropped-hidden(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                guard source.format.hasAlpha else { return output }
                return try output.mappingBitmaps { bitmap throws(ResizerError) in
                    guard bitmap.format.hasAlpha else { return bitmap }
                    let straight = try FrameRewrite.convert(bitmap, to: .rgba8.withBits(bitmap.format.bitsPerComponent > 8 ? 16 : 8))
                    return try FrameRewrite.relabel(straight, as: straight.format.withAlpha(.noneSkipLast))
                }
            }
        })

    /// Alpha flattened onto black: the output drawn into an opaque context (or its premultiplied
    /// bytes read without alpha), so transparency becomes black and soft edges darken to black.
    static let alphaOverBlack = Mutant(
        id: "alpha-over-black", topic: "alpha-dropped",
        title: "alpha flattened onto black (transparent areas black)",
        history: "A premultiplied buffer whose alpha byte is then skipped (kCGImageAlphaNoneSkipFirst on a premultiplied context, or JPEG output of an RGBA image): transparent pixels become black, translucent ones darken toward black (B6: UIImage-Categories 146ab17, thumbor#1606).",
        references: ["D7", "B6"], bugClass: "alpha-dropped",
        triggers: { pair in pair.sourceHasTransparency },
        make: { base in
            MutantResizer(name: "alpha-over-black(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                guard source.format.hasAlpha else { return output }
                return try output.mappingBitmaps { bitmap throws(ResizerError) in try AlphaFlattening.overBlack(bitmap) }
            }
        })

    /// D7: a transparent border or rounded corners drawn into an opaque context come out black.
    static let blackBorder = Mutant(
        id: "black-border", topic: "black-border",
        title: "transparent border and rounded corners drawn black (opaque context)",
        history: "Trevor Harmon's UIImage+Alpha / +RoundedCorner categories (D7): the border and the clipped corners are transparent only if the context has alpha; copying the source's bitmap info from a JPEG (kCGImageAlphaNoneSkipLast) makes them black. \"Black border instead of a transparent one\" is the report; the fix adds an alpha channel first (addingAlpha).",
        references: ["D7", "B6"], bugClass: "alpha-dropped",
        triggers: { pair in pair.addsAlpha },
        make: { base in
            MutantResizer(name: "black-border(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                guard operation.addsAlpha else { return output }
                return try output.mappingBitmaps { bitmap throws(ResizerError) in try AlphaFlattening.overBlack(bitmap) }
            }
        })
}

/// The rewrite the black-background mutants share.
enum AlphaFlattening {
    /// The bitmap composited over black: premultiplied RGBA whose alpha byte is then declared
    /// padding (8 or 16 bits, as the input).
    static func overBlack(_ bitmap: Bitmap) throws(ResizerError) -> Bitmap {
        guard bitmap.format.hasAlpha else { return bitmap }
        let premultiplied = try FrameRewrite.convert(bitmap, to: .rgba8Premultiplied.withBits(bitmap.format.bitsPerComponent > 8 ? 16 : 8))
        return try FrameRewrite.relabel(premultiplied, as: premultiplied.format.withAlpha(.noneSkipLast))
    }
}
