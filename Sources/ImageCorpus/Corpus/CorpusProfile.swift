import ImageCore

/// Which cases and operations a corpus holds.
///
/// - `quick`: the CI gate. About a hundred 48 × 32 cases chosen so that every encoding appears
///   at least once, every orientation-carrying container with all eight orientations, and every input
///   failure (``DocumentFailure/inputFailures``) and format class (``BugClass/formatClasses``)
///   at least once; four operations each (orient, fit, and two from a rotating pool). The halo
///   scene is stored by five straight-alpha encodings (8- and 16-bit RGBA, 8-bit gray + alpha,
///   TIFF unassociated alpha, BMP BGRA). Nine tagged sources state their colours by an ICC
///   profile, PNG gAMA or cICP (``EncodingCatalog``'s tagged encodings, B14); three JPEGs embed an
///   EXIF thumbnail that does not show the image (B28), each with the ImageIO thumbnail among its operations.
/// - `full`: every encoding × every scene it can hold, all eight orientations of the
///   orientation and stencil scenes for every container that records orientation, at 96 × 64,
///   each with every operation of the pool. Meant for sharded runs; not committed.
public enum CorpusProfile: String, CaseIterable, Sendable {
    case quick, full

    /// The cases, in a fixed order.
    public var cases: [CorpusCase] {
        switch self {
        case .quick: return Self.quickCases()
        case .full: return Self.fullProfileCases
        }
    }

