import Testing
import ImageCore
import ImageResize

/// Invariants of the resampler that need no golden image.
@Suite("Resample invariants")
struct ResampleInvariantTests {
    static let sizes: [(Int, Int, Int, Int)] = [(17, 13, 5, 4), (16, 16, 33, 31), (40, 9, 7, 20), (3, 3, 1, 1), (1, 5, 4, 2), (64, 48, 31, 23)]

    static func image(_ w: Int, _ h: Int, _ space: LightSpace = .linear, _ pixel: (Int, Int) -> (Float, Float, Float, Float)) -> WorkingImage {
        var img = WorkingImage(width: w, height: h, lightSpace: space)
        for y in 0..<h {
            for x in 0..<w {
                let p = pixel(x, y), i = (y * w + x) * 4
                img.pixels[i] = p.0; img.pixels[i + 1] = p.1; img.pixels[i + 2] = p.2; img.pixels[i + 3] = p.3
            }
        }
        return img
    }

    @Test("weights of every output pixel sum to 1", arguments: Kernel.presets.map(\.name))
    func weightsSumToOne(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        for (input, output) in [(100, 7), (7, 100), (3000, 640), (5, 5), (1, 9), (9, 1)] {
            let c = Coefficients(inputSize: input, outputSize: output, kernel: kernel)
            for i in 0..<output {
                let sum = (0..<c.windows[i].count).reduce(Float(0)) { $0 + c.weights[i * c.windowSize + $1] }
                #expect(abs(sum - 1) < 1e-5, "\(kernelName) \(input)→\(output) pixel \(i)")
                #expect(c.windows[i].lowerBound >= 0 && c.windows[i].upperBound <= input)
            }
        }
    }

    @Test("a constant image stays constant", arguments: Kernel.presets.map(\.name))
    func constant(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        for (w, h, ow, oh) in Self.sizes {
            let img = Self.image(w, h) { _, _ in (0.3 * 0.6, 0.5 * 0.6, 0.9 * 0.6, 0.6) }
            let out = Resample.resample(img, width: ow, height: oh, kernel: kernel)
            for i in stride(from: 0, to: out.pixels.count, by: 4) {
                #expect(abs(out.pixels[i] - 0.18) < 1e-5 && abs(out.pixels[i + 3] - 0.6) < 1e-5)
            }
        }
    }

    @Test("colour under α = 0 never reaches the output", arguments: Kernel.presets.map(\.name))
    func hiddenColour(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        for (w, h, ow, oh) in Self.sizes {
            // Left half opaque grey; right half transparent. Premultiplied storage means the
            // transparent half holds zeros whatever "colour" a file had there.
            let img = Self.image(w, h) { x, _ in x < (w + 1) / 2 ? (0.5, 0.5, 0.5, 1) : (0, 0, 0, 0) }
            let out = Resample.resample(img, width: ow, height: oh, kernel: kernel)
            for i in stride(from: 0, to: out.pixels.count, by: 4) where out.pixels[i + 3] > 1e-4 {
                let r = out.pixels[i] / out.pixels[i + 3], g = out.pixels[i + 1] / out.pixels[i + 3], b = out.pixels[i + 2] / out.pixels[i + 3]
                #expect(abs(r - 0.5) < 1e-3 && abs(g - 0.5) < 1e-3 && abs(b - 0.5) < 1e-3, "straight colour stays grey")
            }
        }
    }

    static func flipX(_ img: WorkingImage) -> WorkingImage {
        var out = img
        for y in 0..<img.height {
            for x in 0..<img.width {
                for c in 0..<4 { out.pixels[(y * img.width + x) * 4 + c] = img.pixels[(y * img.width + img.width - 1 - x) * 4 + c] }
            }
        }
        return out
    }

    static func transpose(_ img: WorkingImage) -> WorkingImage {
        var out = WorkingImage(width: img.height, height: img.width, lightSpace: img.lightSpace)
        for y in 0..<img.height {
            for x in 0..<img.width {
                for c in 0..<4 { out.pixels[(x * img.height + y) * 4 + c] = img.pixels[(y * img.width + x) * 4 + c] }
            }
        }
        return out
    }

