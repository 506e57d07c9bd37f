import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// A file that cannot hold the pixels it declares is refused as truncated before any pixel
/// buffer exists; the bounds come from the formats' coding (deflate expands at most 1032-fold;
/// a Huffman-coded JPEG spends at least one bit per MCU), so real files, however flat, pass.
@Suite("declared size against file size")
struct DeclaredSizeBoundTests {
    /// `bytes` (a PNG) with IHDR's width and height replaced and its CRC recomputed.
    static func patchedPNG(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = bytes
        let be = { (v: Int) in [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        out.replaceSubrange(16..<24, with: be(width) + be(height))
        let crc = PNGChunkList.crc(Array("IHDR".utf8), out[16..<29])
        out.replaceSubrange(29..<33, with: be(Int(crc)))
        return out
    }

    static func flat(_ width: Int, _ height: Int, _ format: PixelFormat) throws -> Image {
        Image(bitmap: try Bitmap(width: width, height: height, format: format, bytes: [UInt8](repeating: 0, count: format.minimumBytesPerRow(width: width) * height)))
    }

    @Test("a 16×16 PNG whose IHDR says 16000×16000 is truncated, named with the 1032-fold bound, by the decoder and the row reader")
    func pngBomb() throws {
        let small = try ImageCodecs.encode(Self.flat(16, 16, .rgba8), as: .png)
        let bomb = Self.patchedPNG(small, width: 16_000, height: 16_000)
        for attempt in [{ _ = try ImageCodecs.decode(bomb) }, { _ = try PNGRowReader(bytes: bomb, options: DecodeOptions()) }] {
            do {
                try attempt()
                Issue.record("decoded")
            } catch let error as DecodeError {
                guard case .truncated(.png, let reason, _) = error else { Issue.record("\(error)"); continue }
                #expect(reason.contains("IHDR declares 16000×16000 at 32 bits a pixel, at least 1024000000 bytes"), "\(reason)")
            }
        }
    }

    @Test("the flattest real PNG (all zero, 2000×2000 RGBA, zlib's best) is within deflate's bound and decodes")
    func flatPNGDecodes() throws {
        let image = try Self.flat(2000, 2000, .rgba8)
        let png = try ImageCodecs.encode(image, as: .png)
        #expect(png.count * PNGCompressionBound.maxExpansion >= 2000 * 2000 * 4 - PNGCompressionBound.maxExpansion)
        #expect(try ImageCodecs.decode(png).width == 2000)
    }

    @Test("a JPEG whose SOF says 16000×16000 in a few hundred bytes is truncated; a flat 2000×2000 JPEG decodes")
    func jpegBound() throws {
        var small = try ImageCodecs.encode(Self.flat(16, 16, .gray8), as: .jpeg)
        let sof = try #require((0..<(small.count - 1)).first { small[$0] == 0xFF && small[$0 + 1] == 0xC0 })
        small.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])  // 16000 = 0x3E80
        do {
            _ = try ImageCodecs.decode(small)
            Issue.record("decoded")
        } catch {
            guard case .truncated(.jpeg, let reason, _) = error else { Issue.record("\(error)"); return }
            // 16000 / 8 = 2000 MCUs a side for gray 1×1: 4,000,000 bits.
            #expect(reason.contains("4000000 MCUs of at least one bit each (500000 bytes)"), "\(reason)")
        }
        let flat = try ImageCodecs.encode(Self.flat(2000, 2000, .rgb8), as: .jpeg)
        #expect(try ImageCodecs.decode(flat).width == 2000)
    }
}
