import Foundation
import Testing
import ImageCore
import ImageMetrics
@testable import ImageLab
@testable import ImageCorpus

/// The lab's counterfactual predictions on tiny synthetic sources, against values worked out by
/// hand from each hypothesis's definition (sRGB transfer function where light is averaged).
@Suite("counterfactual oracle")
struct CounterfactualOracleTests {
    /// The 16-bit straight RGBA samples of pixel (x, y) of an image (converted to RGBA16).
    static func rgba16(_ image: Image, _ x: Int, _ y: Int) throws -> [Int] {
        let b = try image.bitmap.converted(to: .rgba16)
        let o = y * b.bytesPerRow + x * 8
        return (0..<4).map { Int(b.bytes[o + 2 * $0]) << 8 | Int(b.bytes[o + 2 * $0 + 1]) }
    }

    static func counterfactual(_ list: [Counterfactual], _ id: String) throws -> Counterfactual {
        try #require(list.first { $0.id == id }, "no \(id) among \(list.map(\.id))")
    }

    /// sRGB encoding of linear light, 16-bit, rounded half up.
    static func encoded16(_ linear: Double) -> Int {
        let e = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return Int((e * 65535 + 0.5).rounded(.down))
    }

    static func gray(_ values: [UInt8], width: Int, height: Int) throws -> Image {
        Image(bitmap: try Bitmap(width: width, height: height, format: .gray8, bytes: values))
    }

