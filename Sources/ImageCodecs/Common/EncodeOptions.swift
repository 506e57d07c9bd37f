import ImageCore

/// Choices for encoders. Each container reads only its own fields; the defaults are lossless
/// where the container allows and otherwise the common choice (JPEG quality 90, 4:2:0).
public struct EncodeOptions: Sendable, Hashable {
    /// JPEG quality, 1…100.
    public var jpegQuality: Int
    /// JPEG chroma subsampling.
    public var jpegSubsampling: ChromaSubsampling
    /// JPEG: write a progressive file.
    public var jpegProgressive: Bool
    /// PNG: write Adam7-interlaced; GIF: write interlaced rows.
    public var interlaced: Bool
    /// TIFF compression.
    public var tiffCompression: TIFFCompression
    /// TIFF: store each component in its own plane (PlanarConfiguration = 2).
    public var tiffPlanar: Bool
    /// BMP: write rows top-down (negative height) instead of the usual bottom-up.
    public var bmpTopDown: Bool
    /// Write the image's orientation into the file (EXIF / TIFF tag) when it is not `.up`.
    public var writeOrientation: Bool
    /// PNG: favour encoding speed (the default) or the smallest file.
    public var pngCompression: PNGCompression
    /// WebP: lossy at this quality (0…100); nil, the default, writes lossless.
    public var webpQuality: Int?
    /// HEIF and AVIF: lossy at this quality (0…100); nil, the default, writes lossless.
    public var heifQuality: Int?
    /// HEIF and AVIF: bits per sample (10 or 12) for images deeper than 8 bits; 8-bit images stay
    /// 8. nil, the default: 10 for HEIF, 12 for AVIF (libheif 1.15's AV1 path aborts at 10).
    public var heifBitDepth: Int?
    /// HEIF and AVIF: the chroma subsampling of lossy coding (4:2:0, 4:2:2 or 4:4:4); lossless is 4:4:4.
    public var heifLossyChroma: ChromaSubsampling
    /// HEIF and AVIF: an EXIF block stating this orientation is written beside irot/imir, whatever
    /// they state (a lab case: the two disagreeing); nil, the default, writes the image's EXIF
    /// block, if any, with its orientation made to agree.
    public var heifExifOrientation: Orientation?

    public init(jpegQuality: Int = 90, jpegSubsampling: ChromaSubsampling = .s420, jpegProgressive: Bool = false,
                interlaced: Bool = false, tiffCompression: TIFFCompression = .lzw, tiffPlanar: Bool = false,
                bmpTopDown: Bool = false, writeOrientation: Bool = true, pngCompression: PNGCompression = .fast,
                webpQuality: Int? = nil, heifQuality: Int? = nil, heifBitDepth: Int? = nil, heifLossyChroma: ChromaSubsampling = .s420) {
        self.jpegQuality = jpegQuality
        self.jpegSubsampling = jpegSubsampling
        self.jpegProgressive = jpegProgressive
        self.interlaced = interlaced
        self.tiffCompression = tiffCompression
        self.tiffPlanar = tiffPlanar
        self.bmpTopDown = bmpTopDown
        self.writeOrientation = writeOrientation
        self.pngCompression = pngCompression
        self.webpQuality = webpQuality
        self.heifQuality = heifQuality
        self.heifBitDepth = heifBitDepth
        self.heifLossyChroma = heifLossyChroma
    }
}

/// JPEG chroma subsampling, named by the J:a:b ratio.
public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable, Codable {
    /// No subsampling (1×1 chroma).
    case s444 = "4:4:4"
    /// Half horizontal chroma resolution (2×1).
    case s422 = "4:2:2"
    /// Half horizontal and vertical chroma resolution (2×2).
    case s420 = "4:2:0"
    /// Half vertical resolution (1×2).
    case s440 = "4:4:0"
}

/// TIFF compression schemes the encoder writes.
public enum TIFFCompression: String, Sendable, Hashable, CaseIterable, Codable {
    case none, lzw, deflate
}

/// How hard the PNG encoder compresses.
public enum PNGCompression: String, Sendable, Hashable, CaseIterable, Codable {
    /// zlib's run-length strategy with the Paeth filter for 8/16-bit gray and colour: about 2.5×
    /// faster than libpng's defaults, at the same size on photographs (a little larger on flat
    /// graphics). Palette and low-bit images use zlib's default matching.
    case fast
    /// zlib level 9 with libpng's adaptive filter choice per row.
    case smallest
}
