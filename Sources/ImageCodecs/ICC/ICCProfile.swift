import Foundation

/// The facts `imglab info` shows about an embedded ICC profile, read tolerantly: what a broken
/// profile still states is shown, and nothing in it can crash the reading.
///
/// Layout (ICC.1:2022 §7): a 128-byte header (size, CMM, version at 8, class at 12, colour
/// space at 16, PCS at 20), a tag count at 128, then 12-byte tag entries (signature, offset,
/// size). The description is tag `desc`: type `desc` (v2, ASCII) or `mluc` (v4, UTF-16BE). The
/// white point and primaries are read from `wtpt` and `rXYZ`/`gXYZ`/`bXYZ`, which a display
/// profile stores adapted to the D50 PCS; where a `chad` tag states that adaptation, it is undone,
/// so the white and primaries are the ones the profile was made with (D65 for Adobe RGB).
public struct ICCProfileSummary: Sendable, Hashable, Codable {
    /// Profile size in bytes.
    public var size: Int
    /// Version as "major.minor", e.g. "2.1" or "4.3".
    public var version: String?
    /// Data colour space signature, e.g. "RGB ", "GRAY", "CMYK".
    public var colorSpace: String?
    /// The profile description, e.g. "sRGB IEC61966-2.1".
    public var description: String?
    /// Profile class signature: `mntr` (display), `scnr` (input), `prtr` (output), `spac`
    /// (colour space), `abst`, `link`, `nmcl`.
    public var profileClass: String?
    /// Profile connection space signature: "XYZ " or "Lab ".
    public var pcs: String?
    /// The profile's white as CIE 1931 (x, y), before any chromatic adaptation to D50.
    public var white: [Double]?
    /// The red, green and blue primaries as CIE 1931 (x, y) pairs (RGB matrix/TRC profiles).
    public var primaries: [[Double]]?
    /// The tone curve of the first channel (red, or grey), in words: `gamma 2.2`, `sRGB curve`,
    /// `table of 1024 entries`, `identity`, `parametric type N`; `nil` when there is none (LUT
    /// profiles).
    public var toneCurve: String?
    /// Whether the profile gives sRGB's colours: an RGB display profile whose primaries and white
    /// are sRGB's within 0.002 in x and y and whose three curves follow the sRGB curve within
    /// 0.002 of full scale; `nil` when that cannot be told (not an RGB matrix profile).
    public var isSRGBEquivalent: Bool?
    /// Why the profile cannot be used, when it cannot: shorter than its header, its header's
    /// size disagreeing with its bytes, or no tag it needs; `nil` for a usable one.
    public var problem: String?

