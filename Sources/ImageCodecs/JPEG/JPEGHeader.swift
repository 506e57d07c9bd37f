import ImageCore

/// What a JPEG's markers say before any pixel is decoded: enough for `imglab info` and for
/// planning a shrink-on-load decode (``outputSize(scaleDenominator:)``).
///
/// Read it with ``JPEGCodec/readJPEGHeader(_:)``: it costs a marker walk and libjpeg's
/// `jpeg_read_header`, no pixel memory.
public struct JPEGHeader: Sendable, Hashable {
    /// The coding process, from the SOF marker (ITU T.81 Table B.1).
    public enum Process: String, Sendable, Hashable {
        /// SOF0: baseline sequential DCT, Huffman, 8-bit.
        case baseline
        /// SOF1 / SOF9: extended sequential DCT.
        case extendedSequential = "extended sequential"
        /// SOF2 / SOF10: progressive DCT.
        case progressive
        /// SOF3 / SOF11: lossless (predictive), not decoded by imglab.
        case lossless
        /// SOF5–7 / SOF13–15: hierarchical, not decoded by imglab.
        case hierarchical
        /// SOF55 (0xF7): JPEG-LS (ITU T.87), not classic JPEG, not decoded by imglab.
        case jpegLS = "JPEG-LS"
    }

    /// The colour space libjpeg infers from the component count, JFIF and Adobe markers.
    public enum ColorSpace: String, Sendable, Hashable {
        case gray = "Gray"
        case yCbCr = "YCbCr"
        case rgb = "RGB"
        case cmyk = "CMYK"
        case ycck = "YCCK"
        /// Two components, or more than four: no standard meaning.
        case unknown = "unknown"
    }

    /// Horizontal and vertical sampling factors of one component (1…4 each).
    public struct Sampling: Sendable, Hashable {
        public var horizontal: Int
        public var vertical: Int
    }

    /// Width in pixels declared by the SOF marker.
    public var width: Int
    /// Height in pixels declared by the SOF marker.
    public var height: Int
    /// Number of components (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK).
    public var componentCount: Int
    /// Sample precision in bits (SOF P): 8, or 12 for extended files imglab does not decode.
    public var precision: Int
    /// The coding process.
    public var process: Process
    /// Whether the entropy coding is arithmetic (SOF9–11) rather than Huffman.
    public var isArithmeticCoded: Bool
    /// The colour space of the stored components.
    public var colorSpace: ColorSpace
    /// Sampling factors of the first four components.
    public var sampling: [Sampling]
    /// The Adobe APP14 transform flag (0 none, 1 YCbCr, 2 YCCK), or `nil` without the marker.
    public var adobeTransform: Int?
    /// Whether a JFIF APP0 marker is present.
    public var hasJFIF: Bool
    /// Whether libjpeg reads more than one scan (progressive, or components in separate scans),
    /// which makes it buffer every DCT coefficient of the declared size.
    public var hasMultipleScans: Bool
    /// The IJG quality of the first component's quantisation table (``JPEGQuality``), when read.
    public var quality: JPEGQuality? = nil

    /// The scale denominators libjpeg-turbo's DCT-domain scaling offers imglab.
    public static let scaleDenominators = [1, 2, 4, 8]

    /// The size a decode at 1/`d` delivers: ⌈width / d⌉ × ⌈height / d⌉ (libjpeg's
    /// `jdiv_round_up` in `jpeg_calc_output_dimensions`).
    /// - Parameter d: 1, 2, 4 or 8.
    public func outputSize(scaleDenominator d: Int) -> (width: Int, height: Int) {
        let d = max(d, 1)
        return ((width + d - 1) / d, (height + d - 1) / d)
    }

    /// The chroma subsampling as J:a:b ("4:2:0"), when the file is 3-component with equal
    /// chroma factors and luma factors that are a 4:x:x pattern; `nil` otherwise.
    public var subsamplingName: String? {
        guard componentCount == 3, sampling.count == 3, sampling[1] == sampling[2] else { return nil }
        let y = sampling[0], c = sampling[1]
        guard y.horizontal % c.horizontal == 0, y.vertical % c.vertical == 0 else { return nil }
        switch (y.horizontal / c.horizontal, y.vertical / c.vertical) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        case (4, 2): return "4:1:0"
        default: return nil
        }
    }

    /// The sampling factors as libjpeg prints them, e.g. `2x2,1x1,1x1`.
    public var samplingDescription: String {
        sampling.map { "\($0.horizontal)x\($0.vertical)" }.joined(separator: ",")
    }

    /// The pixel format a decode delivers: gray 8-bit, RGB 8-bit (from YCbCr or RGB), or
    /// 8-bit CMYK, Adobe-inverted when the APP14 marker is present (Photoshop stores 255 − ink).
    /// `nil` for colour spaces imglab does not decode.
    public var deliveredFormat: PixelFormat? {
        switch colorSpace {
        case .gray: return .gray8
        case .yCbCr, .rgb: return .rgb8
        case .cmyk, .ycck: return PixelFormat(colorModel: .cmyk(inverted: adobeTransform != nil), bitsPerComponent: 8)
        case .unknown: return nil
        }
    }

    /// Facts for `imglab info`, keyed `jpeg.*`.
    public var properties: [String: String] {
        var p: [String: String] = [
            "jpeg.process": process.rawValue,
            "jpeg.coding": isArithmeticCoded ? "arithmetic" : "Huffman",
            "jpeg.colorSpace": colorSpace.rawValue,
            "jpeg.components": String(componentCount),
            "jpeg.sampling": samplingDescription,
        ]
        if let name = subsamplingName { p["jpeg.subsampling"] = name }
        if let t = adobeTransform {
            let meaning = [0: "none: RGB or CMYK", 1: "YCbCr", 2: "YCCK"][t] ?? "unknown"
            p["jpeg.adobeTransform"] = "\(t) (\(meaning))"
        }
        if hasJFIF { p["jpeg.jfif"] = "yes" }
        if let quality {
            p["jpeg.quality"] = "\(quality.quality)" + (quality.isStandardScaling ? "" : " (nearest; not the IJG tables)")
        }
        return p
    }
}

extension JPEGHeader.Process {
    /// The process of an SOF marker's second byte.
    init(frameMarker m: UInt8) {
        switch m {
        case 0xC0: self = .baseline
        case 0xC1, 0xC9: self = .extendedSequential
        case 0xC2, 0xCA: self = .progressive
        case 0xC3, 0xCB: self = .lossless
        case 0xF7: self = .jpegLS
        default: self = .hierarchical
        }
    }
}
