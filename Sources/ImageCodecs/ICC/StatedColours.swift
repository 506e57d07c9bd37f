import Foundation
import ImageCore

/// How an image states its colours, read in the order the PNG specification (third edition,
/// §4.3) ranks the ways: cICP, then an ICC profile (PNG iCCP, JPEG APP2, TIFF, BMP, GIF), then
/// PNG's sRGB chunk, then gAMA and cHRM. Whatever the way, the statement ends as one ICC profile
/// (Little CMS builds one for the chunks), or none when the colours are sRGB's.
public struct StatedColours: Sendable, Hashable {
    /// The ICC profile that states the colours (embedded, or built from the chunks); `nil` for
    /// sRGB: untagged, the sRGB chunk, or a gAMA of 1/2.2 with sRGB's chromaticities.
    public var profile: [UInt8]?
    /// Where the statement was read, in words (`PNG cICP 12/13/0/1 (Display P3)`, `ICC profile`, …).
    public var origin: String
    /// Statements passed over, one sentence each (a cICP transfer with no ICC curve, chromaticities
    /// Little CMS refuses); empty when none was.
    public var notes: [String]

    /// The statement `metadata` makes about an image of gray (`gray`) or colour samples: a
    /// profile built from PNG chunks is a gray one for gray samples.
    public init(_ metadata: ImageMetadata, gray: Bool = false) {
        notes = []
        if let codes = metadata.codingPoints, codes.count == 4 {
            // A HEIF or AVIF nclx box is read into the same code points (HEIFCodec), its own in `properties`.
            let label = metadata.properties["nclx"].map { "HEIF nclx \($0)" } ?? "PNG cICP \(codes.map(String.init).joined(separator: "/"))"
            if let built = Self.profile(codingPoints: codes, gray: gray, description: "imglab, from " + label) {
                (profile, origin) = (built, label)
                return
            }
            notes.append("\(label) names colours with no ICC equivalent here (HDR transfer, YCbCr or limited range): ignored")
        }
        if let icc = metadata.iccProfile, !icc.isEmpty {
            (profile, origin) = (icc, Self.iccOrigin)
            return
        }
        if metadata.sRGBIntent != nil {
            (profile, origin) = (nil, "PNG sRGB chunk")
            return
        }
        guard metadata.gamma != nil || metadata.chromaticities != nil else {
            (profile, origin) = (nil, Self.untaggedOrigin)
            return
        }
        let label = "PNG " + [metadata.gamma.map { String(format: "gAMA %.5f", $0) }, metadata.chromaticities.map { _ in "cHRM" }]
            .compactMap { $0 }.joined(separator: " and ")
        if Self.isSRGBFallback(gamma: metadata.gamma, chromaticities: metadata.chromaticities) {
            (profile, origin) = (nil, label + " (sRGB's own values, read as sRGB)")
            return
        }
        let c = metadata.chromaticities ?? Self.srgbChromaticities
        // gAMA stores the encoding exponent; decoding raises to its inverse. cHRM alone keeps sRGB's curve.
        let curve = metadata.gamma.map { ICCProfileBuilder.ToneCurve.power(1 / $0) } ?? .sRGB
        let description = "imglab, from " + label
        if c.count == 8, let built = gray ? ICCProfileBuilder.gray(white: (c[0], c[1]), curve: curve, description: description)
            : ICCProfileBuilder.rgb(white: (c[0], c[1]), primaries: [(c[2], c[3]), (c[4], c[5]), (c[6], c[7])], curve: curve,
                                    description: description) {
            (profile, origin) = (built, label)
        } else {
            (profile, origin) = (nil, Self.untaggedOrigin)
            notes.append("\(label) cannot make an RGB space (Little CMS refuses the values): ignored")
        }
    }

    /// The origin of an embedded ICC profile.
    public static let iccOrigin = "ICC profile"
    /// The origin of an image that states nothing.
    public static let untaggedOrigin = "untagged (read as sRGB)"

    /// sRGB's white and primaries as cHRM lists them (white, red, green, blue; x, y).
    static let srgbChromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// Whether gAMA and cHRM are the values an sRGB writer puts beside (or instead of) the sRGB
    /// chunk: gAMA within 1 % of 1/2.2 and cHRM, when present, within 0.002 of sRGB's.
    static func isSRGBFallback(gamma: Double?, chromaticities: [Double]?) -> Bool {
        guard let gamma, abs(gamma * 2.2 - 1) <= 0.01 else { return false }
        guard let chromaticities else { return true }
        return chromaticities.count == 8 && zip(chromaticities, srgbChromaticities).allSatisfy { abs($0 - $1) <= 0.002 }
    }

    /// The profile for H.273 code points (primaries, transfer, matrix, full range), when they name
    /// full-range RGB with primaries and a transfer an ICC matrix/TRC profile can hold.
    static func profile(codingPoints codes: [UInt8], gray: Bool, description: String) -> [UInt8]? {
        guard codes[2] == 0, codes[3] == 1, let space = primaries[codes[0]], let curve = transfer(codes[1]) else { return nil }
        return gray ? ICCProfileBuilder.gray(white: space.white, curve: curve, description: description)
            : ICCProfileBuilder.rgb(white: space.white, primaries: space.rgb, curve: curve, description: description)
    }

    /// H.273 colour primaries: white and red, green, blue (CIE 1931 x, y).
    static let primaries: [UInt8: (white: (Double, Double), rgb: [(Double, Double)])] = [
        1: ((0.3127, 0.3290), [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]),        // Rec. 709, sRGB
        4: ((0.310, 0.316), [(0.67, 0.33), (0.21, 0.71), (0.14, 0.08)]),          // BT.470 System M
        5: ((0.3127, 0.3290), [(0.64, 0.33), (0.29, 0.60), (0.15, 0.06)]),        // BT.470 System B, G
        6: ((0.3127, 0.3290), [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)]),  // SMPTE 170M
        7: ((0.3127, 0.3290), [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)]),  // SMPTE 240M
        9: ((0.3127, 0.3290), [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]),  // Rec. 2020
        11: ((0.314, 0.351), [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]),   // DCI-P3
        12: ((0.3127, 0.3290), [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]), // Display P3
    ]

    /// The decoding curve of an H.273 transfer characteristic, for the ones a parametric ICC curve holds.
    static func transfer(_ code: UInt8) -> ICCProfileBuilder.ToneCurve? {
        switch code {
        case 13: return .sRGB
        case 1, 6, 14, 15: return .rec709
        case 4: return .power(2.2)
        case 5: return .power(2.8)
        case 8: return .power(1)
        default: return nil
        }
    }
}
