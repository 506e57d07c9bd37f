import Testing
import ImageCore
@testable import ImageCodecs

/// APNG: files built with ``APNGWriter`` frame by frame, decoded, and compared with canvases
/// worked out by hand from the APNG spec's dispose and blend rules.
@Suite("APNG")
struct APNGTests {
    typealias RGBA = (UInt8, UInt8, UInt8, UInt8)
    static let red: RGBA = (255, 0, 0, 255), green: RGBA = (0, 255, 0, 255), blue: RGBA = (0, 0, 255, 255)
    static let clear: RGBA = (0, 0, 0, 0)

    /// An RGBA8 bitmap of one row.
    static func row(_ pixels: [RGBA]) -> Bitmap {
        let bytes = pixels.flatMap { [$0.0, $0.1, $0.2, $0.3] }
        return Bitmap(uncheckedWidth: pixels.count, height: 1, format: .rgba8, bytesPerRow: bytes.count, bytes: bytes)
    }

    /// Encodes `frames` on a 2 × 1 canvas, decodes, and returns the composited canvases' bytes.
    static func canvases(_ frames: [APNGFrame], defaultImage: Bitmap? = nil) throws -> [[UInt8]] {
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames, defaultImage: defaultImage)
        let image = try PNGCodec.decode(png, options: DecodeOptions())
        return image.animation?.frames.map(\.canvas.bytes) ?? [image.bitmap.bytes]
    }

    static func bytes(_ pixels: [RGBA]) -> [UInt8] { row(pixels).bytes }

    @Test("dispose NONE keeps the frame and blend OVER composites straight alpha")
    func disposeNoneBlendOver() throws {
        // (0,255,0,128) over (0,0,255,128): αo = 128/255 + 128/255·127/255 = 0.75196 → 192;
        // G = (128/255)/αo · 255 = 170.2 → 170; B = (128/255·127/255)/αo · 255 = 84.8 → 85.
        let frames = [APNGFrame(pixels: Self.row([Self.red, (0, 0, 255, 128)]), delay: 0.1),
                      APNGFrame(pixels: Self.row([(0, 255, 0, 128)]), x: 1, delay: 0.1, blend: .over)]
        let result = try Self.canvases(frames)
        #expect(result == [Self.bytes([Self.red, (0, 0, 255, 128)]), Self.bytes([Self.red, (0, 170, 85, 192)])])
    }

    @Test("blend OVER leaves the canvas under a transparent pixel and SOURCE replaces it")
    func blendSourceVersusOver() throws {
        let base = APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1)
        let top = Self.row([Self.clear, Self.green])
        let over = try Self.canvases([base, APNGFrame(pixels: top, delay: 0.1, blend: .over)])
        let source = try Self.canvases([base, APNGFrame(pixels: top, delay: 0.1, blend: .source)])
        #expect(over[1] == Self.bytes([Self.red, Self.green]))
        #expect(source[1] == Self.bytes([Self.clear, Self.green]))
    }

    @Test("dispose BACKGROUND clears the frame's region to transparent black before the next frame")
    func disposeBackground() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1),
                      APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 0.1, disposal: .background),
                      APNGFrame(pixels: Self.row([Self.blue]), x: 0, delay: 0.1)]
        let result = try Self.canvases(frames)
        #expect(result == [Self.bytes([Self.red, Self.red]), Self.bytes([Self.red, Self.green]), Self.bytes([Self.blue, Self.clear])])
    }

    @Test("dispose PREVIOUS restores the region to what it was before the frame")
    func disposePrevious() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1),
                      APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 0.1, disposal: .previous),
                      APNGFrame(pixels: Self.row([Self.blue]), x: 0, delay: 0.1)]
        let result = try Self.canvases(frames)
        #expect(result == [Self.bytes([Self.red, Self.red]), Self.bytes([Self.red, Self.green]), Self.bytes([Self.blue, Self.red])])
    }

    @Test("dispose PREVIOUS on the first frame acts as BACKGROUND")
    func disposePreviousFirst() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1, disposal: .previous),
                      APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 0.1)]
        let result = try Self.canvases(frames)
        #expect(result == [Self.bytes([Self.red, Self.red]), Self.bytes([Self.clear, Self.green])])
    }

    @Test("16-bit frames composite on a 16-bit canvas")
    func sixteenBit() throws {
        // (65535, 0, 0, 32768) over opaque blue: αo = 1, R = 32768/65535 → 32768, B = 32767/65535 → 32767.
        let base = Bitmap(uncheckedWidth: 1, height: 1, format: .rgba16, bytesPerRow: 8, bytes: [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        let top = Bitmap(uncheckedWidth: 1, height: 1, format: .rgba16, bytesPerRow: 8, bytes: [0xFF, 0xFF, 0, 0, 0, 0, 0x80, 0x00])
        let png = try APNGWriter.encode(canvasWidth: 1, canvasHeight: 1, frames: [
            APNGFrame(pixels: base, delay: 1), APNGFrame(pixels: top, delay: 1, blend: .over)])
        let image = try PNGCodec.decode(png, options: DecodeOptions())
        let last = try #require(image.animation?.frames.last)
        #expect(last.canvas.format == .rgba16)
        #expect(last.canvas.bytes == [0x80, 0x00, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF])
        #expect(image.metadata.storedBitDepth == 16)
    }

    @Test("timing, loop count, regions and ops are reported as written")
    func frameFacts() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.25),
                      APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 1.5, disposal: .background, blend: .over),
                      APNGFrame(pixels: Self.row([Self.blue]), delay: 0.001, disposal: .previous)]
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames, loopCount: 3)
        let image = try PNGCodec.decode(png, options: DecodeOptions())
        let animation = try #require(image.animation)
        #expect(animation.loopCount == 3)
        #expect(animation.frames.map(\.delay) == [0.25, 1.5, 0.001])
        #expect(animation.frames.map(\.region) == [PixelRect(x: 0, y: 0, width: 2, height: 1),
                                                   PixelRect(x: 1, y: 0, width: 1, height: 1),
                                                   PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(animation.frames.map(\.disposal) == [.none, .background, .previous])
        #expect(animation.frames.map(\.blend) == [.source, .over, .source])
        let header = try PNGCodec.readHeader(png, options: DecodeOptions())
        #expect(header.frameCount == 3)
    }

    @Test("a default image outside the animation is not frame 0")
    func separateDefaultImage() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 0.1),
                      APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1)]
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames, defaultImage: Self.row([Self.blue, Self.blue]))
        let image = try PNGCodec.decode(png, options: DecodeOptions())
        let canvases = try #require(image.animation).frames.map(\.canvas.bytes)
        #expect(canvases == [Self.bytes([Self.clear, Self.green]), Self.bytes([Self.red, Self.red])])
        // Frame 0 does not cover the canvas, so the image is the first composited canvas.
        #expect(image.bitmap.bytes == Self.bytes([Self.clear, Self.green]))
        #expect(image.metadata.properties["apng default image"] == "not part of the animation")
    }

    @Test("palette frames keep the stored format in Image.bitmap and composite as RGBA")
    func paletteFrames() throws {
        let palette = Palette([Palette.Entry(red: 255, green: 0, blue: 0), Palette.Entry(red: 0, green: 0, blue: 0, alpha: 0)])
        let format = PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 1)
        let first = Bitmap(uncheckedWidth: 2, height: 1, format: format, bytesPerRow: 1, bytes: [0b0000_0000])  // red, red
        let second = Bitmap(uncheckedWidth: 2, height: 1, format: format, bytesPerRow: 1, bytes: [0b1000_0000])  // clear, red
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: [
            APNGFrame(pixels: first, delay: 0.1), APNGFrame(pixels: second, delay: 0.1, disposal: .none, blend: .source)])
        let image = try PNGCodec.decode(png, options: DecodeOptions())
        #expect(image.bitmap == first)
        let canvases = try #require(image.animation).frames.map(\.canvas.bytes)
        #expect(canvases == [Self.bytes([Self.red, Self.red]), Self.bytes([Self.clear, Self.red])])
    }

    @Test("decodeAllFrames false gives frame 0 only")
    func firstFrameOnly() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1),
                      APNGFrame(pixels: Self.row([Self.green]), x: 1, delay: 0.1)]
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames)
        let image = try PNGCodec.decode(png, options: DecodeOptions(decodeAllFrames: false))
        #expect(image.animation == nil)
        #expect(image.bitmap.bytes == Self.bytes([Self.red, Self.red]))
    }

    @Test("too many frames for the limits is rejected before decoding them")
    func frameLimit() throws {
        let frames = (0..<3).map { _ in APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1) }
        let png = try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames)
        let error = try #require(throws: DecodeError.self) {
            try PNGCodec.decode(png, options: DecodeOptions(limits: DecodeLimits(maxFrames: 2)))
        }
        #expect(error == .limitExceeded(.frames, requested: 3, allowed: 2))
    }

    @Test("the writer rejects a region outside the canvas and a partial frame 0 without a default image")
    func writerValidation() {
        #expect(throws: EncodeError.self) {
            try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: [
                APNGFrame(pixels: Self.row([Self.red, Self.red]), delay: 0.1),
                APNGFrame(pixels: Self.row([Self.red, Self.red]), x: 1, delay: 0.1)])
        }
        #expect(throws: EncodeError.self) {
            try APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: [APNGFrame(pixels: Self.row([Self.red]), x: 1, delay: 0.1)])
        }
    }

    @Test("an animated Image encodes to APNG and decodes to the same canvases, delays and loop count")
    func imageRoundTrip() throws {
        let frames = [APNGFrame(pixels: Self.row([Self.red, (0, 0, 255, 128)]), delay: 0.1),
                      APNGFrame(pixels: Self.row([(0, 255, 0, 128)]), x: 1, delay: 0.2, disposal: .previous, blend: .over),
                      APNGFrame(pixels: Self.row([Self.green]), delay: 0.3, disposal: .background),
                      APNGFrame(pixels: Self.row([Self.blue]), x: 1, delay: 0.4)]
        let original = try PNGCodec.decode(APNGWriter.encode(canvasWidth: 2, canvasHeight: 1, frames: frames, loopCount: 2),
                                           options: DecodeOptions())
        let again = try PNGCodec.decode(PNGCodec.encode(original, options: EncodeOptions()), options: DecodeOptions())
        let a = try #require(original.animation), b = try #require(again.animation)
        #expect(b.frames.map(\.canvas) == a.frames.map(\.canvas))
        #expect(b.frames.map(\.delay) == a.frames.map(\.delay))
        #expect(b.frames.map(\.disposal) == a.frames.map(\.disposal))
        #expect(b.frames.dropFirst().map(\.region) == a.frames.dropFirst().map(\.region))
        #expect(b.loopCount == 2)
    }

    @Test("the delay fraction is exact for decimal delays", arguments: [(0.1, 1, 10), (1.5, 3, 2), (0.04, 1, 25), (2.0, 2, 1)])
    func delayFraction(_ seconds: Double, _ numerator: Int, _ denominator: Int) throws {
        let (n, d) = try APNGWriter.delayFraction(seconds)
        #expect(Double(n) / Double(d) == Double(numerator) / Double(denominator))
    }
}

