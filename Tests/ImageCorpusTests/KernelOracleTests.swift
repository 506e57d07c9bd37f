import Foundation
import Testing
import ImageCore
@testable import ImageCorpus

/// The kernel-exact oracle against hand arithmetic: kernel definitions, tap geometry, light
/// space, edge rules and the rounded-rectangle area.
@Suite("Kernel-exact oracle")
struct KernelOracleTests {
    /// A `w × h` straight RGBA 8-bit image from a pixel function.
    static func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> Image {
        var bytes: [UInt8] = []
        for y in 0..<h { for x in 0..<w { let p = pixel(x, y); bytes += [p.0, p.1, p.2, p.3] } }
        return Image(bitmap: Bitmap(uncheckedWidth: w, height: h, format: .rgba8, bytesPerRow: w * 4, bytes: bytes))
    }

    static func stretch(_ w: Int, _ h: Int, from sw: Int, _ sh: Int) -> OraclePlacement {
        OraclePlacement(width: w, height: h, content: (0, 0, Double(w), Double(h)), source: (0, 0, Double(sw), Double(sh)))
    }

    @Test("kernels are their published definitions: interpolating kernels are 1 at 0 and 0 at other integers; Mitchell is 8/9 at 0")
    func kernelDefinitions() {
        for kernel in [DeclaredKernel.triangle, .catmullRom, .lanczos3] {
            #expect(kernel.weight(0) == 1)
            for k in 1...3 { #expect(abs(kernel.weight(Double(k))) < 1e-15 && abs(kernel.weight(Double(-k))) < 1e-15) }
        }
        // Mitchell–Netravali at B = C = 1/3: (6 − 2B)/6 = 8/9 at 0, B/6 = 1/18 at 1.
        #expect(abs(DeclaredKernel.mitchell.weight(0) - 8.0 / 9) < 1e-15)
        #expect(abs(DeclaredKernel.mitchell.weight(1) - 1.0 / 18) < 1e-15)
        // Lanczos 3 at ½: sinc(½)·sinc(⅙) = (2/π)·(sin(π/6)·6/π) = 6/π².
        #expect(abs(DeclaredKernel.lanczos3.weight(0.5) - 6 / (Double.pi * Double.pi)) < 1e-15)
        #expect(DeclaredKernel.triangle.weight(0.25) == 0.75)
        #expect(DeclaredKernel.box.weight(-0.5) == 1 && DeclaredKernel.box.weight(0.5) == 0)
    }

    @Test("halving with the triangle kernel weighs the four nearest pixels 1/8, 3/8, 3/8, 1/8")
    func triangleHalvingTaps() {
        // Output pixel 1 of 4 → 2: centre 3, widened tent of half-width 2: pixels 1…4 at
        // distances 1.5, 0.5, 0.5, 1.5 → weights 0.25, 0.75, 0.75, 0.25, normalised by 2.
        let taps = KernelOracle.taps(inputSize: 8, start: 0, length: 8, outputSize: 4, kernel: .triangle, edge: .renormalize)
        #expect(taps[1].map(\.index) == [1, 2, 3, 4])
        #expect(taps[1].map(\.weight) == [0.125, 0.375, 0.375, 0.125])
        // At the edge, renormalising drops pixel −1: 0.75, 0.75, 0.25 over 1.75.
        #expect(taps[0].map(\.index) == [0, 1, 2])
        let expected: [Double] = [3.0 / 7, 3.0 / 7, 1.0 / 7]
        let weights: [Double] = taps[0].map(\.weight)
        #expect(zip(weights, expected).allSatisfy { pair in abs(pair.0 - pair.1) < 1e-15 })
        // Clamping reads pixel 0 twice instead: (0.25 + 0.75), 0.75, 0.25 over 2.
        let clamped = KernelOracle.taps(inputSize: 8, start: 0, length: 8, outputSize: 4, kernel: .triangle, edge: .clamp)
        #expect(clamped[0].map(\.index) == [0, 1, 2] && clamped[0].map(\.weight) == [0.5, 0.375, 0.125])
    }

    @Test("a whole-pixel window at its own size is copied, for every kernel")
    func copiesAtScaleOne() {
        for kernel in DeclaredKernel.allCases {
            let taps = KernelOracle.taps(inputSize: 10, start: 2, length: 5, outputSize: 5, kernel: kernel, edge: .renormalize)
            #expect(taps.map { $0.map(\.index) } == [[2], [3], [4], [5], [6]] && taps.allSatisfy { $0.first?.weight == 1 })
        }
    }

    @Test("a constant image stays constant under every kernel, size and edge rule")
    func constantStaysConstant() throws {
        let source = Self.image(13, 7) { _, _ in (200, 40, 90, 255) }
        for kernel in DeclaredKernel.allCases {
            for edge in EdgeRule.allCases {
                for (w, h) in [(5, 3), (13, 7), (29, 17), (4, 9)] {
                    let oracle = try KernelOracle.render(source: source, placement: Self.stretch(w, h, from: 13, 7), kernel: kernel, edge: edge)
                    let bitmap = oracle.bitmap16()
                    for p in 0..<(w * h) {
                        let o = p * 8
                        let values = (0..<4).map { k in Int(bitmap.bytes[o + 2 * k]) << 8 | Int(bitmap.bytes[o + 2 * k + 1]) }
                        #expect(values == [200 * 257, 40 * 257, 90 * 257, 65535], "\(kernel) \(edge) \(w)×\(h) pixel \(p)")
                    }
                }
            }
        }
    }

    @Test("averaging black and white gives linear ½ (sRGB 188) in linear light and code 128 in sRGB")
    func lightSpaceOfAveraging() throws {
        let source = Self.image(2, 1) { x, _ in x == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) }
        let placement = Self.stretch(1, 1, from: 2, 1)
        let linear = try KernelOracle.render(source: source, placement: placement, kernel: .box, lightSpace: .linear)
        #expect(abs(linear.pixels[0] - 0.5) < 1e-12)
        #expect(Int((linear.encodedPixel(x: 0, y: 0).red * 255).rounded()) == 188)
        let srgb = try KernelOracle.render(source: source, placement: placement, kernel: .box, lightSpace: .srgb)
        #expect(abs(srgb.encodedPixel(x: 0, y: 0).red - 0.5) < 1e-12)
    }