    static func maxDifference(_ a: WorkingImage, _ b: WorkingImage) -> Float {
        zip(a.pixels, b.pixels).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test("resize commutes with flips and transposition (no half-pixel shift)", arguments: Kernel.presets.map(\.name))
    func equivariance(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        for (w, h, ow, oh) in Self.sizes {
            let img = Self.image(w, h) { x, y in (Float((x * 7 + y * 3) % 11) / 11, Float(x % 3) / 3, Float(y % 5) / 5, 1) }
            let a = Resample.resample(Self.flipX(img), width: ow, height: oh, kernel: kernel)
            let b = Self.flipX(Resample.resample(img, width: ow, height: oh, kernel: kernel))
            // The box kernel breaks ties between two equidistant pixels one way; allow that only for nearest.
            if kernel.name != "nearest" { #expect(Self.maxDifference(a, b) < 1e-4, "flip \(w)×\(h)→\(ow)×\(oh)") }
            let t1 = Resample.resample(Self.transpose(img), width: oh, height: ow, kernel: kernel)
            let t2 = Self.transpose(Resample.resample(img, width: ow, height: oh, kernel: kernel))
            #expect(Self.maxDifference(t1, t2) < 1e-4, "transpose \(w)×\(h)→\(ow)×\(oh)")
        }
    }

    @Test("shrinking by an integer factor preserves the mean", arguments: Kernel.presets.map(\.name))
    func meanPreserved(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        let img = Self.image(60, 40) { x, y in (Float((x * 13 + y * 7) % 17) / 17, Float(y) / 40, Float(x) / 60, 1) }
        let out = Resample.resample(img, width: 20, height: 10, kernel: kernel)
        func mean(_ i: WorkingImage, _ c: Int) -> Float {
            stride(from: c, to: i.pixels.count, by: 4).reduce(Float(0)) { $0 + i.pixels[$1] } / Float(i.width * i.height)
        }
        for c in 0..<3 { #expect(abs(mean(img, c) - mean(out, c)) < 0.02, "\(kernelName) channel \(c)") }
    }

    @Test("the identity resize is lossless", arguments: Kernel.presets.map(\.name))
    func identity(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        let img = Self.image(9, 7) { x, y in (Float(x) / 9, Float(y) / 7, 0.25, 1) }
        #expect(Resample.resample(img, width: 9, height: 7, kernel: kernel) == img)
    }

    @Test("a 1-pixel black/white checker shrinks to ≈188 in linear light and ≈128 in sRGB", arguments: Kernel.presets.map(\.name))
    func checker(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        var bytes: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { bytes.append((x + y) % 2 == 0 ? 0 : 255) } }
        let bitmap = try Bitmap(width: 64, height: 64, format: .gray8, bytes: bytes)
        // Linear: the mean light 0.5 encodes to 187.5 → 188; sRGB: the mean code 127.5 → 128.
        for (space, expected) in [(LightSpace.linear, 188), (.sRGB, 128)] {
            let out = Resample.resample(WorkingImage(bitmap, lightSpace: space), width: 8, height: 8, kernel: kernel)
            let gray = try out.bitmap(format: .gray8)
            // Interior pixels only: at the edges the clamped window holds unequal shares of black and white.
            for y in 1..<7 {
                for x in 1..<7 {
                    let v = Int(gray.bytes[y * 8 + x])
                    #expect(abs(v - expected) <= 1, "\(kernelName) \(space) (\(x), \(y)) = \(v)")
                }
            }
        }
    }

    @Test("step edges stay within the input's range after conversion back to 8 bits", arguments: Kernel.presets.map(\.name))
    func stepEdgesClamp(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        let img = Self.image(20, 4) { x, _ in x < 10 ? (0, 0, 0, 1) : (1, 1, 1, 1) }
        let out = Resample.resample(img, width: 47, height: 4, kernel: kernel)
        let bitmap = try out.bitmap(format: .rgba8)
        // Ringing kernels overshoot in float; the 8-bit result must clamp, not wrap: the first
        // pixels stay black and the last stay white.
        #expect(bitmap.bytes[0] == 0 && bitmap.bytes[46 * 4] == 255)
    }
}
