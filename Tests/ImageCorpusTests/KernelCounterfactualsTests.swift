import Foundation
import Testing
import ImageCore
@testable import ImageCorpus

/// The kernel-exact oracle's bug hypotheses against hand arithmetic: the design departures
/// (wrap-around edges, a pure power curve, unclamped overshoot) and the storage departures
/// (truncation, 8-bit rounding, 8-bit premultiplication).
@Suite("Kernel counterfactuals")
struct KernelCounterfactualsTests {
    static func gray(_ values: [UInt8]) -> Image {
        Image(bitmap: Bitmap(uncheckedWidth: values.count, height: 1, format: .gray8, bytesPerRow: values.count, bytes: values))
    }

    static func stretch(_ w: Int, from sw: Int) -> OraclePlacement {
        OraclePlacement(width: w, height: 1, content: (0, 0, Double(w), 1), source: (0, 0, Double(sw), 1))
    }

    /// 16-bit straight samples of a `.rgba16` bitmap.
    static func samples(_ b: Bitmap) -> [Int] {
        stride(from: 0, to: b.bytes.count, by: 2).map { Int(b.bytes[$0]) << 8 | Int(b.bytes[$0 + 1]) }
    }

    @Test("wrap-around taps read the opposite edge: tap −1 of a 4-pixel row is pixel 3, tap 4 is pixel 0")
    func wrapTaps() {
        // Triangle halving, output pixel 0: centre 1, half-width 2: taps −1…2 at distances
        // 1.5, 0.5, 0.5, 1.5 → ¼, ¾, ¾, ¼ of 2; wrapped, tap −1 is pixel 3.
        let taps = KernelOracle.taps(inputSize: 4, start: 0, length: 4, outputSize: 2, kernel: .triangle, edge: .wrap)
        #expect(taps[0].map(\.index) == [0, 1, 2, 3] && taps[0].map(\.weight) == [0.375, 0.375, 0.125, 0.125])
        #expect(taps[1].map(\.index) == [0, 1, 2, 3] && taps[1].map(\.weight) == [0.125, 0.125, 0.375, 0.375])
    }

    @Test("a pure power 2.2 averages black and white to ½ and encodes 0.5^(1/2.2) = 0.7297, not the sRGB curve's 0.7354")
    func powerCurve() throws {
        var design = KernelOracle.Design(kernel: .box)
        design.gamma = 2.2
        let power = try KernelOracle.render(source: Self.gray([0, 255]), placement: Self.stretch(1, from: 2), design: design)
        let srgb = try KernelOracle.render(source: Self.gray([0, 255]), placement: Self.stretch(1, from: 2), kernel: .box)
        #expect(abs(power.encodedPixel(x: 0, y: 0).red - pow(0.5, 1 / 2.2)) < 1e-12)
        #expect(abs(srgb.encodedPixel(x: 0, y: 0).red - (1.055 * pow(0.5, 1 / 2.4) - 0.055)) < 1e-12)
    }

    @Test("unclamped Lanczos 3 keeps its overshoot: enlarging a step, the sample past white wraps to a code near 0 in 8 bits")
    func overshootWraps() throws {
        var design = KernelOracle.Design(kernel: .lanczos3)
        design.clampsOutput = false
        let model = try KernelOracle.render(source: Self.gray([0, 0, 255, 255]), placement: Self.stretch(8, from: 4), design: design)
        // Pixel 5: centre 2.75, taps at −2.25, −1.25, −0.25, 0.75: white's share > 1.
        #expect(model.pixels[4 * 5] > 1 && model.pixels[4 * 5 + 3] > 0)
        let wrapped = KernelCounterfactuals.stored(model, .wrapped(bits: 8))
        let code = Self.samples(wrapped)[4 * 5] / 257
        #expect(code < 20)
        // Clamped, the same pixel is white.
        let clamped = try KernelOracle.render(source: Self.gray([0, 0, 255, 255]), placement: Self.stretch(8, from: 4), kernel: .lanczos3)
        #expect(Self.samples(clamped.bitmap16())[4 * 5] == 65535)
    }

    @Test("storage: truncation ⌊v · 255 / 65535⌋, 8-bit rounding, and 8-bit premultiplication of (100, 50, 7) at α 10 → (102, 51, 0)")
    func storage() throws {
        let model = try KernelOracle.render(source: Self.gray([0, 255]), placement: Self.stretch(1, from: 2), kernel: .box)
        // ½ linear → 0.735356 → 48192 in 16 bits → 187.52 codes: truncated 187, rounded 188.
        #expect(Self.samples(model.bitmap16())[0] == 48192)
        #expect(Self.samples(KernelCounterfactuals.stored(model, .truncated8))[0] == 187 * 257)
        #expect(Self.samples(KernelCounterfactuals.stored(model, .rounded8))[0] == 188 * 257)
        let pixel = Bitmap(uncheckedWidth: 1, height: 1, format: .rgba8, bytesPerRow: 4, bytes: [100, 50, 7, 10])
        let translucent = try KernelOracle.render(source: Image(bitmap: pixel), placement: .identity(width: 1, height: 1), kernel: .lanczos3)
        #expect(Self.samples(KernelCounterfactuals.stored(translucent, .premultiplied8)) == [102 * 257, 51 * 257, 0, 10 * 257])
    }

    @Test("the hypotheses offered follow the source and the output: 16-bit, float, Adobe CMYK, 8-bit storage")
    func offered() {
        let placement = OraclePlacement(width: 2, height: 1, content: (0, 0, 2, 1), source: (0, 0, 4, 1))
        func ids(_ image: Image, output: PixelFormat?) -> Set<String> {
            Set(KernelCounterfactuals.counterfactuals(source: image, frame: 0, placement: placement, design: .init(kernel: .lanczos3), output: output).map(\.id))
        }
        let eight = ids(Self.gray([0, 255, 30, 200]), output: .gray8)
        #expect(eight.isSuperset(of: ["kernel.power-gamma", "kernel.half-pixel-x", "kernel.wrap-edges", "kernel.fixed-support", "kernel.truncation"]))
        // On a single row a vertical half-pixel shift predicts the correct output itself: left out.
        #expect(!eight.contains("kernel.half-pixel-y"))
        #expect(!eight.contains("kernel.8bit-intermediate") && !eight.contains("kernel.float-range") && !eight.contains("kernel.cmyk-inversion"))
        #expect(!ids(Self.gray([0, 255, 30, 200]), output: .gray16).contains("kernel.truncation"))
        let sixteen = Image(bitmap: Bitmap(uncheckedWidth: 4, height: 1, format: .gray16, bytesPerRow: 8, bytes: [0x12, 0x34, 0xF0, 0x0F, 0x00, 0x01, 0x80, 0x80]))
        #expect(ids(sixteen, output: .gray16).contains("kernel.8bit-intermediate"))
        let cmyk = Image(bitmap: Bitmap(uncheckedWidth: 4, height: 1, format: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8),
                                        bytesPerRow: 16, bytes: [255, 0, 255, 255, 0, 255, 255, 255, 255, 255, 0, 255, 128, 128, 128, 200]))
        #expect(ids(cmyk, output: .rgb8).contains("kernel.cmyk-inversion"))
        let floats: [Float] = [1, 0.5, 0, 0.25]
        let float = Image(bitmap: Bitmap(uncheckedWidth: 4, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true), bytesPerRow: 16,
                                         bytes: floats.flatMap { v in (0..<4).map { UInt8((v.bitPattern >> (8 * UInt32($0))) & 0xFF) } }))
        #expect(ids(float, output: nil).contains("kernel.float-range"))
    }
}
