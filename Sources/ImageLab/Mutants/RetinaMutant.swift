import ImageCorpus
import ImageCore

extension Mutant {
    /// The retina scale ignored (D8): a `@2x` source's result is drawn into a context of scale 1,
    /// so it has 1 / scale of the pixels it should (blurry on a retina screen).
    static let retinaScaleIgnored = Mutant(
        id: "retina-scale-ignored", topic: "retina",
        title: "retina scale ignored: an @2x image resized into a scale-1 context (half the pixels)",
        history: "D8: UIGraphicsBeginImageContext(size) creates a context of scale 1.0, so resizing an @2x image gives a result with half the pixels in each direction, which looks blurry on a retina screen; the fix is UIGraphicsBeginImageContextWithOptions(size, opaque, self.scale) (B24: UIImage-Categories#6, Kingfisher#504 and #649). The lab's operation sizes are in output pixels; the mutant delivers them divided by the source's scale.",
        references: ["D8", "B24"], bugClass: "scale",
        triggers: { pair in pair.record.scale != 1 },
        make: { base in
            MutantResizer(name: "retina-scale-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let output = try base.apply(operation, to: source)
                let scale = Int(source.metadata.scale.rounded())
                guard scale > 1 else { return output }
                let size = output.displaySize
                let w = (size.width + scale - 1) / scale, h = (size.height + scale - 1) / scale
                return try base.apply(.resize(width: w, height: h, mode: .scaleToFill), to: output)
            }
        })
}
