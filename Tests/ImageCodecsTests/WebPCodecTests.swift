import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// WebP read against files another writer made (Pillow's own libwebp build,
/// Tests/Fixtures/webp/make_fixtures.py, whose `pixel(x, y)` the tests compute again), and
/// imglab's encoder round-tripped. The header is imglab's own reader, so it is tested even where
/// libwebp is missing; decoding and encoding skip visibly there.
@Suite("WebP codec")
struct WebPCodecTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/webp")
    static let libwebp = WebPCodec.availability.available
    static let missing = "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"

    static func fixture(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The fixture script's `pixel(x, y, frame)`.
    static func pixel(_ x: Int, _ y: Int, frame: Int = 0) -> [UInt8] {
        [UInt8((x * 8 + frame * 40) % 256), UInt8((y * 8) % 256), UInt8(((x + y) * 4) % 256), UInt8(x < 4 ? 0 : 255 - y * 4)]
    }

    static func drawn(width: Int, height: Int, frame: Int = 0) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += pixel(x, y, frame: frame) } }
        return try Bitmap(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    @Test("RIFF … WEBP is recognised by its bytes, whatever the name; RIFF of another kind is not")
    func sniffing() throws {
        #expect(ContainerFormat(sniffing: try Self.fixture("gradient-rgba-lossless.webp")) == .webp)
        #expect(ContainerFormat(sniffing: Array("RIFF\u{4}\0\0\0WAVE".utf8)) == nil)
        #expect(ContainerFormat(fileExtension: "WEBP") == .webp)
    }

    @Test("the header of each fixture: size, alpha, compression, EXIF orientation, frames and timing, without libwebp")
    func headers() throws {
        let still = try ImageCodecs.readHeader(try Self.fixture("gradient-rgba-lossless.webp"))
        #expect(still.width == 24 && still.height == 16 && still.format == .rgba8 && still.frameCount == 1)
        #expect(still.metadata.properties["compression"] == "VP8L (lossless)")
        let oriented = try ImageCodecs.readHeader(try Self.fixture("gradient-rgb-lossy-orientation-6.webp"))
        #expect(oriented.format == .rgb8 && oriented.orientation == .right)
        #expect(oriented.metadata.orientationSource == .webpExif && oriented.metadata.properties["compression"] == "VP8 (lossy)")
        let animated = try ImageCodecs.readHeader(try Self.fixture("animated-rgba-lossless.webp"))
        #expect(animated.frameCount == 3 && animated.width == 24 && animated.height == 16)
        #expect(animated.timing == AnimationTiming(loopCount: 2, delays: [0.1, 0.2, 0.3]))
    }

    @Test("a lossless RGBA file decodes to the pixels drawn, straight alpha, the colour under alpha 0 kept",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func losslessPixels() throws {
        let image = try ImageCodecs.decode(try Self.fixture("gradient-rgba-lossless.webp"))
        #expect(image.bitmap == (try Self.drawn(width: 24, height: 16)))
    }

    @Test("a lossy file with EXIF orientation 6 decodes to RGB near the drawn colours, oriented right",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func lossyOriented() throws {
        let image = try ImageCodecs.decode(try Self.fixture("gradient-rgb-lossy-orientation-6.webp"))
        #expect(image.format == .rgb8 && image.orientation == .right && image.displaySize == (16, 24))
        // Quality 90 of a smooth gradient: every sample within 24 codes of the (alpha-flattened) drawing, most within 6.
        var worst = 0, far = 0
        for y in 0..<16 {
            for x in 0..<24 {
                let p = Self.pixel(x, y)
                for c in 0..<3 {
                    let d = abs(Int(image.bitmap.bytes[y * image.bitmap.bytesPerRow + 3 * x + c]) - Int(p[c]))
                    worst = max(worst, d)
                    if d > 6 { far += 1 }
                }
            }
        }
        #expect(worst <= 24 && far < 24 * 16 * 3 / 10, "worst \(worst), \(far) samples off by more than 6")
    }

    @Test("an animation decodes to its three canvases as drawn (transparent pixels transparent black), with the file's delays and loop count",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func animationFrames() throws {
        let image = try ImageCodecs.decode(try Self.fixture("animated-rgba-lossless.webp"))
        let animation = try #require(image.animation)
        #expect(animation.loopCount == 2 && animation.frames.map(\.delay) == [0.1, 0.2, 0.3])
        // Composited over the transparent canvas, a pixel of alpha 0 is transparent black (its drawn colour is
        // not kept: Pillow's own decoder gives the same), every other pixel as drawn.
        for (k, frame) in animation.frames.enumerated() {
            var expected = try Self.drawn(width: 24, height: 16, frame: k)
            for i in stride(from: 0, to: expected.bytes.count, by: 4) where expected.bytes[i + 3] == 0 {
                expected.bytes.replaceSubrange(i..<i + 4, with: [0, 0, 0, 0])
            }
            #expect(frame.canvas == expected, "frame \(k)")
        }
        let first = try ImageCodecs.decode(try Self.fixture("animated-rgba-lossless.webp"),
                                           options: DecodeOptions(decodeAllFrames: false))
        #expect(first.animation == nil && first.bitmap == animation.frames[0].canvas)
    }

    @Test("imglab's encoder round-trips RGBA losslessly, with orientation, ICC profile and animation kept",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func roundTrip() throws {
        let bitmap = try Self.drawn(width: 24, height: 16)
        let profile = try Self.fixtureProfile()
        let still = Image(bitmap: bitmap, orientation: .leftMirrored, metadata: ImageMetadata(iccProfile: profile))
        let back = try ImageCodecs.decode(try ImageCodecs.encode(still, as: .webp))
        #expect(back.bitmap == bitmap && back.orientation == .leftMirrored && back.metadata.iccProfile == profile)
        let frames = try (0..<3).map { k in
            AnimationFrame(canvas: try Self.drawn(width: 24, height: 16, frame: k), delay: 0.05 * Double(k + 1),
                           region: PixelRect(x: 0, y: 0, width: 24, height: 16))
        }
        let moving = Image(bitmap: frames[0].canvas, animation: Animation(loopCount: 0, frames: frames))
        let decoded = try ImageCodecs.decode(try ImageCodecs.encode(moving, as: .webp))
        let animation = try #require(decoded.animation)
        #expect(animation.loopCount == 0 && animation.frames.map(\.canvas) == frames.map(\.canvas))
        #expect(animation.frames.map(\.delay) == [0.05, 0.1, 0.15])
    }

    @Test("lossy encoding at a quality stays near the source; a quality outside 0…100 is refused",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func lossyQuality() throws {
        let rgb = try Self.drawn(width: 24, height: 16).converted(to: .rgb8)
        let bytes = try ImageCodecs.encode(Image(bitmap: rgb), as: .webp, options: EncodeOptions(webpQuality: 95))
        #expect(try ImageCodecs.readHeader(bytes).metadata.properties["compression"] == "VP8 (lossy)")
        let back = try ImageCodecs.decode(bytes).bitmap
        let worst = zip(back.bytes, rgb.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 24, "worst \(worst)")
        #expect(throws: EncodeError.invalidOption("WebP quality 101 is outside 0…100")) {
            try ImageCodecs.encode(Image(bitmap: rgb), as: .webp, options: EncodeOptions(webpQuality: 101))
        }
    }

    @Test("a damaged file is a typed error naming what is wrong: chunk overrun, no bitstream, a size over the limit")
    func damagedFiles() throws {
        var file = try Self.fixture("gradient-rgba-lossless.webp")
        file[16] = 0xFF  // the VP8L chunk's size: far beyond the file
        #expect(throws: DecodeError.self) { try ImageCodecs.readHeader(file) }
        let empty = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBP".utf8)
        #expect(throws: DecodeError.malformed(.webp, reason: "no VP8 or VP8L bitstream", offset: nil)) {
            try ImageCodecs.readHeader(empty)
        }
        let limits = DecodeLimits(maxPixels: 100)
        #expect(throws: DecodeError.limitExceeded(.pixels, requested: 384, allowed: 100)) {
            try ImageCodecs.decode(try Self.fixture("gradient-rgba-lossless.webp"), options: DecodeOptions(limits: limits))
        }
    }

    @Test("the animation writer refuses what WebP cannot state: an odd offset, 'previous' disposal, a region off the canvas",
          .enabled(if: libwebp, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func animationWriterRefusals() throws {
        let sprite = try Self.drawn(width: 8, height: 8)
        func write(_ frame: APNGFrame) throws -> [UInt8] {
            try WebPAnimationWriter.encode(canvasWidth: 24, canvasHeight: 16, frames: [frame], loopCount: 0)
        }
        #expect(throws: EncodeError.invalidOption("frame 0 at (3, 2): WebP offsets are even")) {
            try write(APNGFrame(pixels: sprite, x: 3, y: 2, delay: 0.1))
        }
        #expect(throws: EncodeError.invalidOption("frame 0: WebP has no 'previous' disposal")) {
            try write(APNGFrame(pixels: sprite, x: 2, y: 2, delay: 0.1, disposal: .previous))
        }
        #expect(throws: EncodeError.invalidOption("frame 0's region 8×8+18+2 is outside the 24×16 canvas")) {
            try write(APNGFrame(pixels: sprite, x: 18, y: 2, delay: 0.1))
        }
        // A sprite at (2, 4), not blended: the canvas holds it there, transparent black elsewhere.
        let canvas = try #require(ImageCodecs.decode(try write(APNGFrame(pixels: sprite, x: 2, y: 4, delay: 0.1))).bitmap.bytes as [UInt8]?)
        for y in 0..<16 {
            for x in 0..<24 {
                let inside = (2..<10).contains(x) && (4..<12).contains(y)
                let expected = inside ? Self.pixel(x - 2, y - 4) : [0, 0, 0, 0]
                #expect(Array(canvas[(y * 24 + x) * 4..<(y * 24 + x) * 4 + 4]) == expected, "(\(x), \(y))")
            }
        }
    }

    static func fixtureProfile() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.deletingLastPathComponent().appendingPathComponent("icc/display-p3-like-v4.icc")))
    }
}