/// Pillow's APNG test files (modelled on Philip Taylor's suite, where a correct decoder ends
/// on green): the last canvas at (0, 0) and (64, 32), as Pillow's `Tests/test_file_apng.py` asserts.
@Suite("APNG corpus")
struct APNGCorpusTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var atOrigin: [Int]
        var atCentre: [Int]
        var testDescription: String { file }
    }

    static let green = [0, 255, 0, 255], clear = [0, 0, 0, 0]
    static let expectations: [Expectation] = [
        Expectation(file: "dispose_op_none", atOrigin: green, atCentre: green),
        Expectation(file: "dispose_op_background_final", atOrigin: green, atCentre: green),
        Expectation(file: "dispose_op_background_region", atOrigin: [0, 0, 255, 255], atCentre: clear),
        Expectation(file: "dispose_op_background_before_region", atOrigin: clear, atCentre: clear),
        Expectation(file: "dispose_op_previous", atOrigin: green, atCentre: green),
        Expectation(file: "dispose_op_previous_final", atOrigin: green, atCentre: green),
        Expectation(file: "dispose_op_previous_region", atOrigin: green, atCentre: green),
        Expectation(file: "dispose_op_previous_frame", atOrigin: [255, 0, 0, 255], atCentre: green),
        Expectation(file: "blend_op_source_solid", atOrigin: green, atCentre: green),
        Expectation(file: "blend_op_source_transparent", atOrigin: clear, atCentre: clear),
        Expectation(file: "blend_op_over", atOrigin: green, atCentre: green),
        Expectation(file: "blend_op_over_near_transparent", atOrigin: green, atCentre: green),
    ]

    @Test("the last composited canvas shows what Pillow's tests expect", SharedData.needsCorpus, arguments: expectations)
    func lastCanvas(_ e: Expectation) throws {
        let path = "pillow-tests/apng/\(e.file).png"
        let bytes = try #require(Manifest.bytes(path), "\(path) is missing from the external corpus")
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        let last = image.animation?.frames.last?.canvas ?? image.bitmap
        func pixel(_ x: Int, _ y: Int) -> [Int] { last.normalizedPixel(x: x, y: y).map { Int(($0 * 255).rounded()) } }
        #expect(pixel(0, 0) == e.atOrigin)
        #expect(pixel(64, 32) == e.atCentre)
    }

    @Test("broken sequences fall back to the default image and say why", SharedData.needsCorpus)
    func brokenSequences() throws {
        let broken = Manifest.inputs.filter { $0.path.hasPrefix("pillow-tests/apng/sequence_") || $0.path.hasPrefix("pillow-tests/apng/chunk_") }
        for entry in broken where entry.path != "pillow-tests/apng/chunk_no_actl.png" {
            guard let bytes = Manifest.bytes(entry.path) else { continue }
            let image = try PNGCodec.decode(bytes, options: DecodeOptions())
            #expect(image.animation == nil, "\(entry.path)")
            #expect(image.metadata.properties["apng ignored"] != nil, "\(entry.path)")
        }
    }
}