    @Test("colour under α = 0 never reaches the output: premultiplied averaging")
    func hiddenColourIsInvisible() throws {
        let magenta = Self.image(4, 1) { x, _ in x < 2 ? (255, 0, 255, 0) : (0, 128, 0, 255) }
        let green = Self.image(4, 1) { x, _ in x < 2 ? (0, 255, 0, 0) : (0, 128, 0, 255) }
        for kernel in DeclaredKernel.allCases {
            let a = try KernelOracle.render(source: magenta, placement: Self.stretch(3, 1, from: 4, 1), kernel: kernel)
            let b = try KernelOracle.render(source: green, placement: Self.stretch(3, 1, from: 4, 1), kernel: kernel)
            #expect(a == b, "\(kernel)")
        }
    }

    @Test("the orientation is applied before resampling")
    func orientationFirst() throws {
        var source = Self.image(3, 2) { x, y in (UInt8(x * 100), UInt8(y * 200), 0, 255) }
        source.orientation = .right
        // Orientation 6 (90° clockwise): the upright image is 2 × 3; its top-left pixel is the
        // stored bottom-left one (x 0, y 1).
        let oracle = try KernelOracle.render(source: source, placement: .identity(width: 2, height: 3), kernel: .lanczos3)
        let p = oracle.encodedPixel(x: 0, y: 0)
        #expect(abs(p.red - 0) < 1e-6 && abs(p.green - 200.0 / 255) < 1e-6)
    }

    @Test("the same render gives the same bytes every time (no order of a hash table reaches a sum)")
    func deterministic() throws {
        let source = Self.image(37, 23) { x, y in (UInt8((x * 37 + y * 11) % 256), UInt8((x * x + y) % 256), UInt8((y * 53) % 256), UInt8(40 + (x * y) % 200)) }
        let placement = OraclePlacement(width: 17, height: 11, content: (0, 0, 17, 11), source: (0.75, 1.5, 35.5, 20.25))
        let first = try KernelOracle.render(source: source, placement: placement, kernel: .lanczos3).bitmap16().bytes
        for _ in 0..<30 {
            #expect(try KernelOracle.render(source: source, placement: placement, kernel: .lanczos3).bitmap16().bytes == first)
        }
    }

    @Test("the rounded rectangle's pixel areas sum to w·h − (4 − π)·r² and match a fine grid")
    func roundedRectArea() {
        for (w, h, r) in [(24, 24, 6.0), (48, 32, 8.0), (20, 20, 10.0), (17, 9, 2.5)] {
            let shape = RoundedRectArea(x0: 2, y0: 3, x1: 2 + Double(w), y1: 3 + Double(h), radius: r)
            var total = 0.0
            for y in 0..<(h + 6) { for x in 0..<(w + 4) { total += shape.fraction(x: x, y: y) } }
            #expect(abs(total - (Double(w * h) - (4 - Double.pi) * r * r)) < 1e-9, "\(w)×\(h) r \(r): \(total)")
        }
        // One corner pixel against a 2000 × 2000 grid of sample points.
        let shape = RoundedRectArea(x0: 0, y0: 0, x1: 24, y1: 24, radius: 6)
        for (x, y) in [(0, 2), (1, 1), (2, 0), (0, 4), (3, 1)] {
            var inside = 0
            let n = 2000
            for j in 0..<n {
                for i in 0..<n {
                    let px = Double(x) + (Double(i) + 0.5) / Double(n), py = Double(y) + (Double(j) + 0.5) / Double(n)
                    let dx = max(6 - px, 0), dy = max(6 - py, 0)
                    if dx * dx + dy * dy <= 36 { inside += 1 }
                }
            }
            #expect(abs(shape.fraction(x: x, y: y) - Double(inside) / Double(n * n)) < 1e-3, "pixel (\(x), \(y))")
        }
    }
}
