import ImageCorpus
import ImageCore
import ImageCodecs

// The embedded-thumbnail mutants (B28): a thumbnailer that hands back the small JPEG an EXIF
// block embeds (IFD1) instead of the image, scaled to the size asked for.

extension Mutant {
    private static let thumbnailHistory = "ImageIO's `kCGImageSourceCreateThumbnailFromImageIfAbsent` returns the thumbnail an EXIF block embeds when there is one: SDWebImage's thumbnail decoding returned a camera's 120 × 160 thumbnail instead of the picture (SDWebImage#3036, fixed by asking for `…FromImageAlways` in #3038); libheif's thumbnails were not transformed like the image (libheif#548); IFD1's own orientation read wrongly (scrimage#114) (B28, research/resizer-anchors.md). A stale thumbnail shows another picture, a tiny one a blurred one."

    /// The EXIF thumbnail, turned by the image's orientation, scaled to the output's size.
    static let embeddedThumbnailReturned = Mutant(
        id: "embedded-thumbnail-returned", topic: "embedded-thumbnail",
        title: "the EXIF thumbnail returned instead of the image (another or a blurred picture, scaled to the size asked for)",
        history: thumbnailHistory + " Here: the embedded thumbnail, oriented like the image, resized by the base to the size the base gives the image.",
        references: ["B28"], bugClass: "embedded-thumbnail",
        triggers: { $0.record.embeddedThumbnail != nil && $0.resamples },
        make: { base in
            MutantResizer(name: "embedded-thumbnail-returned(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                try EmbeddedThumbnailReturn.apply(operation, to: source, base: base, oriented: true)
            }
        })

    /// The EXIF thumbnail as stored, without the image's orientation, scaled to the output's size.
    static let embeddedThumbnailUnoriented = Mutant(
        id: "embedded-thumbnail-unoriented", topic: "embedded-thumbnail",
        title: "the EXIF thumbnail returned without the image's orientation (sideways, scaled to the size asked for)",
        history: thumbnailHistory + " Here: the embedded thumbnail as stored (IFD0's orientation not applied to it), resized by the base to the size the base gives the image.",
        references: ["B28", "B15"], bugClass: "embedded-thumbnail",
        triggers: { $0.record.embeddedThumbnail != nil && $0.resamples && $0.record.orientation != 1 },
        make: { base in
            MutantResizer(name: "embedded-thumbnail-unoriented(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                try EmbeddedThumbnailReturn.apply(operation, to: source, base: base, oriented: false)
            }
        })
}

/// What the embedded-thumbnail mutants do.
enum EmbeddedThumbnailReturn {
    /// The base's output of `operation` on `source`, or, when the source embeds an EXIF
    /// thumbnail and the operation resamples, the thumbnail (oriented like the image or as
    /// stored) resized by the base to the size of that output.
    static func apply(_ operation: LabOperation, to source: Image, base: any Resizer, oriented: Bool) throws(ResizerError) -> Image {
        let correct = try base.apply(operation, to: source)
        guard ResamplingDeparture.plan(operation, width: source.displaySize.width, height: source.displaySize.height) != nil,
              let block = source.metadata.exif, let embedded = EXIFThumbnail.reading(block),
              var thumbnail = try? ImageCodecs.decode(embedded.jpeg) else { return correct }
        if oriented { thumbnail.orientation = source.orientation }
        let size = correct.displaySize
        return try base.apply(.resize(width: size.width, height: size.height, mode: .scaleToFill), to: thumbnail)
    }
}
