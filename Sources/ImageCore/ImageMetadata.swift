/// What an image file says about its pixels besides the pixels themselves.
///
/// Absent facts are `nil`. Codecs fill what their container carries and encoders write back
/// what their container can hold.
public struct ImageMetadata: Hashable, Sendable {
    /// The embedded ICC profile, verbatim (PNG iCCP decompressed, JPEG APP2 chunks joined, TIFF tag 34675).
    public var iccProfile: [UInt8]?
    /// The raw EXIF block (TIFF-structured, starting with `II*\0` or `MM\0*`), if the file has one.
    public var exif: [UInt8]?
    /// Encoding gamma from PNG gAMA, as the stored value / 100000 (0.45455 for sRGB-like files).
    public var gamma: Double?
    /// The PNG sRGB chunk's rendering intent (0…3), if present.
    public var sRGBIntent: Int?
    /// PNG cHRM: white, red, green and blue as CIE 1931 x, y pairs (eight numbers, in that order).
    public var chromaticities: [Double]?
    /// PNG cICP: colour primaries, transfer characteristics, matrix coefficients and full-range
    /// flag, as ITU-T H.273 code points (four numbers, in that order).
    public var codingPoints: [UInt8]?
    /// Points-to-pixels scale (2 for an `@2x` asset); 1 when unknown.
    public var scale: Double
    /// Where the orientation came from, when the file declared one.
    public var orientationSource: OrientationSource?
    /// The pixel format as the file declares it, when the decoder had to deliver another one
    /// (for example "TIFF 12-bit gray" delivered as 16-bit). Free text for `imglab info`.
    public var storedFormatNote: String?
    /// Bits per sample as the file header declares them, which can differ from the delivered
    /// format: PNG IHDR bit depth, JPEG SOF precision, TIFF BitsPerSample, GIF colour-table
    /// index bits, BMP bits per pixel.
    public var storedBitDepth: Int?
    /// Container-specific facts worth showing (`"interlace": "Adam7"`, `"jpeg.process": "progressive"`).
    public var properties: [String: String]
    /// Broken ancillary data the decoder dropped while still decoding the pixels, one sentence
    /// each, in file order ("PNG iCCP at byte 37 ignored: the profile cannot be inflated…").
    /// Empty for a clean file. docs/leniency.md lists, per container, what is a warning and
    /// what is fatal.
    public var warnings: [String]

    public init(iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil, gamma: Double? = nil, sRGBIntent: Int? = nil,
                chromaticities: [Double]? = nil, codingPoints: [UInt8]? = nil,
                scale: Double = 1, orientationSource: OrientationSource? = nil, storedFormatNote: String? = nil, storedBitDepth: Int? = nil,
                properties: [String: String] = [:], warnings: [String] = []) {
        self.iccProfile = iccProfile
        self.exif = exif
        self.gamma = gamma
        self.sRGBIntent = sRGBIntent
        self.chromaticities = chromaticities
        self.codingPoints = codingPoints
        self.scale = scale
        self.orientationSource = orientationSource
        self.storedFormatNote = storedFormatNote
        self.storedBitDepth = storedBitDepth
        self.properties = properties
        self.warnings = warnings
    }

    /// This metadata with its colours stated by `profile` alone (`nil`: untagged, read as sRGB):
    /// the PNG gAMA, cHRM and cICP facts, which a profile overrides or contradicts, dropped.
    public func statingColours(by profile: [UInt8]?) -> ImageMetadata {
        var copy = self
        copy.iccProfile = profile
        copy.gamma = nil
        copy.chromaticities = nil
        copy.codingPoints = nil
        return copy
    }
}

/// Where an image's orientation was found.
public enum OrientationSource: String, Hashable, Sendable {
    /// EXIF tag 0x0112 in a JPEG APP1 segment.
    case jpegExif = "JPEG APP1 EXIF"
    /// EXIF tag 0x0112 in a PNG eXIf chunk.
    case pngExif = "PNG eXIf"
    /// TIFF tag 274 of the first IFD.
    case tiffTag = "TIFF tag 274"
    /// EXIF tag 0x0112 in a WebP EXIF chunk.
    case webpExif = "WebP EXIF"
    /// The `irot` and `imir` properties of a HEIF or AVIF file's primary image.
    case heifTransform = "HEIF irot/imir"
    /// An XMP `tiff:Orientation` property.
    case xmp = "XMP tiff:Orientation"
}
