import CImageShim
import ImageCore

/// What one TIFF IFD says about its image, as libtiff parsed it (TIFF 6.0 defaults applied).
///
/// Field values are the raw tag codes; ``TIFFTag`` names them. Spec: TIFF 6.0, Part 1
/// (baseline fields) and Part 2 (extensions: tiles, CMYK, YCbCr, SampleFormat).
struct TIFFDirectory: Sendable {
    var width: Int
    var height: Int
    /// BitsPerSample (258); libtiff keeps one value for all samples.
    var bitsPerSample: Int
    /// SamplesPerPixel (277), extra samples included.
    var samplesPerPixel: Int
    /// SampleFormat (339): 1 unsigned, 2 signed, 3 IEEE float, 4 undefined.
    var sampleFormat: Int
    /// PhotometricInterpretation (262); `nil` when the file has none.
    var photometric: Int?
    /// Compression (259).
    var compression: Int
    /// PlanarConfiguration (284) = 2: each sample in its own plane.
    var isPlanar: Bool
    /// FillOrder (266); libtiff reverses bits of FillOrder 2 data itself.
    var fillOrder: Int
    /// InkSet (332): 1 is CMYK.
    var inkSet: Int
    /// Orientation (274), raw; `nil` when absent.
    var orientationValue: Int?
    /// Predictor (317), when the codec has one and the tag is present.
    var predictor: Int?
    /// ExtraSamples (338): 0 unspecified, 1 associated alpha, 2 unassociated alpha.
    var extraSamples: [Int]
    var isTiled: Bool
    var isBigEndian: Bool
    var isBigTIFF: Bool
    /// RowsPerStrip (278); `UInt32.max` when absent (one strip).
    var rowsPerStrip: Int
    var tileWidth: Int
    var tileLength: Int
    var stripCount: Int
    var tileCount: Int
    /// libtiff's bytes per decoded row (of one plane when planar).
    var scanlineSize: Int
    /// libtiff's bytes per decoded tile row, and per tile.
    var tileRowSize: Int
    var tileSize: Int
    /// ColorMap (320): 2^bits entries per channel, 16-bit; only read for indices of ≤ 8 bits.
    var colorMap: (red: [UInt16], green: [UInt16], blue: [UInt16])?
    /// InterColorProfile (34675).
    var iccProfile: [UInt8]?
    /// ExifIFD (34665): the file offset of the EXIF IFD, which libtiff does not follow.
    var exifIFDOffset: Int?

    /// Copies what the C side read; the pointers in `raw` are only valid while the reader is open.
    init(_ raw: imglab_tiff_directory) {
        width = Int(raw.width)
        height = Int(raw.height)
        bitsPerSample = Int(raw.bits_per_sample)
        samplesPerPixel = Int(raw.samples_per_pixel)
        sampleFormat = Int(raw.sample_format)
        photometric = raw.has_photometric != 0 ? Int(raw.photometric) : nil
        compression = Int(raw.compression)
        isPlanar = raw.planar_config == 2
        fillOrder = Int(raw.fill_order)
        inkSet = Int(raw.ink_set)
        orientationValue = raw.has_orientation != 0 ? Int(raw.orientation) : nil
        predictor = raw.has_predictor != 0 ? Int(raw.predictor) : nil
        if let extra = raw.extra_samples, raw.extra_sample_count > 0 {
            extraSamples = UnsafeBufferPointer(start: extra, count: Int(raw.extra_sample_count)).map(Int.init)
        } else {
            extraSamples = []
        }
        isTiled = raw.is_tiled != 0
        isBigEndian = raw.is_big_endian != 0
        isBigTIFF = raw.is_bigtiff != 0
        rowsPerStrip = Int(raw.rows_per_strip)
        tileWidth = Int(raw.tile_width)
        tileLength = Int(raw.tile_length)
        stripCount = Int(raw.strip_count)
        tileCount = Int(raw.tile_count)
        scanlineSize = Int(clamping: raw.scanline_size)
        tileRowSize = Int(clamping: raw.tile_row_size)
        tileSize = Int(clamping: raw.tile_size)
        if raw.bits_per_sample <= 8, let r = raw.colormap_red, let g = raw.colormap_green, let b = raw.colormap_blue {
            let count = 1 << Int(raw.bits_per_sample)
            colorMap = (Array(UnsafeBufferPointer(start: r, count: count)),
                        Array(UnsafeBufferPointer(start: g, count: count)),
                        Array(UnsafeBufferPointer(start: b, count: count)))
        } else {
            colorMap = nil
        }
        exifIFDOffset = raw.has_exif_ifd != 0 ? Int(clamping: raw.exif_ifd_offset) : nil
        if let icc = raw.icc_profile, raw.icc_profile_size > 0 {
            iccProfile = Array(UnsafeBufferPointer(start: icc, count: Int(raw.icc_profile_size)))
        } else {
            iccProfile = nil
        }
    }

