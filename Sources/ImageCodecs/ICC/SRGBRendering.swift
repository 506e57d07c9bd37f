import CImageShim
import Foundation
import ImageCore

/// An image's colours rendered in sRGB through its embedded ICC profile, by Little CMS
/// (relative colorimetric intent, the ICC's intent for matching colours across spaces; for the
/// matrix/TRC display profiles nearly every file carries it equals the perceptual one).
///
/// Only a usable profile that is not sRGB-equivalent (``ICCProfileSummary``), embedded or built
/// from PNG chunks (``StatedColours``), is applied; an untagged image, an sRGB-equivalent
/// profile and a broken one (its ``ICCProfileSummary/problem``) leave the pixels as they are,
/// read as sRGB. The rendering is RGB (or RGBA, the alpha copied) at 8 bits per component for a source of 8 bits or fewer, 16
/// otherwise, with the same orientation and no profile. CMYK images (plain or Adobe-inverted)
/// are converted through their CMYK profile by Little CMS.
public enum SRGBRendering {
    /// The 16-bit sRGB code of each linear value `i / 65535` (``SRGBTransfer/fromLinear(_:)``, rounded).
    public static let encoded16: [UInt16] = (0...65535).map { i in
        UInt16(min(max(SRGBTransfer.fromLinear(Double(i) / 65535) * 65535, 0), 65535).rounded())
    }

    /// ``encoded16`` rounded to 8 bits (÷ 257, half up): the code an 8-bit rendering stores.
    static let encoded8: [UInt8] = encoded16.map { eightBit($0) }

    /// A 16-bit code rounded to 8 bits (÷ 257, half up), as an 8-bit rendering stores it.
    @inline(__always)
    static func eightBit(_ v: UInt16) -> UInt8 { UInt8((UInt32(v) + 128) / 257) }

    /// Why a profile could not be applied: Little CMS's message, or the colour model it does
    /// not cover.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Whether `image` states colours other than sRGB's (``StatedColours``): through a usable
    /// ICC profile, embedded or built from PNG chunks, that is not sRGB-equivalent.
    public static func needsConversion(_ image: Image) -> Bool { statedProfile(image) != nil }

    /// The profile that states `image`'s colours when they are not sRGB's (``needsConversion(_:)``), else `nil`.
    /// A CMYK profile on RGB pixels (a converter that kept the profile of its CMYK source), or
    /// another profile on CMYK pixels, states nothing about them: read as untagged, as viewers do.
    public static func statedProfile(_ image: Image) -> [UInt8]? {
        guard let profile = statedProfile(image.metadata, gray: image.format.colorModel == .gray) else { return nil }
        let cmykProfile = ICCProfileSummary(profile).colorSpace == "CMYK"
        if case .cmyk = image.format.colorModel { return cmykProfile ? profile : nil }
        return cmykProfile ? nil : profile
    }

    /// The profile that states the colours of `metadata`'s image, of gray samples or not, when
    /// they are not sRGB's, else `nil`.
    public static func statedProfile(_ metadata: ImageMetadata, gray: Bool) -> [UInt8]? {
        guard let profile = StatedColours(metadata, gray: gray).profile, !profile.isEmpty else { return nil }
        let summary = ICCProfileSummary(profile)
        return summary.problem == nil && summary.isSRGBEquivalent != true ? profile : nil
    }

    /// `image` with its pixels converted to sRGB and its profile removed; `image` itself when it
    /// needs no conversion.
    /// - Throws: ``Failure`` when Little CMS cannot read the profile or build the transform, or
    ///   the image is CMYK.
    /// - Parameter sixteenBit: render at 16 bits whatever the source's depth (a resize that
    ///   follows rounds once, at its end).
    public static func render(_ image: Image, sixteenBit: Bool = false) throws(Failure) -> Image {
        guard let profile = statedProfile(image) else { return image }
        return try render(image.bitmap, profile: profile, orientation: image.orientation, metadata: image.metadata, sixteenBit: sixteenBit)
    }

