import ImageCodecs
import ImageCorpus
import ImageCore

/// The ways a resizer misreads HEIF and AVIF files: their own orientation transform (irot/imir)
/// and their premultiplied alpha.
extension Mutant {
    /// irot/imir ignored: the orientation read from the EXIF block instead, as for a JPEG (up
    /// without one).
    static let heifTransformIgnored = Mutant(
        id: "heif-transform-ignored", topic: "orientation",
        title: "HEIF/AVIF irot/imir ignored (the EXIF orientation read instead, or none)",
        history: "HEIF states orientation in its own irot and imir properties, which MIAF and the browsers apply while they ignore EXIF's. Code that knows only the EXIF tag shows a HEIC or AVIF sideways when the transform is all the file has, and turned wrong when its EXIF says something else (B15, B18: reports against browsers, libheif users and thumbnailers).",
        references: ["D5", "B15", "B18"], bugClass: "orientation",
        triggers: { pair in HEIFPairs.isHEIF(pair) && pair.record.orientation != 1 && !pair.record.encoding.hasSuffix("exif-agrees") },
        make: { base in
            MutantResizer(name: "heif-transform-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var read = source
                if source.metadata.orientationSource == .heifTransform {
                    read.orientation = source.metadata.exif.flatMap { EXIF.orientation(in: $0) } ?? .up
                }
                return try base.apply(operation, to: read)
            }
        })

    /// irot/imir applied by the decoder, then the EXIF orientation applied again.
    static let heifTransformTwice = Mutant(
        id: "heif-transform-twice", topic: "orientation",
        title: "HEIF/AVIF turned twice (irot/imir applied by the decoder, then the EXIF orientation again)",
        history: "libheif applies irot/imir as it decodes, and iPhone HEICs also carry an EXIF orientation that agrees with them; code written for JPEG then applies the EXIF tag to pixels that are already upright, and the photo comes out turned twice (B17: the HEIC reports against libheif users, ImageMagick and thumbnailers).",
        references: ["D5", "B17"], bugClass: "orientation",
        triggers: { pair in
            // The disagreeing EXIF is the orientation turned 180° more: up (a no-op) for orientation 3.
            HEIFPairs.isHEIF(pair) && (pair.record.encoding.hasSuffix("exif-agrees") && pair.record.orientation != 1
                || pair.record.encoding.hasSuffix("exif-disagrees") && pair.record.orientation != 3)
        },
        make: { base in
            MutantResizer(name: "heif-transform-twice(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.metadata.orientationSource == .heifTransform,
                      let stated = source.metadata.exif.flatMap({ EXIF.orientation(in: $0) }) else {
                    return try base.apply(operation, to: source)
                }
                var twice = source.oriented()
                twice.orientation = stated
                return try base.apply(operation, to: twice)
            }
        })

    /// The `prem` reference ignored: premultiplied colour read as straight.
    static let heifPremultipliedAsStraight = Mutant(
        id: "heif-prem-ignored", topic: "premultiply",
        title: "HEIF/AVIF premultiplied alpha read as straight (the prem reference ignored: edges too dark)",
        history: "A HEIF alpha plane is an auxiliary image, and whether the colour was multiplied by it is stated only by a prem reference between the two items. Decoders that treat every alpha plane as straight divide nothing, so translucent pixels, already multiplied once, are multiplied again when composited: soft edges and shadows darken (B5).",
        references: ["D2", "D6", "B5"], bugClass: "premultiplication",
        triggers: { pair in HEIFPairs.isHEIF(pair) && pair.sourceFormat?.isPremultiplied == true && pair.sourceHasTransparency },
        make: { base in
            MutantResizer(name: "heif-prem-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard source.metadata.properties["alpha"]?.hasSuffix("(prem)") == true, source.format.isPremultiplied else {
                    return try base.apply(operation, to: source)
                }
                let straight = try source.mappingBitmaps { bitmap throws(ResizerError) in
                    try FrameRewrite.relabel(bitmap, as: bitmap.format.withAlpha(bitmap.format.alphaInfo == .premultipliedFirst ? .first : .last))
                }
                return try base.apply(operation, to: straight)
            }
        })
}

/// Which lab pairs have a HEIF or AVIF source.
enum HEIFPairs {
    static func isHEIF(_ pair: LabPair) -> Bool { pair.record.container == "heif" || pair.record.container == "avif" }
}
