import Testing
import ImageCore
import ImageCodecs
import ImageResize

/// A CMYK image with an alpha channel (TIFF `ExtraSamples`) keeps its alpha through a resize:
/// the result is straight RGBA, not RGB.
@Suite("CMYK with alpha")
struct CMYKAlphaTests {
    /// 32 × 8 CMYK + alpha, 8-bit: the left 16 columns transparent over a stored red
    /// (C 0, M 255, Y 255, K 0), the right 16 opaque blue (C 255, M 255, Y 0, K 0).
    static func source(bits: Int) throws -> Image {
        let format = PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: bits, alphaInfo: .last)
        var bytes: [UInt8] = []
        for _ in 0..<8 {
            for x in 0..<32 {
                let samples: [UInt16] = x < 16 ? [0, 0xFFFF, 0xFFFF, 0, 0] : [0xFFFF, 0xFFFF, 0, 0, 0xFFFF]
                for s in samples { bytes += bits == 16 ? [UInt8(s & 0xFF), UInt8(s >> 8)] : [UInt8(s >> 8)] }  // 0 and 0xFFFF read alike in either byte order
            }
        }
        return Image(bitmap: try Bitmap(width: 32, height: 8, format: format, bytes: bytes))
    }

    @Test("a resized CMYK + alpha image has alpha: 0 far inside the transparent half, 255 far inside the opaque half",
          arguments: [8, 16])
    func alphaSurvivesResize(bits: Int) throws {
        let result = try Self.source(bits: bits).resized(width: 16, height: 4, contentMode: .scaleToFill)
        #expect(result.bitmap.format.alphaInfo.hasAlpha)
        #expect(result.bitmap.format.bitsPerComponent == bits)
        let rgba = try result.bitmap.converted(to: .rgba8)
        // Output column i covers source columns 2i, 2i+1; Lanczos 3 at scale 2 reaches 6 source
        // pixels, so columns 0–4 see only the transparent half and 11–15 only the opaque one.
        for y in 0..<4 {
            for x in 0..<5 { #expect(rgba.bytes[(y * 16 + x) * 4 + 3] == 0) }
            for x in 11..<16 {
                // Naive CMYK → RGB of (255, 255, 0, 0) is blue: (0, 0, 255).
                let p = (y * 16 + x) * 4
                let pixel = Array(rgba.bytes[p..<(p + 4)])
                #expect(pixel == [0, 0, 255, 255])
            }
        }
    }
}

/// Operations that add alpha (a transparent border, rounded corners) to a CMYK image with a profile convert its inks
/// to sRGB through the profile first, as a resize does: the colours are the profile's, not the naive inversion.
@Suite("CMYK with a profile, given alpha")
struct CMYKProfileAlphaTests {
    /// What the test profile says each ink amount (0…1) prints as, in sRGB 0…1: not the naive (1 − c)(1 − k).
    static func prints(_ c: Double, _ m: Double, _ y: Double, _ k: Double) -> (Double, Double, Double) {
        ((1 - 0.8 * c) * (1 - 0.9 * k), (1 - 0.7 * m) * (1 - 0.9 * k), (1 - 0.6 * y) * (1 - 0.9 * k))
    }

    @Test("a transparent border and rounded corners show a tagged CMYK image's inks as its profile prints them",
          arguments: [0, 4])
    func alphaOperationsRenderThroughTheProfile(border: Int) throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        let inks: [UInt8] = [128, 51, 0, 26]  // C 0.5, M 0.2, Y 0, K 0.1
        let bitmap = try Bitmap(width: 12, height: 8, format: .cmyk8, bytes: Array((0..<96).map { _ in inks }.joined()))
        let image = Image(bitmap: bitmap, metadata: ImageMetadata(iccProfile: profile))
        let printed = Self.prints(128 / 255, 51 / 255, 0, 26 / 255)
        let expected = [printed.0, printed.1, printed.2].map { Int(($0 * 255).rounded()) }
        for out in [try image.transparentBorder(width: border), try image.roundedCorners(radius: 2, border: border)] {
            let rgba = try out.bitmap.converted(to: .rgba8)
            let centre = ((rgba.height / 2) * rgba.width + rgba.width / 2) * 4
            let shown = (0..<3).map { Int(rgba.bytes[centre + $0]) }
            #expect(zip(shown, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(shown) vs \(expected)")
            #expect(out.metadata.iccProfile == nil && rgba.bytes[centre + 3] == 255)
        }
    }
}
