import Foundation
import ImageCore
import ImageCodecs

/// How a resize treats the colours a file states with an ICC profile that is not sRGB's.
public enum ResizeColour: String, Sendable, Hashable, CaseIterable {
    /// The output keeps the profile; the resize averages in the profile's own linear light (its
    /// tone curves, not the sRGB curve).
    case keep
    /// The output is converted to sRGB (through the profile, Little CMS) and carries no profile.
    case srgb
}

/// The colour stages around a resize of an image tagged with a profile that is not sRGB's.
///
/// The resizer averages in linear light by decoding with the sRGB curve. For ``ResizeColour/keep``
/// the stage before the resize re-encodes each colour value `v` as `sRGB(T(v))`, where `T` is
/// the profile's tone curve of that channel (16 bits), so the resizer's decoding yields the
/// profile's linear light `T(v)`; its colorant matrix is linear and commutes with averaging. The
/// stage after maps each result back, `T⁻¹(sRGB⁻¹(w))`, at the source's depth, and re-attaches
/// the profile. For ``ResizeColour/srgb`` the stage before converts to sRGB at 16 bits
/// (``SRGBRendering``) and the stage after rounds to the source's depth.
struct ProfileLightStage {
    var mode: ResizeColour
    /// The profile's tone curves (``SRGBRendering/toneCurves(of:gray:)``), for ``ResizeColour/keep``.
    var curves: [Float]
    var gray: Bool
    var profile: [UInt8]
    /// Bits per component of the source (8 or fewer: the result is 8-bit).
    var sourceBits: Int
    /// Whether the source is CMYK (always converted to sRGB through its profile).
    var convertsInks: Bool

    /// The stage for `image`, or `nil` when it needs none: untagged, sRGB-equivalent, broken, or
    /// (``ResizeColour/keep``) a profile with lookup tables, which keeps the sRGB curve. A CMYK
    /// image is always converted to sRGB.
    init?(_ image: Image, mode: ResizeColour) {
        guard let profile = SRGBRendering.statedProfile(image) else { return nil }
        let gray: Bool
        var mode = mode
        switch image.format.colorModel {
        case .gray: gray = true
        case .rgb, .indexed: gray = false
        // CMYK is resized as RGB: its profile cannot be kept, the picture is converted to sRGB through it.
        case .cmyk: (gray, mode) = (false, .srgb)
        case .none: return nil
        }
        self.mode = mode
        self.gray = gray
        if case .cmyk = image.format.colorModel { convertsInks = true } else { convertsInks = false }
        self.profile = profile
        sourceBits = image.format.bitsPerComponent
        if mode == .keep {
            guard let curves = SRGBRendering.toneCurves(of: profile, gray: gray) else { return nil }
            self.curves = curves
        } else {
            curves = []
        }
    }

    /// Whether a streamed result carries a statement of colours other than sRGB's from its file
    /// (a CMYK file's profile stays on the RGB rows it was streamed into): then it is made again
    /// from the whole decode between the colour stages.
    static func statesColours(_ streamed: Image) -> Bool {
        SRGBRendering.statedProfile(streamed.metadata, gray: streamed.format.colorModel == .gray) != nil
    }

    /// The straight 16-bit format of the working image.
    func workingFormat(alpha: Bool) -> PixelFormat {
        PixelFormat(colorModel: gray && mode == .keep ? .gray : .rgb, bitsPerComponent: 16, alphaInfo: alpha ? .last : .none,
                    byteOrder: .little16)
    }

    /// The image the resizer reads.
    func before(_ image: Image) throws(ResizeError) -> Image {
        if mode == .srgb {
            do { return try SRGBRendering.render(image, sixteenBit: true) } catch { throw ResizeError.colour(error.reason) }
        }
        let alpha = image.format.hasAlpha
        var samples = try Self.samples(image.bitmap, format: workingFormat(alpha: alpha))
        let colours = gray ? 1 : 3, stride = colours + (alpha ? 1 : 0)
        let encode = SRGBRendering.encoded16
        curves.withUnsafeBufferPointer { curve in
            for p in 0..<(samples.count / stride) {
                for c in 0..<colours {
                    let v = Double(curve[c * 65536 + Int(samples[p * stride + c])])
                    samples[p * stride + c] = encode[Int(min(max(v, 0), 1) * 65535 + 0.5)]
                }
            }
        }
        return Self.image(samples, like: image, format: workingFormat(alpha: alpha), profile: nil)
    }