    @Test("a black|white pair shrunk to one pixel: sRGB averaging gives encoded ½ (32768), linear light gives fromLinear(½), point sampling the right pixel")
    func shrinkHypotheses() throws {
        let source = try Self.gray([0, 255], width: 2, height: 1)
        let expected = try Self.gray([188], width: 1, height: 1)
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .resize(width: 1, height: 1, mode: .scaleToFill),
                                                        expected: expected)
        let srgb = try Self.counterfactual(list, "counterfactual.srgb-averaging.source")
        #expect(srgb.bugClass == "light-space")
        #expect(abs(try Self.rgba16(srgb.predicted, 0, 0)[0] - 32768) <= 1)
        // The control is the same box filter in linear light: ½ of the light.
        let control = try #require(srgb.control)
        #expect(abs(try Self.rgba16(control, 0, 0)[0] - Self.encoded16(0.5)) <= 1)
        let point = try Self.counterfactual(list, "counterfactual.point-sampling.source")
        #expect(point.bugClass == "aliasing")
        // Output pixel 0's centre (½) maps to source x = ½ · 2 = 1: the white pixel.
        #expect(try Self.rgba16(point.predicted, 0, 0)[0] == 65535)
        // The ideal form moves the expected image by the model's change: 188 → 188 + (B − C) in light.
        let ideal = try Self.counterfactual(list, "counterfactual.srgb-averaging")
        let e = SRGBTransfer.toLinear(188.0 / 255), b = SRGBTransfer.toLinear(0.5), c = 0.5
        #expect(abs(try Self.rgba16(ideal.predicted, 0, 0)[0] - Self.encoded16(e + b - c)) <= 1)
        #expect(ideal.control == nil)
        #expect(!list.contains { $0.id.hasPrefix("counterfactual.palette") || $0.id.hasPrefix("counterfactual.straight") })
    }

    @Test("point sampling takes the source pixel under each output pixel's centre: columns ⌊(i + ½) · 2⌋ = 1, 3")
    func pointSamplingColumns() throws {
        let source = try Self.gray([0, 60, 120, 240, 0, 60, 120, 240], width: 4, height: 2)
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .resize(width: 2, height: 1, mode: .scaleToFill),
                                                        expected: try Self.gray([0, 0], width: 2, height: 1))
        let point = try Self.counterfactual(list, "counterfactual.point-sampling.source")
        #expect(abs(try Self.rgba16(point.predicted, 0, 0)[0] - 60 * 257) <= 1)
        #expect(abs(try Self.rgba16(point.predicted, 1, 0)[0] - 240 * 257) <= 1)
    }

    @Test("palette transparency ignored shows the transparent entry's colour opaque; the control keeps it transparent")
    func paletteOpaque() throws {
        let palette = Palette([Palette.Entry(red: 255, green: 0, blue: 0, alpha: 0), Palette.Entry(red: 0, green: 0, blue: 255)])
        let source = Image(bitmap: try Bitmap(width: 2, height: 1, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8), bytes: [0, 1]))
        let expected = Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 0, 0, 0, 255, 255]))
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .orient, expected: expected)
        // The identity shrinks nothing: no light-space or point-sampling hypothesis.
        #expect(!list.contains { $0.id.hasPrefix("counterfactual.srgb") || $0.id.hasPrefix("counterfactual.point") })
        let cf = try Self.counterfactual(list, "counterfactual.palette-transparency-ignored.source")
        #expect(cf.bugClass == "alpha-dropped")
        #expect(try Self.rgba16(cf.predicted, 0, 0) == [65535, 0, 0, 65535])
        #expect(try Self.rgba16(cf.predicted, 1, 0) == [0, 0, 65535, 65535])
        #expect(try Self.rgba16(try #require(cf.control), 0, 0)[3] == 0)
        // The ideal form: the expected image (transparent, then blue) plus the revealed red.
        let ideal = try Self.counterfactual(list, "counterfactual.palette-transparency-ignored")
        #expect(try Self.rgba16(ideal.predicted, 0, 0) == [65535, 0, 0, 65535])
        #expect(try Self.rgba16(ideal.predicted, 1, 0) == [0, 0, 65535, 65535])
    }

    @Test("straight alpha read as premultiplied divides colour by alpha: (255, 128, 0) at α 128 → (1, 1, 0) clamped, α kept")
    func straightAsPremultiplied() throws {
        let source = Image(bitmap: try Bitmap(width: 1, height: 1, format: .rgba8, bytes: [255, 128, 0, 128]))
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .orient, expected: source)
        let cf = try Self.counterfactual(list, "counterfactual.straight-as-premultiplied.source")
        #expect(cf.bugClass == "premultiplication")
        let p = try Self.rgba16(cf.predicted, 0, 0)
        #expect(p[0] == 65535 && p[1] == 65535 && p[2] == 0 && abs(p[3] - 128 * 257) <= 1)
        // Opaque straight alpha has nothing to misread.
        let opaque = Image(bitmap: try Bitmap(width: 1, height: 1, format: .rgba8, bytes: [255, 128, 0, 255]))
        #expect(CounterfactualOracle.counterfactuals(source: opaque, frame: 0, operation: .orient, expected: opaque).isEmpty)
    }

    @Test("alpha dropped shows every pixel opaque with its stored colour: hidden magenta revealed, translucent blue made opaque; the control keeps alpha")
    func alphaDropped() throws {
        let source = Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [255, 0, 255, 0, 0, 0, 255, 128]))
        // The oracle stores no colour under α = 0.
        let expected = Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 0, 0, 0, 255, 128]))
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .orient, expected: expected)
        let cf = try Self.counterfactual(list, "counterfactual.alpha-dropped.source")
        #expect(cf.bugClass == "alpha-dropped")
        #expect(try Self.rgba16(cf.predicted, 0, 0) == [65535, 0, 65535, 65535])
        #expect(try Self.rgba16(cf.predicted, 1, 0) == [0, 0, 65535, 65535])
        #expect(try Self.rgba16(try #require(cf.control), 0, 0)[3] == 0)
        // The ideal form: E + (B − C) in premultiplied light is the revealed colour at α = 1 on both pixels.
        let ideal = try Self.counterfactual(list, "counterfactual.alpha-dropped")
        #expect(try Self.rgba16(ideal.predicted, 0, 0) == [65535, 0, 65535, 65535])
        #expect(try Self.rgba16(ideal.predicted, 1, 0) == [0, 0, 65535, 65535])
        // An indexed source has the palette hypothesis instead.
        let palette = Palette([Palette.Entry(red: 255, green: 0, blue: 0, alpha: 0), Palette.Entry(red: 0, green: 0, blue: 255)])
        let indexed = Image(bitmap: try Bitmap(width: 2, height: 1, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8), bytes: [0, 1]))
        #expect(!CounterfactualOracle.counterfactuals(source: indexed, frame: 0, operation: .orient, expected: expected)
            .contains { $0.id.hasPrefix("counterfactual.alpha-dropped") })
    }

    @Test("the reference form moves the reference resizer's output by the model's change, with the reference as control")
    func referenceForm() throws {
        let palette = Palette([Palette.Entry(red: 255, green: 0, blue: 0, alpha: 0), Palette.Entry(red: 0, green: 0, blue: 255)])
        let source = Image(bitmap: try Bitmap(width: 2, height: 1, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8), bytes: [0, 1]))
        let expected = Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 0, 0, 0, 255, 255]))
        // A reference that is green where the ideal is blue: the change (red revealed at pixel 0) is added to it.
        let reference = Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [0, 0, 0, 0, 0, 255, 0, 255]))
        let list = CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .orient, expected: expected, reference: reference)
        let cf = try Self.counterfactual(list, "counterfactual.palette-transparency-ignored.reference")
        #expect(try Self.rgba16(cf.predicted, 0, 0) == [65535, 0, 0, 65535])
        #expect(try Self.rgba16(cf.predicted, 1, 0) == [0, 65535, 0, 65535])
        #expect(try Self.rgba16(try #require(cf.control), 1, 0) == [0, 65535, 0, 65535])
        // Without a reference there is no reference form.
        #expect(!CounterfactualOracle.counterfactuals(source: source, frame: 0, operation: .orient, expected: expected).contains { $0.id.hasSuffix(".reference") })
    }
}
