import Foundation
import ImageCore
import ImageCodecs

/// How a tagged corpus encoding states colours other than sRGB's (B14: a profile dropped or not
/// applied), and the stored values that show a given sRGB colour under that statement. The
/// values come from the definition of the space (``DisplaySpace``'s textbook arithmetic, an
/// analytic ink model for CMYK), never from Little CMS, so a reader that applies the statement
/// wrongly cannot agree with them by accident. The scene and its oracles stay in sRGB.
public enum TaggedColours: Hashable, Sendable {
    /// An ICC profile built by Little CMS from `space` (matrix/TRC, or gray), named `name`,
    /// ICC v2.1 (`curv` tables) when `version2`, else v4.3 (parametric curves).
    case profile(DisplaySpace, name: String, version2: Bool)
    /// PNG gAMA alone (no cHRM, so sRGB's primaries): stored = linear^(1/γ), the chunk holding 1/γ.
    case gamma(Double)
    /// PNG cICP: H.273 colour primaries and transfer codes (RGB, full range), of the space `space`.
    case codingPoints(primaries: UInt8, transfer: UInt8, space: DisplaySpace)
    /// A CMYK output profile of a press with dot gain: the sRGB value each channel shows is
    /// `((1 − ink) · (1 − k))^gain` (red from cyan, green from magenta, blue from yellow), so the
    /// plain reading `(1 − ink) · (1 − k)` is visibly lighter; stored without black (k = 0).
    case inks(gain: Double)

    /// The RGB or gray space the statement describes; `nil` for CMYK inks.
    public var space: DisplaySpace? {
        switch self {
        case .profile(let space, _, _): return space
        case .gamma(let g): return DisplaySpace(white: DisplaySpace.d65, primaries: DisplaySpace.srgbPrimaries, curve: .gamma(g))
        case .codingPoints(_, _, let space): return space
        case .inks: return nil
        }
    }

    /// The words of the manifest and the reports: what the file states its colours by.
    public var words: String {
        switch self {
        case .profile(_, let name, let version2): return "ICC profile “\(name)” (v\(version2 ? "2.1" : "4.3"))"
        case .gamma(let g): return String(format: "PNG gAMA %.5f (γ %g), no cHRM", 1 / g, g)
        case .codingPoints(let p, let t, _): return "PNG cICP \(p)/\(t)/0/1"
        case .inks(let gain): return "ICC profile “\(Self.inksName(gain))” (v4.3, CMYK)"
        }
    }

    static func inksName(_ gain: Double) -> String { String(format: "imglab press, dot gain ^%g", gain) }

    /// The metadata a file carries to state the colours.
    /// - Throws: ``CorpusGenerationError`` (for case `caseID`) when Little CMS cannot build the profile.
    public func metadata(caseID: String) throws(CorpusGenerationError) -> ImageMetadata {
        switch self {
        case .profile(let space, let name, let version2):
            let curve: ICCProfileBuilder.ToneCurve
            switch space.curve {
            case .srgb: curve = .sRGB
            case .gamma(let g): curve = .power(g)
            case .rec709: curve = .rec709
            }
            let white = (space.white[0], space.white[1])
            let bytes = space.primaries.map { p in
                ICCProfileBuilder.rgb(white: white, primaries: p.map { ($0[0], $0[1]) }, curve: curve, description: name, version2: version2)
            } ?? ICCProfileBuilder.gray(white: white, curve: curve, description: name)
            guard let bytes else { throw CorpusGenerationError(caseID: caseID, reason: "Little CMS cannot build the profile \(name)") }
            return ImageMetadata(iccProfile: bytes)
        case .gamma(let g):
            return ImageMetadata(gamma: 1 / g)
        case .codingPoints(let p, let t, _):
            return ImageMetadata(codingPoints: [p, t, 0, 1])
        case .inks(let gain):
            guard let bytes = Self.inkProfiles.first(where: { $0.gain == gain })?.bytes ?? Self.inkProfile(gain) else {
                throw CorpusGenerationError(caseID: caseID, reason: "Little CMS cannot build the CMYK profile")
            }
            return ImageMetadata(iccProfile: bytes)
        }
    }