    /// The resizer's result mapped back: the profile's codes at the source's depth (16 bits when
    /// not `toSourceDepth`: a step that rounds later follows), the profile attached
    /// (``ResizeColour/keep``), or sRGB at the source's depth without one.
    func after(_ image: Image, toSourceDepth: Bool = true) throws(ResizeError) -> Image {
        let alpha = image.format.hasAlpha
        let working = PixelFormat(colorModel: mode == .keep && gray ? .gray : .rgb, bitsPerComponent: 16,
                                  alphaInfo: alpha ? .last : .none, byteOrder: .little16)
        var samples = try Self.samples(image.bitmap, format: working)
        if mode == .keep {
            let colours = gray ? 1 : 3, stride = colours + (alpha ? 1 : 0)
            for c in 0..<colours {
                let inverse = Self.inverse(Array(curves[c * 65536..<(c + 1) * 65536]))
                for p in 0..<(samples.count / stride) { samples[p * stride + c] = inverse[Int(samples[p * stride + c])] }
            }
        }
        var out = Self.image(samples, like: image, format: working, profile: mode == .keep ? profile : nil)
        if sourceBits <= 8 && toSourceDepth {
            let eight = PixelFormat(colorModel: working.colorModel, bitsPerComponent: 8, alphaInfo: alpha ? .last : .none)
            do { out.bitmap = try out.bitmap.converted(to: eight) } catch { throw ResizeError.colour("\(error)") }
        }
        return out
    }

    /// Straight 16-bit samples of `bitmap` in `format` (little-endian 16-bit words).
    static func samples(_ bitmap: Bitmap, format: PixelFormat) throws(ResizeError) -> [UInt16] {
        let wide: Bitmap
        do { wide = try bitmap.converted(to: format) } catch { throw ResizeError.colour("\(error)") }
        return wide.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    }

    static func image(_ samples: [UInt16], like image: Image, format: PixelFormat, profile: [UInt8]?) -> Image {
        let bytes = samples.withUnsafeBytes { Array($0) }
        let metadata = image.metadata.statingColours(by: profile)
        // The sizes and the format agree by construction: `samples` came from this image's pixels.
        let bitmap = (try? Bitmap(width: image.width, height: image.height, format: format, bytes: bytes)) ?? image.bitmap
        return Image(bitmap: bitmap, orientation: image.orientation, metadata: metadata, animation: image.animation)
    }

    /// For each 16-bit sRGB code `w`, the code `v` whose linear value `curve[v]` is nearest
    /// `sRGB⁻¹(w)` (the tone curve is non-decreasing; a binary search per code).
    static func inverse(_ curve: [Float]) -> [UInt16] {
        (0...65535).map { w in
            let target = Float(SRGBTransfer.toLinear(Double(w) / 65535))
            var low = 0, high = 65535
            while low < high {
                let mid = (low + high) / 2
                if curve[mid] < target { low = mid + 1 } else { high = mid }
            }
            if low > 0 && abs(curve[low - 1] - target) <= abs(curve[low] - target) { low -= 1 }
            return UInt16(low)
        }
    }
}

extension Image {
    /// `body` (a resampler that averages with the sRGB curve) applied between the colour stages
    /// of a resize (``ProfileLightStage``): a still image that states its colours other than
    /// sRGB's reaches `body` as values whose sRGB decoding is the profile's linear light
    /// (``ResizeColour/keep``) or as its sRGB rendering (``ResizeColour/srgb``), and `body`'s
    /// result is mapped back; other images reach `body` as they are.
    public func betweenColourStages(_ colour: ResizeColour, _ body: (Image) throws -> Image) throws -> Image {
        guard animation == nil, let stage = ProfileLightStage(self, mode: colour) else { return try body(self) }
        return try stage.after(try body(try stage.before(self)))
    }
}