    /// The pixels of `bitmap`, read as described by `profile`, converted to sRGB.
    /// - Throws: ``Failure`` as ``render(_:)``.
    public static func render(_ bitmap: Bitmap, profile: [UInt8], orientation: Orientation = .up,
                              metadata: ImageMetadata = ImageMetadata(), sixteenBit: Bool = false) throws(Failure) -> Image {
        let format = bitmap.format
        let gray: Bool
        var cmyk: Int32 = 0
        switch format.colorModel {
        case .gray: gray = true
        case .rgb, .indexed: gray = false
        case .cmyk(let inverted): (gray, cmyk) = (false, inverted ? 2 : 1)
        case .none: gray = true
        }
        let alpha = format.hasAlpha && cmyk == 0
        let channels = cmyk != 0 ? 4 : (gray ? 1 : 3) + (alpha ? 1 : 0)
        let pixels = bitmap.width * bitmap.height
        let outChannels = alpha ? 4 : 3
        let shaper = cmyk == 0 ? try MatrixShaper(profile: profile, gray: gray) : nil
        let plain = plainFormat(gray: gray, alpha: alpha)
        if let shaper, format == plain, bitmap.bytesPerRow == plain.minimumBytesPerRow(width: bitmap.width) {
            // Tightly packed 8-bit samples are read in place (each code × 257 indexes the curves) and,
            // unless 16 bits are asked for, written as the 8-bit codes ``finished`` would round them to.
            if sixteenBit {
                var out = [UInt16](repeating: 0, count: pixels * outChannels)
                bitmap.bytes.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { o in
                        shaper.convert(input, scale: 257, channels: channels, alpha: alpha, codes: encoded16, into: o)
                    }
                }
                return try finished(out, bitmap: bitmap, alpha: alpha, orientation: orientation, metadata: metadata, sixteenBit: true)
            }
            var bytes = [UInt8](repeating: 0, count: pixels * outChannels)
            bitmap.bytes.withUnsafeBufferPointer { input in
                bytes.withUnsafeMutableBufferPointer { o in
                    shaper.convert(input, scale: 257, channels: channels, alpha: alpha, codes: encoded8, into: o)
                }
            }
            do {
                let rendered = try Bitmap(width: bitmap.width, height: bitmap.height, format: alpha ? .rgba8 : .rgb8, bytes: bytes)
                return Image(bitmap: rendered, orientation: orientation, metadata: metadata.statingColours(by: nil))
            } catch {
                throw Failure(reason: "\(error)")
            }
        }
        var out = [UInt16](repeating: 0, count: pixels * outChannels)
        let samples: [UInt16]
        if cmyk != 0 {
            // The inks as stored (inverted or not) at 16 bits; Little CMS reads the inversion from the format.
            let wide = PixelFormat(colorModel: format.colorModel, bitsPerComponent: 16, alphaInfo: .none, byteOrder: .little16)
            samples = try sixteenBitSamples(bitmap, as: wide)
        } else {
            samples = try sixteenBitSamples(bitmap, gray: gray, alpha: alpha)
        }
        if let shaper {
            samples.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { o in
                    shaper.convert(input, scale: 1, channels: channels, alpha: alpha, codes: encoded16, into: o)
                }
            }
        } else {
            // A profile with lookup tables (every CMYK one): Little CMS evaluates its whole pipeline
            // for each pixel (no optimisation: its 16-bit tables are off by up to 2 ΔE00 on wide gamuts).
            var message = [CChar](repeating: 0, count: 256)
            let status = profile.withUnsafeBufferPointer { p in
                samples.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { o in
                        imglab_cms_to_srgb16(p.baseAddress, p.count, Int32(channels), cmyk, input.baseAddress,
                                             o.baseAddress, pixels, &message, message.count)
                    }
                }
            }
            guard status == 0 else { throw Failure(reason: Self.text(message)) }
        }
        return try finished(out, bitmap: bitmap, alpha: alpha, orientation: orientation, metadata: metadata, sixteenBit: sixteenBit)
    }

    /// The inverse of a rendering: `bitmap`'s colours, read as sRGB, converted into the samples
    /// `profile` describes and stored as `format` (gray, RGB or CMYK, with alpha copied when both
    /// have it), relative colorimetric; colours outside the profile's gamut are clipped. What a
    /// file tagged with `profile` stores to show `bitmap`'s colours.
    /// - Throws: ``Failure`` when Little CMS cannot read the profile, the profile is not of
    ///   `format`'s colour model, or it has no table for this direction.
    public static func encode(_ bitmap: Bitmap, into profile: [UInt8], as format: PixelFormat) throws(Failure) -> Bitmap {
        var cmyk: Int32 = 0
        let gray: Bool
        switch format.colorModel {
        case .gray: gray = true
        case .rgb: gray = false
        case .cmyk(let inverted): (gray, cmyk) = (false, inverted ? 2 : 1)
        case .indexed, .none: throw Failure(reason: "a profile's samples are gray, RGB or CMYK, not \(format)")
        }
        let alpha = format.hasAlpha && cmyk == 0
        let channels = cmyk != 0 ? 4 : (gray ? 1 : 3) + (alpha ? 1 : 0)
        let input = try sixteenBitSamples(bitmap, gray: false, alpha: alpha)
        var out = [UInt16](repeating: 0, count: bitmap.width * bitmap.height * channels)
        var message = [CChar](repeating: 0, count: 256)
        let status = profile.withUnsafeBufferPointer { p in
            input.withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    imglab_cms_from_srgb16(p.baseAddress, p.count, Int32(channels), cmyk, i.baseAddress, o.baseAddress,
                                           bitmap.width * bitmap.height, &message, message.count)
                }
            }
        }
        guard status == 0 else { throw Failure(reason: Self.text(message)) }
        let wide = PixelFormat(colorModel: format.colorModel, bitsPerComponent: 16, alphaInfo: alpha ? .last : .none, byteOrder: .little16)
        do {
            let samples = try Bitmap(width: bitmap.width, height: bitmap.height, format: wide, bytes: out.withUnsafeBytes { Array($0) })
            return try samples.converted(to: format)
        } catch {
            throw Failure(reason: "the converted samples cannot be stored as \(format): \(error)")
        }
    }

    /// The rendered sRGB values `out` (16-bit, RGB or RGBA) as an image like `bitmap`'s.
    static func finished(_ out: [UInt16], bitmap: Bitmap, alpha: Bool, orientation: Orientation, metadata: ImageMetadata,
                         sixteenBit: Bool) throws(Failure) -> Image {
        let format = bitmap.format
        // A source of 8 bits or fewer is rendered at 8 bits (each 16-bit code rounded, ÷ 257), as
        // an sRGB rendering of it would be stored; a deeper one at 16 bits.
        let rendered: Bitmap
        do {
            if format.bitsPerComponent <= 8 && !sixteenBit {
                rendered = try Bitmap(width: bitmap.width, height: bitmap.height, format: alpha ? .rgba8 : .rgb8,
                                      bytes: out.map(eightBit))
            } else {
                var bytes = [UInt8](repeating: 0, count: out.count * 2)
                for (i, v) in out.enumerated() {
                    bytes[2 * i] = UInt8(truncatingIfNeeded: v)
                    bytes[2 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                }
                let target = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: alpha ? .last : .none, byteOrder: .little16)
                rendered = try Bitmap(width: bitmap.width, height: bitmap.height, format: target, bytes: bytes)
            }
        } catch {
            throw Failure(reason: "\(error)")
        }
        return Image(bitmap: rendered, orientation: orientation, metadata: metadata.statingColours(by: nil))
    }

    /// The plain 8-bit format of gray or RGB samples, with or without a last alpha.
    static func plainFormat(gray: Bool, alpha: Bool) -> PixelFormat {
        gray ? (alpha ? PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last) : .gray8) : (alpha ? .rgba8 : .rgb8)
    }

    /// The straight samples of `bitmap`, 16 bits each, interleaved (gray or RGB, then alpha):
    /// plain 8-bit formats widened (× 257) directly, any other through ``Bitmap/converted(to:)``.
    static func sixteenBitSamples(_ bitmap: Bitmap, gray: Bool, alpha: Bool) throws(Failure) -> [UInt16] {
        let plain = plainFormat(gray: gray, alpha: alpha)
        if bitmap.format == plain {
            let rowBytes = plain.minimumBytesPerRow(width: bitmap.width)
            var samples = [UInt16](repeating: 0, count: rowBytes * bitmap.height)
            for y in 0..<bitmap.height {
                for x in 0..<rowBytes { samples[y * rowBytes + x] = UInt16(bitmap.bytes[y * bitmap.bytesPerRow + x]) * 257 }
            }
            return samples
        }
        return try sixteenBitSamples(bitmap, as: PixelFormat(colorModel: gray ? .gray : .rgb, bitsPerComponent: 16,
                                                             alphaInfo: alpha ? .last : .none, byteOrder: .little16))
    }

    /// The samples of `bitmap` converted to `format`, a 16-bit little-endian format of the same
    /// colour model or of gray or RGB.
    static func sixteenBitSamples(_ bitmap: Bitmap, as format: PixelFormat) throws(Failure) -> [UInt16] {
        let wide: Bitmap
        do { wide = try bitmap.converted(to: format) } catch { throw Failure(reason: "the pixels cannot be read as 16-bit samples: \(error)") }
        return wide.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    }

    /// The tone curves of a matrix/TRC `profile` (no lookup tables), as Little CMS evaluates
    /// them: for each channel (1 gray, 3 RGB) the linear value (0…1) of each of the 65536 16-bit
    /// codes, channel after channel; `nil` for a profile with lookup tables, a broken one, or one
    /// of another colour model. A resize in the profile's own linear light decodes with these.
    public static func toneCurves(of profile: [UInt8], gray: Bool) -> [Float]? {
        guard ICCProfileSummary(profile).problem == nil, let shaper = try? MatrixShaper(profile: profile, gray: gray) else { return nil }
        return shaper.curves
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A matrix/TRC profile (no lookup tables) converted as Little CMS converts it, by its parts:
    /// each channel's tone curve (sampled by Little CMS at the 65536 16-bit codes), the colorant
    /// matrix into the D50 PCS and out of sRGB's (`M = S⁻¹·P`, the relative colorimetric intent),
    /// clipping to 0…1 and the sRGB encoding, in double precision for each pixel.
    struct MatrixShaper {
        /// Linear values of each input code, per channel (1 gray or 3 RGB curves).
        var curves: [Float]
        /// Linear device RGB → linear sRGB, row-major; unused for gray.
        var matrix: [Double]
        var gray: Bool
        /// `nil` when the profile has lookup tables (or is not of the samples' colour model).
        init?(profile: [UInt8], gray: Bool) throws(Failure) {
            var colorants = [Double](repeating: 0, count: 9), srgb = [Double](repeating: 0, count: 9)
            var curves = [Float](repeating: 0, count: (gray ? 1 : 3) * 65536)
            var message = [CChar](repeating: 0, count: 256)
            let status = profile.withUnsafeBufferPointer { p in
                imglab_cms_matrix_shaper(p.baseAddress, p.count, gray ? 1 : 3, &colorants, &srgb, &curves, &message, message.count)
            }
            if status < 0 { throw Failure(reason: SRGBRendering.text(message)) }
            guard status == 0 else { return nil }
            self.curves = curves
            self.gray = gray
            if gray {
                matrix = []
            } else {
                guard let toSRGB = ICCTagTable.inverse(srgb) else { return nil }
                matrix = ICCTagTable.product(toSRGB, colorants)
            }
        }

        /// The buffers a band reads and writes (its own pixels only), carried into the workers.
        private struct Buffers<Sample, Output>: @unchecked Sendable {
            let input: UnsafeBufferPointer<Sample>, out: UnsafeMutableBufferPointer<Output>
            let curve: UnsafeBufferPointer<Float>, code: UnsafeBufferPointer<Output>
        }

        /// Converts `input` (`channels` 16-bit values a pixel) into `out` (RGB or RGBA), in bands
        /// of pixels on every core; each pixel's result depends on that pixel alone.
        /// `scale` turns a sample into its 16-bit code (257 for 8-bit samples, 1 for 16-bit ones);
        /// `codes` is the output code of each linear value i / 65535: ``encoded16`` for 16-bit
        /// output, ``encoded8`` for 8-bit (alpha then rounded to 8 bits alike).
        func convert<Sample: FixedWidthInteger, Output: FixedWidthInteger>(
            _ input: UnsafeBufferPointer<Sample>, scale: Int, channels: Int, alpha: Bool, codes table: [Output],
            into out: UnsafeMutableBufferPointer<Output>) {
            let pixels = input.count / channels, outChannels = alpha ? 4 : 3
            let bands = max(1, min(64, pixels / 65536))
            let gray = self.gray, eightBitOutput = Output.bitWidth == 8
            // The curves at the codes a sample can take (256 of them for 8-bit samples): a dense
            // table the samples index directly, in a few cache lines instead of scattered 257 apart.
            let codes = 65535 / scale + 1, curveCount = gray ? 1 : 3
            let dense = scale == 1 ? curves : (0..<curveCount * codes).map { curves[$0 / codes * 65536 + $0 % codes * scale] }
            // The matrix in locals: no array access per pixel.
            let m = gray ? [Double](repeating: 0, count: 9) : matrix
            let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
            dense.withUnsafeBufferPointer { curve in
                table.withUnsafeBufferPointer { code in
                    let buffers = Buffers(input: input, out: out, curve: curve, code: code)
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        let input = buffers.input, out = buffers.out, curve = buffers.curve, code = buffers.code
                        @inline(__always) func encoded(_ v: Double) -> Output { code[Int(min(max(v, 0), 1) * 65535 + 0.5)] }
                        for p in pixels * band / bands..<pixels * (band + 1) / bands {
                            let i = p * channels, o = p * outChannels
                            if gray {
                                let y = encoded(Double(curve[Int(input[i])]))
                                out[o] = y; out[o + 1] = y; out[o + 2] = y
                            } else {
                                let r = Double(curve[Int(input[i])]), g = Double(curve[codes + Int(input[i + 1])])
                                let b = Double(curve[2 * codes + Int(input[i + 2])])
                                out[o] = encoded(m0 * r + m1 * g + m2 * b)
                                out[o + 1] = encoded(m3 * r + m4 * g + m5 * b)
                                out[o + 2] = encoded(m6 * r + m7 * g + m8 * b)
                            }
                            if alpha {
                                let a = UInt16(truncatingIfNeeded: Int(input[i + channels - 1]) &* scale)
                                out[o + 3] = Output(truncatingIfNeeded: eightBitOutput ? UInt16(SRGBRendering.eightBit(a)) : a)
                            }
                        }
                    }
                }
            }
        }
    }
}