    /// Reads what it can; a broken profile still gives its size and its problem.
    public init(_ bytes: [UInt8]) {
        size = bytes.count
        guard bytes.count >= 132 else {
            problem = "shorter than the 132 bytes of the ICC header and tag count"
            return
        }
        if let declared = ICCTagTable.be32(bytes, 0), declared != bytes.count {
            problem = "its header declares \(declared) bytes, it has \(bytes.count)"
        }
        version = "\(bytes[8]).\(bytes[9] >> 4)"
        profileClass = String(decoding: bytes[12..<16], as: UTF8.self)
        colorSpace = String(decoding: bytes[16..<20], as: UTF8.self)
        pcs = String(decoding: bytes[20..<24], as: UTF8.self)
        let tags = ICCTagTable(bytes)
        description = tags.description()
        if String(decoding: bytes[36..<40], as: UTF8.self) != "acsp" {
            problem = "not an ICC profile: the signature 'acsp' is missing from its header"
        }
        // A v4 profile (and many v2 ones) stores the media white as D50 and the adaptation from
        // the real white in `chad`; older v2 profiles store the real white in `wtpt` and their
        // colorants adapted to D50 (Bradford, ICC.1:2001 Annex E), with no `chad`.
        let d50 = [0.9642, 1.0, 0.8249]
        let mediaWhite = tags.xyz("wtpt")
        let chad = tags.matrix("chad").flatMap(ICCTagTable.inverse)
        let whiteIsD50 = mediaWhite.map { zip($0, d50).allSatisfy { abs($0 - $1) <= 0.002 } } ?? true
        let realWhite = whiteIsD50 ? chad.map { ICCTagTable.apply($0, d50) } ?? mediaWhite : mediaWhite
        let adaptation = chad ?? realWhite.flatMap { whiteIsD50 ? nil : ICCTagTable.bradford(fromD50To: $0) }
        func unadapted(_ xyz: [Double]) -> [Double] { adaptation.map { ICCTagTable.apply($0, xyz) } ?? xyz }
        white = realWhite.flatMap(ICCTagTable.chromaticity)
        let colorants = ["rXYZ", "gXYZ", "bXYZ"].compactMap { tags.xyz($0) }
        if colorants.count == 3 {
            let xy = colorants.map(unadapted).compactMap(ICCTagTable.chromaticity)
            primaries = xy.count == 3 ? xy : nil
        }
        let curves = (colorSpace == "GRAY" ? ["kTRC"] : ["rTRC", "gTRC", "bTRC"]).map { tags.curve($0) }
        toneCurve = curves.first.flatMap { $0?.words }
        if problem == nil, colorSpace == "RGB " || colorSpace == "GRAY", tags.entries["A2B0"] == nil,
           curves.contains(where: { $0 == nil }) || (colorSpace == "RGB " && primaries == nil) {
            problem = "a \(colorSpace == "GRAY" ? "grey" : "matrix") profile without its \(colorSpace == "GRAY" ? "tone curve" : "colorants or tone curves")"
        }
        if colorSpace == "RGB ", let primaries, let white, curves.allSatisfy({ $0 != nil }) {
            let srgb: [[Double]] = [[0.64, 0.33], [0.30, 0.60], [0.15, 0.06]], d65 = [0.3127, 0.3290]
            let near = zip(primaries + [white], srgb + [d65]).allSatisfy { abs($0[0] - $1[0]) <= 0.002 && abs($0[1] - $1[1]) <= 0.002 }
            isSRGBEquivalent = near && curves.allSatisfy { $0?.followsSRGB == true }
        }
    }

    /// One line for `imglab info`: class, white, primaries, curve and the sRGB verdict.
    public var colourFacts: String {
        var parts: [String] = []
        if let profileClass { parts.append(Self.className(profileClass) + (pcs.map { ", PCS \($0.trimmingCharacters(in: .whitespaces))" } ?? "")) }
        if let white { parts.append(String(format: "white x %.4f y %.4f", white[0], white[1]) + (Self.illuminant(white).map { " (\($0))" } ?? "")) }
        if let primaries {
            parts.append("primaries " + zip(["R", "G", "B"], primaries).map { $0.0 + String(format: " %.3f %.3f", $0.1[0], $0.1[1]) }
                .joined(separator: ", "))
        }
        if let toneCurve { parts.append("tone curve " + toneCurve) }
        if let isSRGBEquivalent { parts.append(isSRGBEquivalent ? "sRGB-equivalent" : "not sRGB-equivalent") }
        return parts.joined(separator: " · ")
    }

    static func className(_ signature: String) -> String {
        switch signature {
        case "mntr": return "display profile"
        case "scnr": return "input profile"
        case "prtr": return "output profile"
        case "spac": return "colour space profile"
        case "abst": return "abstract profile"
        case "link": return "device link"
        case "nmcl": return "named colours"
        default: return "class \(signature)"
        }
    }

    /// The name of a standard white within 0.002 in x and y.
    static func illuminant(_ xy: [Double]) -> String? {
        let named: [(String, [Double])] = [("D65", [0.3127, 0.3290]), ("D50", [0.3457, 0.3585]), ("D60", [0.3217, 0.3378]),
                                           ("DCI", [0.3140, 0.3510])]
        return named.first { abs($0.1[0] - xy[0]) <= 0.002 && abs($0.1[1] - xy[1]) <= 0.002 }?.0
    }
}
