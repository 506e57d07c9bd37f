import CImageShim

/// ICC profiles made by Little CMS from what defines an RGB space.
public enum ICCProfileBuilder {
    /// A tone curve from stored value to linear light, both 0…1, as the ICC parametric function
    /// of type 3: `(a·x + b)^gamma` for `x ≥ d`, `c·x` below.
    public struct ToneCurve: Sendable, Hashable {
        public var gamma: Double, a: Double, b: Double, c: Double, d: Double

        public init(gamma: Double, a: Double, b: Double, c: Double, d: Double) {
            (self.gamma, self.a, self.b, self.c, self.d) = (gamma, a, b, c, d)
        }

        /// The pure power `x^gamma` (PNG gAMA states 1 / gamma).
        public static func power(_ gamma: Double) -> ToneCurve { ToneCurve(gamma: gamma, a: 1, b: 0, c: 0, d: 0) }
        /// The sRGB decoding curve (IEC 61966-2-1).
        public static let sRGB = ToneCurve(gamma: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045)
        /// The inverse of the Rec. 709 camera curve `1.099·L^0.45 − 0.099` (linear `4.5·L` below 0.018),
        /// the decoding H.273 gives transfer codes 1, 6, 14 and 15.
        public static let rec709 = ToneCurve(gamma: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081)
    }

    /// A matrix/TRC display profile of white `white` and primaries `primaries` (CIE 1931 x, y:
    /// red, green, blue) with the pure power tone curve `gamma` on every channel (what PNG's gAMA
    /// and cHRM chunks state); `nil` when Little CMS refuses the values.
    public static func rgb(white: (Double, Double), primaries: [(Double, Double)], gamma: Double) -> [UInt8]? {
        rgb(white: white, primaries: primaries, curve: .power(gamma))
    }

    /// A matrix/TRC display profile of white `white` and primaries `primaries` (CIE 1931 x, y:
    /// red, green, blue) with the tone curve `curve` on every channel, dated 2000-01-01 so the
    /// same values give the same bytes; `nil` when Little CMS refuses the values.
    /// `description` names the profile (the profile description tag; Little CMS's own when `nil`);
    /// `version2` writes an ICC v2.1 profile (its curves as `curv` tables) instead of v4.3.
    public static func rgb(white: (Double, Double), primaries: [(Double, Double)], curve: ToneCurve,
                           description: String? = nil, version2: Bool = false) -> [UInt8]? {
        guard primaries.count == 3 else { return nil }
        return display(gray: false, white: white, primaries: primaries.flatMap { [$0.0, $0.1] }, curve: curve, description: description,
                       version2: version2)
    }

    /// A gray display profile of white `white` (CIE 1931 x, y) and tone curve `curve`, dated as
    /// ``rgb(white:primaries:curve:)``; `nil` when Little CMS refuses the values.
    public static func gray(white: (Double, Double), curve: ToneCurve, description: String? = nil) -> [UInt8]? {
        display(gray: true, white: white, primaries: [0.64, 0.33, 0.30, 0.60, 0.15, 0.06], curve: curve, description: description)
    }

    /// A CMYK output profile (ICC v4.3, PCS Lab) whose colours are `prints(c, m, y, k)`: the sRGB
    /// colour (0…1 per channel) each ink amount (0…1; 0 is no ink) prints as, sampled on a
    /// `grid`⁴ table (2…33 points an axis) that Little CMS interpolates, dated as
    /// ``rgb(white:primaries:curve:)``; `nil` when Little CMS cannot build it.
    public static func cmyk(grid: Int = 11, prints: (Double, Double, Double, Double) -> (Double, Double, Double)) -> [UInt8]? {
        guard (2...33).contains(grid) else { return nil }
        var table: [UInt16] = []
        table.reserveCapacity(grid * grid * grid * grid * 3)
        let step = 1 / Double(grid - 1)
        for c in 0..<grid {
            for m in 0..<grid {
                for y in 0..<grid {
                    for k in 0..<grid {
                        let rgb = prints(Double(c) * step, Double(m) * step, Double(y) * step, Double(k) * step)
                        table += [rgb.0, rgb.1, rgb.2].map { UInt16((min(max($0.isFinite ? $0 : 0, 0), 1) * 65535).rounded()) }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: 1 << 20)
        let size = table.withUnsafeBufferPointer { t in imglab_cms_cmyk_profile(Int32(grid), t.baseAddress, &out, out.count) }
        return dated(out, size: size)
    }

    /// The first `size` bytes of `out` with Little CMS's creation time replaced by 2000-01-01
    /// 00:00:00 (header bytes 24–35, six big-endian 16-bit numbers), so the same values give the
    /// same bytes on every run; `nil` for a size too small to be a profile.
    static func dated(_ out: [UInt8], size: Int) -> [UInt8]? {
        guard size >= 128, size <= out.count else { return nil }
        var bytes = Array(out.prefix(size))
        bytes.replaceSubrange(24..<36, with: [0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0] as [UInt8])
        return bytes
    }

    static func display(gray: Bool, white: (Double, Double), primaries flat: [Double], curve: ToneCurve, description: String?,
                        version2: Bool = false) -> [UInt8]? {
        guard ([white.0, white.1, curve.gamma, curve.a, curve.b, curve.c, curve.d] + flat).allSatisfy(\.isFinite) else { return nil }
        let parameters = [curve.gamma, curve.a, curve.b, curve.c, curve.d]
        var out = [UInt8](repeating: 0, count: 65536)
        let size = flat.withUnsafeBufferPointer { p in
            parameters.withUnsafeBufferPointer { c in
                imglab_cms_display_profile(gray ? 1 : 0, white.0, white.1, p.baseAddress, c.baseAddress,
                                           description.map { String($0.unicodeScalars.filter(\.isASCII)) }, version2 ? 1 : 0,
                                           &out, out.count)
            }
        }
        return dated(out, size: size)
    }
}
