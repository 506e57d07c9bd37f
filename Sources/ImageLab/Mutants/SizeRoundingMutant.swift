import ImageCorpus
import ImageCore

extension Mutant {
    /// The output size rounded up after a floating-point overshoot: each side one pixel larger
    /// than the declared rule gives, the picture stretched to fill it.
    static let sizeOvershoot = Mutant(
        id: "size-overshoot", topic: "size-rounding",
        title: "output one pixel too large: the size rounded up after a floating-point overshoot",
        history: "UIImage+Resize computes the aspect-fit size as width × (box / width) and makes it integral with CGRectIntegral (which rounds up): 11 × (100 / 11) = 100.00000000000001, so an 11×5 image fitted into 100×100 comes out 101×46 instead of 100×45 (anchors §4.1: 697 of 29,990 common (width, box) pairs overshoot; B22: Pillow#4404, image-rs#1109). The quick corpus's sizes divide exactly, so the mutant gives every fit, fill-without-crop and max-pixel-size result the overshoot such sizes get: one more pixel on each side.",
        references: ["B22"], bugClass: "size-rounding",
        triggers: { pair in
            guard let op = pair.entry.operation.operation else { return false }
            switch op {
            case .resize(_, _, .aspectFit), .resize(_, _, .aspectFillWithoutCrop), .maxPixelSize: return true
            default: return false
            }
        },
        make: { base in
            MutantResizer(name: "size-overshoot(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                switch operation {
                case .resize(_, _, .aspectFit), .resize(_, _, .aspectFillWithoutCrop), .maxPixelSize:
                    let size = output.displaySize
                    return try base.apply(.resize(width: size.width + 1, height: size.height + 1, mode: .scaleToFill), to: output)
                default:
                    return output
                }
            }
        })
}