    /// The CMYK profiles of the catalogue's gains, built once (an 11⁴ table each).
    static let inkProfiles: [(gain: Double, bytes: [UInt8]?)] = [(1.6, inkProfile(1.6))]

    static func inkProfile(_ gain: Double) -> [UInt8]? {
        ICCProfileBuilder.cmyk { c, m, y, k in
            (pow((1 - c) * (1 - k), gain), pow((1 - m) * (1 - k), gain), pow((1 - y) * (1 - k), gain))
        }
    }

    /// The stored values that show the sRGB colour `srgb` (encoded, 0…1 per channel): RGB, one
    /// gray value, or CMYK inks (0…1, 0 = no ink, k = 0).
    public func stored(showing srgb: [Double]) -> [Double] {
        if case .inks(let gain) = self {
            return srgb.map { 1 - pow(min(max($0, 0), 1), 1 / gain) } + [0]
        }
        return space?.stored(showing: srgb) ?? srgb
    }

    /// `float` (``PixelFormat/rgbaFloat``: straight, sRGB-encoded) with each pixel's colour
    /// replaced by the stored values that show it (a gray value in all three channels), alpha
    /// kept; for CMYK inks, a plain ``PixelFormat/cmyk8`` bitmap of the inks.
    func storing(_ float: Bitmap) -> Bitmap {
        let w = float.width, h = float.height
        var out = float
        var inks = [UInt8](repeating: 0, count: self.isCMYK ? w * h * 4 : 0)
        float.bytes.withUnsafeBytes { raw in
            out.bytes.withUnsafeMutableBytes { o in
                for y in 0..<h {
                    for x in 0..<w {
                        let at = y * float.bytesPerRow + 16 * x
                        // PixelFormat.rgbaFloat is host order.
                        let colour = (0..<3).map { Double(raw.loadUnaligned(fromByteOffset: at + 4 * $0, as: Float.self)) }
                        let values = stored(showing: colour)
                        if isCMYK {
                            for k in 0..<4 { inks[(y * w + x) * 4 + k] = UInt8((min(max(values[k], 0), 1) * 255).rounded()) }
                        } else {
                            for k in 0..<3 { o.storeBytes(of: Float(values[values.count == 1 ? 0 : k]), toByteOffset: at + 4 * k, as: Float.self) }
                        }
                    }
                }
            }
        }
        guard isCMYK else { return out }
        return Bitmap(uncheckedWidth: w, height: h, format: .cmyk8, bytesPerRow: w * 4, bytes: inks)
    }

    var isCMYK: Bool { if case .inks = self { return true } else { return false } }

    /// The largest change of a rendered sRGB value (0…1) per unit of one stored value, summed
    /// over the stored channels: the factor by which a stored value's rounding shows in sRGB.
    /// Sampled on a 9³ grid of sRGB colours with steps of 1/64 (`nil` for CMYK inks).
    public var renderingSlope: Double? {
        guard let space else { return nil }
        var worst = 0.0
        let h = 1.0 / 64
        for r in 0...8 {
            for g in 0...8 {
                for b in 0...8 {
                    let s = space.stored(showing: [Double(r), Double(g), Double(b)].map { $0 / 8 })
                    let base = space.render(s)
                    var sums = [0.0, 0.0, 0.0]
                    for k in s.indices {
                        var moved = s
                        moved[k] = s[k] <= 1 - h ? s[k] + h : s[k] - h
                        let next = space.render(moved)
                        for c in 0..<3 { sums[c] += abs(next[c] - base[c]) / h }
                    }
                    worst = max(worst, sums.max() ?? 0)
                }
            }
        }
        return worst
    }
}
