import Testing
import ImageCore
@testable import ImageCodecs

/// A still WebP decoded at 1/d (scale-on-load) through libwebp's rescaler, against arithmetic:
/// each output pixel is the area average of the premultiplied samples it covers, so colour under
/// α = 0 cannot reach it, and only the scaled pixels are budgeted.
@Suite("WebP scaled decode")
struct WebPScaledDecodeTests {
    static let libwebp = WebPCodec.availability.available

    /// `width × height` straight RGBA: α 0 in the left quarter (its colour `hidden`), else α from
    /// 96 to 255 and colour from the position.
    static func drawn(width: Int, height: Int, hidden: [UInt8] = [0, 0, 0]) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let alpha = x < width / 4 ? 0 : 96 + (x * 37 + y * 11) % 160
                bytes += x < width / 4 ? hidden + [0] : [UInt8(x * 9 % 256), UInt8(y * 13 % 256), UInt8((x + y) * 5 % 256), UInt8(alpha)]
            }
        }
        return try Bitmap(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    static func lossless(_ bitmap: Bitmap) throws -> [UInt8] {
        try ImageCodecs.encode(Image(bitmap: bitmap), as: .webp)
    }

    /// Premultiplied sample `c` of pixel (x, y): c·α/255 for colour, α for alpha.
    static func premultiplied(_ b: Bitmap, _ x: Int, _ y: Int, _ c: Int) -> Double {
        let p = y * b.bytesPerRow + x * 4
        let alpha = Double(b.bytes[p + 3])
        return c == 3 ? alpha : Double(b.bytes[p + c]) * alpha / 255
    }

    @Test("at 1/2 each pixel is the area average of the premultiplied samples it covers, ⌈w/2⌉ × ⌈h/2⌉, at an odd size too",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func areaAverageOfPremultipliedSamples() throws {
        let source = try Self.drawn(width: 24, height: 16)
        let scaled = try ImageCodecs.decode(try Self.lossless(source), options: DecodeOptions(webpScaleDenominator: 2))
        #expect((scaled.width, scaled.height) == (12, 8))
        #expect(scaled.metadata.properties["webp.scale"] == "1/2")
        var worst = 0.0
        for y in 0..<8 {
            for x in 0..<12 {
                for c in 0..<4 {
                    let expected = [(0, 0), (1, 0), (0, 1), (1, 1)].map { Self.premultiplied(source, 2 * x + $0.0, 2 * y + $0.1, c) }
                        .reduce(0, +) / 4
                    worst = max(worst, abs(Self.premultiplied(scaled.bitmap, x, y, c) - expected))
                }
            }
        }
        #expect(worst <= 2, "worst premultiplied difference \(worst) codes")
        // 5 × 3 at 1/2 is 3 × 2 (the rescaler maps the whole picture onto it), at 1/8 one pixel, the mean.
        var flat: [UInt8] = []
        for i in 0..<15 { flat += [UInt8(i * 17), 255 - UInt8(i * 17), 128, 255] }
        let odd = try Self.lossless(try Bitmap(width: 5, height: 3, format: .rgba8, bytes: flat))
        let half = try ImageCodecs.decode(odd, options: DecodeOptions(webpScaleDenominator: 2))
        #expect((half.width, half.height) == (3, 2))
        let one = try ImageCodecs.decode(odd, options: DecodeOptions(webpScaleDenominator: 8))
        #expect((one.width, one.height) == (1, 1))
        #expect(abs(Int(one.bitmap.bytes[0]) - 119) <= 1 && abs(Int(one.bitmap.bytes[1]) - 136) <= 1, "\(one.bitmap.bytes)")
    }

    @Test("colour under α = 0 never reaches a scaled pixel: two files differing only there decode alike at 1/2 and 1/4",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func hiddenColourStaysHidden() throws {
        let black = try Self.lossless(try Self.drawn(width: 40, height: 24))
        let red = try Self.lossless(try Self.drawn(width: 40, height: 24, hidden: [255, 0, 0]))
        #expect(black != red)
        for d in [2, 4] {
            let a = try ImageCodecs.decode(black, options: DecodeOptions(webpScaleDenominator: d)).bitmap
            let b = try ImageCodecs.decode(red, options: DecodeOptions(webpScaleDenominator: d)).bitmap
            var worst = 0.0
            for y in 0..<a.height { for x in 0..<a.width { for c in 0..<4 {
                worst = max(worst, abs(Self.premultiplied(a, x, y, c) - Self.premultiplied(b, x, y, c)))
            } } }
            #expect(worst <= 1, "1/\(d): \(worst)")
        }
    }

    @Test("the budget counts the scaled pixels: a file too big to decode whole under a limit decodes at 1/8; 1/3 is refused; an animation ignores the scale",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func budgetAndRefusals() throws {
        var bytes = [UInt8](repeating: 0, count: 800 * 600 * 3)
        for i in bytes.indices { bytes[i] = UInt8(i / 3 % 800 * 255 / 799) }
        let file = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 800, height: 600, format: .rgb8, bytes: bytes)), as: .webp)
        let limits = DecodeLimits(maxBytes: 1 << 20)  // 1 MiB: the whole decode is 1.4 MB, 1/8 is 22.5 kB
        #expect(throws: DecodeError.self) { try ImageCodecs.decode(file, options: DecodeOptions(limits: limits)) }
        let eighth = try ImageCodecs.decode(file, options: DecodeOptions(limits: limits, webpScaleDenominator: 8))
        #expect((eighth.width, eighth.height) == (100, 75))
        #expect(throws: DecodeError.unsupported(.webp, feature: "scale 1/3 (imglab scales a WebP by 1/1, 1/2, 1/4 or 1/8)")) {
            try ImageCodecs.decode(file, options: DecodeOptions(webpScaleDenominator: 3))
        }
        let animated = try WebPCodecTests.fixture("animated-rgba-lossless.webp")
        let frames = try ImageCodecs.decode(animated, options: DecodeOptions(webpScaleDenominator: 2))
        #expect((frames.width, frames.height) == (24, 16) && frames.animation?.frames.count == 3)
    }
}
