import Foundation
import ImageCore
import ImageCodecs

/// The linear light of a source that states its colours by a matrix/TRC or gray ICC profile
/// (embedded, or built from PNG gAMA/cHRM/cICP): each stored value `v` stands for the light
/// `T(v)` of the profile's tone curve `T` (Little CMS evaluates the curves; ``SRGBRendering/toneCurves(of:gray:)``),
/// and the profile's colorant matrix is linear, so a kernel averages that light directly.
///
/// For the ``KernelOracle``: ``reencoded`` stores `sRGB(T(v))` (32-bit float), whose sRGB
/// decoding is `T(v)` again, so the kernel resamples and clamps in the profile's light;
/// ``rendered(_:)`` takes the result back to profile codes, `T⁻¹`, and shows them in sRGB through
/// the profile (16 bits). Only the curves and the final rendering come from Little CMS.
struct ProfileLight {
    /// The source with the re-encoded values of the frame and no statement.
    var reencoded: Image
    var profile: [UInt8]
    var gray: Bool
    /// The tone curves, 65536 linear values (0…1) per channel.
    var curves: [Float]

    /// The light of frame `frame` of `source`, or `nil` when the source states sRGB's colours,
    /// is CMYK or indexed, or its profile has lookup tables. With `encoded`, the kernel averages
    /// the stored values themselves (a resizer that averages encoded values and keeps the
    /// statement): ``reencoded`` holds them as they are, and ``rendered(_:)`` shows the average.
    init?(_ source: Image, frame: Int, encoded: Bool = false) throws {
        guard let shown = ProfileShown(source), let curves = SRGBRendering.toneCurves(of: shown.profile, gray: shown.gray) else { return nil }
        let gray = shown.gray
        self.profile = shown.profile
        self.gray = gray
        self.curves = encoded ? [] : curves
        var still = source
        if let animation = source.animation, frame < animation.frames.count { still.bitmap = animation.frames[frame].canvas }
        still.animation = nil
        still.metadata = source.metadata.statingColours(by: nil)
        guard !encoded else {
            reencoded = still
            return
        }
        let wide = try still.bitmap.converted(to: .rgba16)
        var floats = [Float](repeating: 0, count: wide.width * wide.height * 4)
        for p in 0..<(wide.width * wide.height) {
            for c in 0..<4 {
                let o = p * 8 + 2 * c
                let code = Int(wide.bytes[o]) << 8 | Int(wide.bytes[o + 1])
                // A gray source's colour channels all hold its one value.
                floats[p * 4 + c] = c == 3 ? Float(code) / 65535
                    : Float(SRGBTransfer.fromLinear(Double(curves[(gray ? 0 : c) * 65536 + code])))
            }
        }
        let bytes = floats.withUnsafeBytes { Array($0) }
        still.bitmap = Bitmap(uncheckedWidth: wide.width, height: wide.height, format: .rgbaFloat, bytesPerRow: wide.width * 16, bytes: bytes)
        reencoded = still
    }

    /// `light` (premultiplied, in the profile's linear light) as the profile's 16-bit codes,
    /// shown in sRGB through the profile: premultiplied linear sRGB. For an average of the
    /// encoded values, ``ProfileShown/shown(_:)``.
    func rendered(_ light: OracleImage) throws -> OracleImage {
        if curves.isEmpty {
            guard let shown = ProfileShown(profile: profile, gray: gray).shown(light) else { throw ProfileLightError() }
            return shown
        }
        let count = light.width * light.height
        let channels = gray ? 2 : 4
        var codes = [UInt8](repeating: 0, count: count * channels * 2)
        for p in 0..<count {
            let a = min(max(light.pixels[p * 4 + 3], 0), 1)
            var values: [Double] = (0..<(gray ? 1 : 3)).map { c in
                a > 0 ? code(of: min(max(light.pixels[p * 4 + c] / a, 0), 1), channel: c) : 0
            }
            values.append(a * 65535)
            for (k, v) in values.enumerated() {
                let q = UInt16(min(max(v, 0), 65535).rounded())
                codes[(p * channels + k) * 2] = UInt8(q >> 8)
                codes[(p * channels + k) * 2 + 1] = UInt8(q & 0xFF)
            }
        }
        let format = gray ? PixelFormat.grayAlpha16 : .rgba16
        let bitmap = Bitmap(uncheckedWidth: light.width, height: light.height, format: format,
                            bytesPerRow: light.width * channels * 2, bytes: codes)
        let shown = try SRGBRendering.render(Image(bitmap: bitmap, metadata: ImageMetadata().statingColours(by: profile)), sixteenBit: true)
        return try OracleImage(straightSRGB: shown.bitmap)
    }

    /// The code (0…65535, fractional) whose light on channel `c`'s curve is `value`: the
    /// non-decreasing curve searched, interpolated between neighbouring codes.
    func code(of value: Double, channel c: Int) -> Double {
        let base = (gray ? 0 : c) * 65536
        var low = 0, high = 65535
        while low < high {
            let mid = (low + high) / 2
            if Double(curves[base + mid]) < value { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return 0 }
        let below = Double(curves[base + low - 1]), above = Double(curves[base + low])
        return above > below ? Double(low - 1) + (value - below) / (above - below) : Double(low)
    }
}

/// Little CMS could not show a kernel's result through the source's profile.
struct ProfileLightError: Error, CustomStringConvertible {
    var description: String { "Little CMS cannot show the kernel's result through the source's profile" }
}
