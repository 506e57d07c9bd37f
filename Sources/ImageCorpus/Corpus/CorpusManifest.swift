/// `manifest.json`: every case of a generated corpus, what a decoder must find in its file,
/// and the oracle of each of its operations. `manifest.schema.json` (``ManifestSchema``)
/// documents every field.
public struct CorpusManifest: Codable, Hashable, Sendable {
    /// The schema file beside the manifest.
    public var schema: String = ManifestSchema.fileName
    /// The manifest format version (``CorpusFormat/manifestVersion``).
    public var version: Int = CorpusFormat.manifestVersion
    /// `quick` or `full`.
    public var profile: String
    /// How oracle images are made and stored.
    public var oracle: OracleConvention = OracleConvention()
    /// The cases, in generation order.
    public var cases: [CaseRecord]

    public init(profile: String, cases: [CaseRecord]) {
        self.profile = profile
        self.cases = cases
    }
}

/// The conventions every oracle image follows.
public struct OracleConvention: Codable, Hashable, Sendable {
    /// The stored form.
    public var storage = "PNG, RGBA 16 bits per channel, straight alpha, sRGB-encoded (IEC 61966-2-1)"
    /// What each pixel is.
    public var pixel = "area average over the output pixel of the scene's premultiplied colour in linear light, times the content shape's coverage"
    /// How the integral is computed.
    public var sampling = "regular n×n points per output pixel at ((i+1/2)/n, (j+1/2)/n); n = 16, or 16·ceil(reduction) capped at 64 when shrinking"
    /// Where output sizes come from.
    public var geometry = "ImageCore.OutputGeometry (the resizer's declared rounding rule); crops by CGRectIntegral"
    public init() {}
}

/// One corpus file.
public struct CaseRecord: Codable, Hashable, Sendable {
    public var id: String
    /// Path of the source file, relative to the corpus folder.
    public var file: String
    /// `png`, `jpeg`, `gif`, `tiff`, `bmp`.
    public var container: String
    /// The encoding identifier (``Encoding/id``).
    public var encoding: String
    /// What the file stores, in the container's words.
    public var stored: String
    /// The scene and its purpose.
    public var scene: String
    public var purpose: String
    /// The channel reduction applied to the scene (``ChannelReduction``).
    public var reduction: String
    /// Stored size, pixels.
    public var width: Int
    public var height: Int
    /// Size after the orientation is applied, pixels.
    public var displayWidth: Int
    public var displayHeight: Int
    /// EXIF orientation value 1…8.
    public var orientation: Int
    /// Points-to-pixels scale (2 for `@2x`).
    public var scale: Int
    /// Number of frames.
    public var frames: Int
    /// The animation, for animated files.
    public var animation: AnimationRecord?
    /// The pixel format a decoder delivers, in Quartz terms.
    public var pixelFormat: PixelFormatRecord
    /// Largest |Δ| of α·C′ and α between the decoded file and the identity oracle; absent when lossy.
    public var tolerance: Double?
    /// Whether the storage is lossy (JPEG).
    public var lossy: Bool
    /// Documents' failures (D1–D13) and bug classes (B1–B29) exercised.
    public var documents: [String]
    public var bugClasses: [String]
    /// What the file states its colours by when not sRGB (``TaggedColours/words``: an ICC
    /// profile, PNG gAMA or cICP); `nil` for an untagged file.
    public var colours: String?
    /// The EXIF thumbnail the file embeds that does not show the image (stale, tiny, or
    /// stored upright under a rotated image), in words; `nil` when it embeds none.
    public var embeddedThumbnail: String?
    /// The invisible-pixel invariance twin, relative to the corpus folder: the same file with
    /// other colours under α = 0 (magenta ↔ green, gray inverted) and every other pixel
    /// identical; absent when the file stores no hidden colour (``CorpusCase/hiddenTwin``).
    public var hiddenTwin: String?
    /// The operations and their oracles.
    public var operations: [OperationEntry]

    /// A record with every field given (e.g. a case made from a file of one's own, `imglab run --inputs`).
    public init(id: String, file: String, container: String, encoding: String, stored: String, scene: String, purpose: String,
                reduction: String, width: Int, height: Int, displayWidth: Int, displayHeight: Int, orientation: Int, scale: Int,
                frames: Int, animation: AnimationRecord?, pixelFormat: PixelFormatRecord, tolerance: Double?, lossy: Bool,
                documents: [String], bugClasses: [String], hiddenTwin: String?, operations: [OperationEntry], colours: String? = nil,
                embeddedThumbnail: String? = nil) {
        self.id = id; self.file = file; self.container = container; self.encoding = encoding; self.stored = stored
        self.scene = scene; self.purpose = purpose; self.reduction = reduction; self.width = width; self.height = height
        self.displayWidth = displayWidth; self.displayHeight = displayHeight; self.orientation = orientation; self.scale = scale
        self.frames = frames; self.animation = animation; self.pixelFormat = pixelFormat; self.tolerance = tolerance
        self.lossy = lossy; self.documents = documents; self.bugClasses = bugClasses; self.hiddenTwin = hiddenTwin
        self.operations = operations
        self.colours = colours
        self.embeddedThumbnail = embeddedThumbnail
    }
}

/// The frames of an animated case.
public struct AnimationRecord: Codable, Hashable, Sendable {
    /// `gif-none`, `apng-over-previous`, …
    public var style: String
    /// 0 = forever.
    public var loopCount: Int
    /// Seconds, per frame.
    public var delays: [Double]
    /// Disposal of each frame: `unspecified`, `none`, `background`, `previous`.
    public var disposals: [String]
    /// Blend of every frame: `source` or `over`.
    public var blend: String
    /// Each frame's region [x, y, width, height], canvas pixels.
    public var regions: [[Int]]
}

/// One (case, operation) pair.
public struct OperationEntry: Codable, Hashable, Sendable {
    /// ``LabOperation/id``.
    public var id: String
    public var operation: OperationRecord
    /// Expected output size, pixels.
    public var outputWidth: Int
    public var outputHeight: Int
    /// Supersampling points per axis per output pixel.
    public var samplesPerAxis: Int
    /// The oracle image of each frame, relative to the corpus folder.
    public var oracle: [String]

    /// An entry with every field given: sizes in output pixels, oracle paths relative to the corpus folder.
    public init(id: String, operation: OperationRecord, outputWidth: Int, outputHeight: Int, samplesPerAxis: Int, oracle: [String]) {
        self.id = id; self.operation = operation; self.outputWidth = outputWidth; self.outputHeight = outputHeight
        self.samplesPerAxis = samplesPerAxis; self.oracle = oracle
    }
}
