import ImageCorpus
import ImageCore

extension Mutant {
    /// The pink tint (D6): an alpha-first or skip-first 8-bit source (ARGB / XRGB, such as BMP's
    /// XRGB and BGRA V5 layouts) whose output bytes are written alpha-first and read back as
    /// RGBA / RGBX. The alpha (or padding) byte, 255 on opaque pixels, lands in red; red moves to
    /// green, green to blue, and blue becomes alpha (or is dropped with the padding).
    static let pinkTint = Mutant(
        id: "argb-as-rgba", topic: "pink-tint",
        title: "alpha or padding byte read as red (ARGB / XRGB read as RGBA / RGBX)",
        history: "The headline bug of the UIImage resizing articles (D6): a decoder delivers alpha-first pixels (kCGImageAlphaNoneSkipFirst / PremultipliedFirst, BMP's XRGB, iOS's BGRA words) and code that assumes RGBA reads them; every opaque pixel gets red = 255, so photos turn pink or magenta and whites stay white. Channel-order reports of other libraries (B2) are the same mistake one byte over.",
        references: ["D6", "B2"], bugClass: "alpha-position",
        triggers: { pair in
            guard let f = pair.sourceFormat else { return false }
            return f.bitsPerComponent == 8 && f.alphaInfo.isFirst
        },
        make: { base in
            MutantResizer(name: "argb-as-rgba(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                guard source.format.bitsPerComponent == 8, source.format.alphaInfo.isFirst else { return output }
                let keepsAlpha = source.format.hasAlpha
                return try output.mappingBitmaps { bitmap throws(ResizerError) in
                    try PinkTint.argbReadAsRGBA(bitmap, keepsAlpha: keepsAlpha)
                }
            }
        })
}

/// The byte-level rewrite of ``Mutant/pinkTint``.
enum PinkTint {
    /// `bitmap` written as 8-bit straight ARGB (A, R, G, B bytes; A = 255 where opaque) and
    /// described as RGBA (`keepsAlpha`) or RGBX: the first byte becomes red.
    static func argbReadAsRGBA(_ bitmap: Bitmap, keepsAlpha: Bool) throws(ResizerError) -> Bitmap {
        let argb = try FrameRewrite.convert(bitmap, to: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first))
        return try FrameRewrite.relabel(argb, as: PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: keepsAlpha ? .last : .noneSkipLast))
    }
}