    /// The orientation tag as an ``Orientation``; `nil` when absent or outside 1…8.
    var orientation: Orientation? { orientationValue.flatMap(Orientation.init(exifValue:)) }

    /// Facts for `imglab info`: compression, photometric, planar, tiling, extra samples…
    var properties: [String: String] {
        var p: [String: String] = [
            "compression": TIFFTag.compressionName(compression),
            "photometric": photometric.map(TIFFTag.photometricName) ?? "absent",
            "planar": isPlanar ? "separate" : "contiguous",
            "tiled": isTiled ? "yes" : "no",
            "byte order": isBigEndian ? "big-endian (MM)" : "little-endian (II)",
            "sample format": TIFFTag.sampleFormatName(sampleFormat),
        ]
        if isTiled { p["tile size"] = "\(tileWidth)×\(tileLength)" }
        if !extraSamples.isEmpty { p["extra samples"] = extraSamples.map(TIFFTag.extraSampleName).joined(separator: ", ") }
        if let predictor, predictor != 1 { p["predictor"] = TIFFTag.predictorName(predictor) }
        if isBigTIFF { p["bigtiff"] = "yes" }
        if fillOrder == 2 { p["fill order"] = "LSB first" }
        if let value = orientationValue, orientation == nil { p["orientation"] = "invalid value \(value), shown as up" }
        return p
    }
}

/// Names of TIFF tag values, for properties and error messages.
enum TIFFTag {
    // PhotometricInterpretation (262).
    static let minIsWhite = 0, minIsBlack = 1, rgb = 2, palette = 3, mask = 4, separated = 5
    static let yCbCr = 6, cieLab = 8, iccLab = 9, ituLab = 10, logL = 32844, logLuv = 32845
    // Compression (259).
    static let compressionNone = 1, compressionLZW = 5, compressionOJPEG = 6, compressionAdobeDeflate = 8
    // SampleFormat (339).
    static let unsignedInteger = 1, signedInteger = 2, ieeeFloat = 3, undefinedFormat = 4
    // ExtraSamples (338).
    static let unspecifiedExtra = 0, associatedAlpha = 1, unassociatedAlpha = 2
    // Predictor (317).
    static let horizontalPredictor = 2, floatingPointPredictor = 3

    static func compressionName(_ code: Int) -> String {
        switch code {
        case 1: return "none"
        case 2: return "CCITT RLE"
        case 3: return "CCITT G3"
        case 4: return "CCITT G4"
        case 5: return "LZW"
        case 6: return "old-style JPEG"
        case 7: return "JPEG"
        case 8: return "Adobe Deflate"
        case 32771: return "CCITT RLEW"
        case 32773: return "PackBits"
        case 32809: return "ThunderScan"
        case 32946: return "Deflate"
        case 34676: return "SGILog"
        case 34677: return "SGILog24"
        case 34925: return "LZMA"
        case 50000: return "ZSTD"
        case 50001: return "WebP"
        case 50002: return "JPEG XL"
        default: return "code \(code)"
        }
    }

    static func photometricName(_ code: Int) -> String {
        switch code {
        case minIsWhite: return "MinIsWhite"
        case minIsBlack: return "MinIsBlack"
        case rgb: return "RGB"
        case palette: return "Palette"
        case mask: return "Mask"
        case separated: return "Separated"
        case yCbCr: return "YCbCr"
        case cieLab: return "CIELab"
        case iccLab: return "ICCLab"
        case ituLab: return "ITULab"
        case logL: return "LogL"
        case logLuv: return "LogLuv"
        default: return "code \(code)"
        }
    }

    static func sampleFormatName(_ code: Int) -> String {
        switch code {
        case unsignedInteger: return "unsigned integer"
        case signedInteger: return "signed integer"
        case ieeeFloat: return "IEEE float"
        case undefinedFormat: return "undefined"
        default: return "code \(code)"
        }
    }

    static func extraSampleName(_ code: Int) -> String {
        switch code {
        case unspecifiedExtra: return "unspecified"
        case associatedAlpha: return "associated alpha"
        case unassociatedAlpha: return "unassociated alpha"
        default: return "code \(code)"
        }
    }

    static func predictorName(_ code: Int) -> String {
        switch code {
        case 1: return "none"
        case horizontalPredictor: return "horizontal differencing"
        case floatingPointPredictor: return "floating point"
        default: return "code \(code)"
        }
    }
}
