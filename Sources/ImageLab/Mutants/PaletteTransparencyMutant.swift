import ImageCorpus
import ImageCore

extension Mutant {
    /// Palette transparency ignored: the tRNS chunk of a palette PNG, or GIF's transparent
    /// index, is not read, so every palette entry is opaque.
    static let paletteTransparencyIgnored = Mutant(
        id: "palette-trns-ignored", topic: "palette-transparency",
        title: "palette transparency ignored (PNG tRNS / GIF transparent index shown opaque)",
        history: "Indexed images carry transparency outside the pixels: PNG's tRNS chunk gives palette entries an alpha, GIF names one transparent index (D3, B7: HaxeFoundation/format#53, freej2me-plus#255, image-rs#199). A decoder or converter that expands the palette to RGB without them shows the key colour (often magenta or the background colour) as an opaque box around the picture.",
        references: ["D3", "B7", "B8"], bugClass: "alpha-dropped",
        triggers: { pair in pair.sourceIsIndexed && pair.sourceHasTransparency },
        make: { base in
            MutantResizer(name: "palette-trns-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard case .indexed(let palette) = source.format.colorModel, palette.hasAlpha else {
                    return try base.apply(operation, to: source)
                }
                var opaque = source
                opaque.bitmap = try FrameRewrite.relabel(source.bitmap, as: PixelFormat(
                    colorModel: .indexed(Palette(palette.entries.map { Palette.Entry(red: $0.red, green: $0.green, blue: $0.blue) })),
                    bitsPerComponent: source.format.bitsPerComponent))
                return try base.apply(operation, to: opaque)
            }
        })
}
