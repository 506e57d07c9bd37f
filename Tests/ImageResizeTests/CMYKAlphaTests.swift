import Testing
import ImageCore
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