    /// The pool of operations on a canvas of 48 × 32 × `k`: every content mode, crops (whole
    /// and fractional), thumbnails with border and corners, rounded corners, borders, the
    /// max-pixel-size thumbnail, a 2× enlargement and odd sizes.
    public static func operationPool(scale k: Int) -> [LabOperation] {
        [
            .resize(width: 31 * k, height: 17 * k, mode: .scaleToFill),
            .resize(width: 20 * k, height: 20 * k, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)),
            .squareThumbnail(size: 24 * k, border: 2 * k, cornerRadius: Double(6 * k)),
            .resize(width: 20 * k, height: 20 * k, mode: .aspectFillWithoutCrop),
            .crop(x: Double(5 * k), y: Double(3 * k), width: Double(20 * k), height: Double(14 * k)),
            .roundedCorners(radius: Double(8 * k), border: 0),
            .resize(width: 20 * k, height: 20 * k, mode: .aspectFill(anchorX: 0, anchorY: 0)),
            .transparentBorder(width: 3 * k),
            .maxPixelSize(40 * k),
            .resize(width: 96 * k, height: 64 * k, mode: .scaleToFill),
            .crop(x: 4.5 * Double(k), y: 2.25 * Double(k), width: 19.5 * Double(k), height: 13.5 * Double(k)),
            .roundedCorners(radius: Double(6 * k), border: 2 * k),
            .resize(width: 16 * k, height: 16 * k, mode: .aspectFit),
            .resize(width: 20 * k, height: 20 * k, mode: .aspectFill(anchorX: 1, anchorY: 1)),
        ]
    }

    /// Whether `encoding` can store `scene` exactly as the corpus needs.
    public static func canStore(_ scene: Scene, in encoding: Encoding) -> Bool {
        if encoding.needsFlatScene && !scene.isFlat { return false }
        if let bits = encoding.paletteBits, scene.flatColorCount > 1 << bits { return false }
        // Animations composite frames with on/off alpha only (see AnimationPlan), and GIF has no other.
        if encoding.animationStyle != nil && scene.hasPartialAlpha { return false }
        return keepsColoursApart(scene, in: encoding)
    }

    /// Whether a flat scene's colours stay apart in a gray format of fewer than 8 bits, which
    /// rounds each to the nearest of its 2^b levels: colours that round to one level erase the
    /// scene's structure (the stencil's violet glyph, luma 64, on the luma 105 that its
    /// transparent background shows without alpha, is all black in 1 bit). True for smooth
    /// scenes, whose quantisation the coarse gate families judge, and for every other format.
    public static func keepsColoursApart(_ scene: Scene, in encoding: Encoding) -> Bool {
        guard scene.isFlat, case .pixels(let format) = encoding.storage, format.colorModel == .gray,
              format.bitsPerComponent < 8 else { return true }
        let rendering = SourceEncoder.uprightRendering(CorpusCase(scene: scene, encoding: encoding, width: 96, height: 64, operations: []))
        let top = Double((1 << format.bitsPerComponent) - 1)
        // Each distinct colour (to 16 bits) and the level it rounds to.
        var level: [Int: Int] = [:]
        for y in 0..<rendering.height {
            for x in 0..<rendering.width {
                let v = rendering.encodedPixel(x: x, y: y).red
                level[Int((v * 65535).rounded())] = Int((v * top).rounded())
            }
        }
        return Set(level.values).count == level.count
    }

    private static func quickCases() -> [CorpusCase] {
        let plan: [(String, Scene, Orientation)] = [
            ("png-gray1", .checkerAndGray, .up), ("png-gray2", .stepEdges, .up), ("png-gray4", .landscape, .up),
            ("png-gray8", .zonePlate, .up), ("png-gray16", .landscape, .up),
            ("png-graya8", .softAlpha, .up), ("png-graya16", .stepEdges, .up),
            ("png-rgb8", .colorPatches, .up), ("png-rgb8", .constant, .up), ("png-rgb16", .zonePlate, .up),
            ("png-rgba8", .softAlpha, .up), ("png-rgba8", .colorPatches, .up), ("png-rgba16", .softAlpha, .up),
            ("png-palette1", .stencil, .up), ("png-palette1-trns", .stencil, .up),
            ("png-palette2", .stepEdges, .up), ("png-palette2-trns", .stepEdges, .up),
            ("png-palette4", .orientation, .up), ("png-palette4-trns", .stepEdges, .up),
            ("png-palette8", .colorPatches, .up), ("png-palette8-trns", .colorPatches, .up),
            ("png-rgba8-adam7", .thinStrokes, .up), ("png-rgb8-adam7", .checkerAndGray, .up),
            ("jpeg-gray", .landscape, .up), ("jpeg-444", .colorPatches, .up), ("jpeg-422", .landscape, .up),
            ("jpeg-progressive", .landscape, .up), ("jpeg-cmyk-adobe", .colorPatches, .up),
            ("gif-palette", .orientation, .up), ("gif-transparent", .stencil, .up), ("gif-interlaced", .colorPatches, .up),
            ("gif-anim-unspecified", .orientation, .up), ("gif-anim-none", .orientation, .up),
            ("gif-anim-background", .orientation, .up), ("gif-anim-previous", .orientation, .up),
            ("tiff-rgb8", .landscape, .up), ("tiff-rgba8-assoc", .softAlpha, .up), ("tiff-rgba8-unassoc", .stepEdges, .up),
            ("tiff-rgb16", .zonePlate, .up), ("tiff-rgba16-assoc", .softAlpha, .up), ("tiff-rgba16-unassoc", .colorPatches, .up),
            ("tiff-float-rgb", .landscape, .up), ("tiff-float-rgba", .softAlpha, .up), ("tiff-palette", .orientation, .up),
            ("tiff-cmyk", .colorPatches, .up), ("tiff-gray8", .checkerAndGray, .up), ("tiff-gray16", .zonePlate, .up),
            ("tiff-rgb8-planar", .thinStrokes, .up), ("tiff-rgba16-planar", .stepEdges, .up),
            ("bmp-24", .colorPatches, .up), ("bmp-xrgb32", .landscape, .up), ("bmp-bgra32-v5", .softAlpha, .up),
            ("bmp-565", .landscape, .up), ("bmp-555", .colorPatches, .up), ("bmp-palette8", .orientation, .up),
            ("bmp-24-topdown", .orientation, .up),
            ("apng-over-none", .orientation, .up), ("apng-over-background", .orientation, .up),
            ("apng-over-previous", .orientation, .up), ("apng-source-none", .orientation, .up),
            ("apng-source-background", .orientation, .up), ("apng-source-previous", .orientation, .up),
        ]
        let orientationEncodings = ["png-rgba8", "jpeg-420", "tiff-rgba8-unassoc"]
        var entries = plan
        for id in orientationEncodings {
            for o in Orientation.allCases { entries.append((id, .orientation, o)) }
        }
        for id in ["png-rgba8", "png-rgba16", "png-graya8", "tiff-rgba8-unassoc", "bmp-bgra32-v5"] {
            entries.append((id, .halo, .up))
        }
        // The tagged sources (B14): each statement of colours once, on a scene with saturated or smooth colour.
        entries += [("png-rgb8-tagged-adobergb", .colorPatches, .up), ("png-rgba8-tagged-p3", .softAlpha, .up),
                    ("png-rgb16-tagged-prophoto", .landscape, .up), ("png-gray8-tagged-gamma22", .landscape, .up),
                    ("png-rgb8-tagged-swapped", .colorPatches, .up), ("png-rgb8-tagged-gama18", .landscape, .up),
                    ("png-rgb8-tagged-cicp-p3", .colorPatches, .up), ("jpeg-cmyk-adobe-tagged-inks", .colorPatches, .up),
                    ("tiff-cmyk-tagged-inks", .landscape, .up)]
        // The embedded-thumbnail trap (B28): a stale, a tiny and an upright thumbnail under a rotated image.
        entries += [("jpeg-420-exifthumb-stale", .landscape, .up), ("jpeg-420-exifthumb-tiny", .landscape, .up),
                    ("jpeg-420-exifthumb-rotated", .orientation, .right)]
        // Lossless WebP (last, so the cases above keep their operations): an opaque and a straight-alpha still,
        // and the eight orientations of its EXIF chunk.
        entries += [("webp-rgb8-lossless", .colorPatches, .up), ("webp-rgba8-lossless", .softAlpha, .up),
                    ("webp-rgb8-lossy", .landscape, .up), ("webp-rgb8-lossy", .colorPatches, .up)]
        for o in Orientation.allCases { entries.append(("webp-rgba8-lossless", .orientation, o)) }
        for id in ["webp-anim-source-none", "webp-anim-source-background", "webp-anim-over-none", "webp-anim-over-background"] {
            entries.append((id, .orientation, .up))
        }
        // HEIF and AVIF (last again): each storage once, the eight irot/imir orientations of an opaque HEIC
        // and a straight-alpha AVIF, and an EXIF orientation beside the transform, agreeing and disagreeing.
        entries += [("heif-rgb8-lossless", .colorPatches, .up), ("heif-rgba8-lossless", .softAlpha, .up),
                    ("heif-rgba8-premultiplied", .softAlpha, .up), ("heif-rgb16-10bit", .zonePlate, .up),
                    ("heif-rgb8-lossy", .landscape, .up), ("avif-rgb8-lossless", .landscape, .up),
                    ("avif-rgba8-lossless", .stepEdges, .up), ("avif-rgba16-12bit", .softAlpha, .up),
                    ("avif-rgb8-lossy", .colorPatches, .up)]
        for o in Orientation.allCases {
            entries += [("heif-rgb8-lossless", .orientation, o), ("avif-rgba8-lossless", .orientation, o)]
        }
        for id in ["heif-rgb8-exif-agrees", "heif-rgb8-exif-disagrees"] {
            entries += [(id, .orientation, .right), (id, .orientation, .leftMirrored)]
        }
        // An AVIF image sequence (last again).
        entries.append(("avif-anim", .orientation, .up))
        let pool = operationPool(scale: 1)
        var cases: [CorpusCase] = []
        for (i, entry) in entries.enumerated() {
            guard let encoding = EncodingCatalog.named(entry.0) else { preconditionFailure("no encoding \(entry.0) in the catalogue") }
            var ops: [LabOperation] = [.orient, .resize(width: 24, height: 24, mode: .aspectFit)]
            if entry.2 != .up {
                ops.append(.squareThumbnail(size: 16, border: 0, cornerRadius: 0))
            } else {
                ops.append(pool[(2 * i) % pool.count])
                ops.append(pool[(2 * i + 1) % pool.count])
                if entry.1.hasAlpha && encoding.reduction != .opaque && encoding.reduction != .grayOpaque {
                    let thumb = LabOperation.squareThumbnail(size: 24, border: 2, cornerRadius: 6)
                    if !ops.contains(thumb) { ops.append(thumb) }
                }
            }
            // The ImageIO thumbnail is where an embedded thumbnail is returned.
            if encoding.thumbnail != nil && !ops.contains(.maxPixelSize(40)) { ops.append(.maxPixelSize(40)) }
            cases.append(CorpusCase(scene: entry.1, encoding: encoding, width: 48, height: 32, orientation: entry.2, operations: ops))
        }
        // The retina case: a 2× asset whose points are 24 × 16 (D8, B24).
        if let rgba = EncodingCatalog.named("png-rgba8") {
            cases.append(CorpusCase(scene: .softAlpha, encoding: rgba, width: 48, height: 32, scale: 2,
                                    operations: [.orient, .resize(width: 24, height: 24, mode: .aspectFit), .resize(width: 48, height: 48, mode: .aspectFit)]))
        }
        return cases
    }

    /// The full profile's cases, made once: choosing them renders the coarse gray formats' flat
    /// scenes (``keepsColoursApart(_:in:)``).
    private static let fullProfileCases = fullCases()

    private static func fullCases() -> [CorpusCase] {
        let ops = [LabOperation.orient, .resize(width: 48, height: 48, mode: .aspectFit)] + operationPool(scale: 2)
        var cases: [CorpusCase] = []
        for encoding in EncodingCatalog.all {
            for scene in Scene.allCases where canStore(scene, in: encoding) {
                let orientations: [Orientation] = encoding.carriesOrientation && (scene == .orientation || scene == .stencil)
                    ? Orientation.allCases : [.up]
                for o in orientations {
                    cases.append(CorpusCase(scene: scene, encoding: encoding, width: 96, height: 64, orientation: o, operations: ops))
                }
            }
        }
        return cases
    }
}

extension Scene {
    /// Whether some point of the scene has 0 < α < 1 (the colour patches' alpha row, the soft
    /// edges); flat scenes without it hold only opaque and fully transparent colours.
    public var hasPartialAlpha: Bool { self == .colorPatches || self == .softAlpha || self == .halo }

    /// The largest number of distinct colours (straight RGBA) of a flat scene under any
    /// reduction, counting one hidden colour (a second one, ``HiddenColours/pair``, adds one);
    /// `Int.max` for smooth scenes.
    public var flatColorCount: Int {
        switch self {
        case .orientation: return 16
        case .colorPatches: return 24
        case .checkerAndGray: return 3
        case .stepEdges: return 4
        case .constant: return 1
        case .stencil: return 2
        case .softAlpha, .zonePlate, .thinStrokes, .landscape, .halo: return .max
        }
    }
}
