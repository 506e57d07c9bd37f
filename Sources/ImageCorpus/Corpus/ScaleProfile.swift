import ImageCore

/// The cases of the scale profile: sources of 24 to 96 megapixels, the sizes the documents'
/// cost failures were seen at (a 5616 × 3744 photo, ImageIO's 6019 × 6019 JPEG; D4, D5, D9),
/// each shrunk by the three operations thumbnails are made with.
///
/// The sources are never committed: they are generated on the fly, band by band
/// (``StreamedSource``), rendered with ``sourceSamplesPerAxis`` points per pixel, which the
/// smooth scenes chosen here allow (landscape for opaque storage, soft alpha for RGBA). Their
/// oracles are rendered from the continuous scene at the output size, never from a full-size
/// rendering. Cases store no hidden-colour twin: the invisible-pixel invariance is the quick
/// and full profiles' job.
///
/// Not yet a ``CorpusProfile``: `imglab run --profile scale` is to generate these into a
/// temporary folder; today they are the list that generation and its tests work from.
public enum ScaleProfile {
    /// The operations of every case: the ImageIO thumbnail of 640 pixels, an aspect fit into
    /// 800 × 600 and a centred aspect fill of 256 × 256.
    public static let operations: [LabOperation] = [
        .maxPixelSize(640),
        .resize(width: 800, height: 600, mode: .aspectFit),
        .resize(width: 256, height: 256, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)),
    ]

    /// Supersampling points per axis per source pixel: 1, the pixel's centre. The scenes are
    /// smooth at these sizes (the landscape's sharpest feature, its 1.5-pixel soft horizon,
    /// is one row in thousands), so a point sample differs from the pixel's area mean only on
    /// those few rows, and by far less than a shrink of 7× or more can show.
    public static let sourceSamplesPerAxis = 1

    /// The cases, in a fixed order: (encoding id, scene, width, height).
    public static let plan: [(encoding: String, scene: Scene, width: Int, height: Int)] = [
        ("jpeg-progressive", .landscape, 6000, 4000),
        ("jpeg-progressive", .landscape, 12000, 8000),
        ("jpeg-420", .landscape, 6019, 6019),
        ("png-rgb16", .landscape, 8000, 6000),
        ("png-rgba8", .softAlpha, 8000, 6000),
        ("tiff-rgba8-unassoc", .softAlpha, 6000, 4000),
        ("bmp-24", .landscape, 6000, 4000),
    ]

    /// The cases, each with ``operations``.
    public static var cases: [CorpusCase] {
        plan.map { entry in
            guard let encoding = EncodingCatalog.named(entry.encoding) else { preconditionFailure("no encoding \(entry.encoding) in the catalogue") }
            return CorpusCase(scene: entry.scene, encoding: encoding, width: entry.width, height: entry.height, operations: operations)
        }
    }
}
