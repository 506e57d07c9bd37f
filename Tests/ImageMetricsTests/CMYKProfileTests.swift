import Foundation
import Testing
import ImageCore
@testable import ImageCodecs
import ImageResize

/// CMYK pixels rendered in sRGB through their CMYK profile (``SRGBRendering``). The profile is
/// built by ``ICCProfileBuilder/cmyk(grid:prints:)`` from inks with a dot gain (each ink prints
/// as `1 − (1 − ink)^1.8`), which the test's oracle states by arithmetic: the rendering must
/// follow the profile, not the naive ink formula (which ignores the dot gain and is far off),
/// whether the inks are stored plainly or inverted as Adobe's JPEGs store them; and a resize of
/// a tagged CMYK JPEG gives the oracle's colours in sRGB, whatever ``ResizeColour`` asks.
@Suite("CMYK through its profile")
struct CMYKProfileTests {
    static func gained(_ ink: Double) -> Double { 1 - pow(1 - ink, 1.8) }
    /// The sRGB colour (0…1) the inks print as under the profile.
    static func prints(_ c: Double, _ m: Double, _ y: Double, _ k: Double) -> (Double, Double, Double) {
        let black = 1 - gained(k)
        return ((1 - gained(c)) * black, (1 - gained(m)) * black, (1 - gained(y)) * black)
    }

    /// 24 × 16 inks (plain: 0 is no ink): C across, M down, Y and K in blocks.
    static func inks() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for row in 0..<16 {
            for col in 0..<24 {
                let c = col * 255 / 23, m = row * 255 / 15, y = (col / 6) * 60, k = (row / 8) * 90
                out.append([UInt8(c), UInt8(m), UInt8(y), UInt8(k)])
            }
        }
        return out
    }

    static func bitmap(inverted: Bool) throws -> Bitmap {
        let bytes = inks().flatMap { inverted ? $0.map { 255 - $0 } : $0 }
        return try Bitmap(width: 24, height: 16, format: PixelFormat(colorModel: .cmyk(inverted: inverted), bitsPerComponent: 8), bytes: bytes)
    }

    /// Largest and mean |Δ| (in 8-bit codes) of `rendered` from the oracle.
    static func departure(_ rendered: Bitmap) throws -> (max: Double, mean: Double) {
        let rgb = try rendered.converted(to: .rgb8).bytes
        var worst = 0.0, total = 0.0
        for (i, ink) in inks().enumerated() {
            let p = prints(Double(ink[0]) / 255, Double(ink[1]) / 255, Double(ink[2]) / 255, Double(ink[3]) / 255)
            for (c, v) in [p.0, p.1, p.2].enumerated() {
                let d = abs(Double(rgb[i * 3 + c]) - v * 255)
                worst = max(worst, d)
                total += d
            }
        }
        return (worst, total / Double(inks().count * 3))
    }

    @Test("plain and Adobe-inverted inks render through the profile within 4 codes (mean ≤ 1.5) of the oracle", arguments: [false, true])
    func rendersThroughProfile(inverted: Bool) throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        let image = Image(bitmap: try Self.bitmap(inverted: inverted), metadata: ImageMetadata(iccProfile: profile))
        #expect(SRGBRendering.needsConversion(image))
        let d = try Self.departure(try SRGBRendering.render(image).bitmap)
        #expect(d.max <= 4 && d.mean <= 1.5, "max \(d.max), mean \(d.mean)")
    }

    @Test("the naive ink formula (the profile ignored) is far from the oracle, so the bound above can fail")
    func naiveIsFar() throws {
        #expect(try Self.departure(try Self.bitmap(inverted: false)).max > 20)
    }

    @Test("a CMYK JPEG keeps its profile and inversion through a round trip and renders within 8 codes of the oracle")
    func jpegRoundTrip() throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        let image = Image(bitmap: try Self.bitmap(inverted: false), metadata: ImageMetadata(iccProfile: profile))
        let decoded = try ImageCodecs.decode(try ImageCodecs.encode(image, as: .jpeg, options: EncodeOptions(jpegQuality: 100)))
        #expect(decoded.metadata.iccProfile == profile)
        guard case .cmyk = decoded.format.colorModel else { Issue.record("decoded as \(decoded.format)"); return }
        let d = try Self.departure(try SRGBRendering.render(decoded).bitmap)
        #expect(d.max <= 8, "max \(d.max), mean \(d.mean)")
    }

    @Test("the same ink function gives the same profile bytes")
    func deterministic() {
        let first = ICCProfileBuilder.cmyk(grid: 5, prints: Self.prints)
        #expect(first != nil && first == ICCProfileBuilder.cmyk(grid: 5, prints: Self.prints))
        #expect(first.map { ICCProfileSummary($0).colorSpace } == "CMYK")
    }

    @Test("a tagged CMYK JPEG resized gives the profile's colours in sRGB, without the profile, in both modes",
          arguments: [ResizeColour.keep, .srgb])
    func resizeConvertsThroughProfile(_ mode: ResizeColour) throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        // Four flat quadrants of inks, so a resize leaves each quadrant's inner pixels at its colour.
        let quadrants: [[UInt8]] = [[30, 200, 0, 0], [180, 20, 90, 0], [0, 0, 0, 128], [90, 90, 90, 40]]
        var bytes: [UInt8] = []
        for y in 0..<32 { for x in 0..<32 { bytes += quadrants[(y / 16) * 2 + x / 16] } }
        let bitmap = try Bitmap(width: 32, height: 32, format: PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: 8), bytes: bytes)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-\(UUID().uuidString).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: bitmap, metadata: ImageMetadata(iccProfile: profile)), as: .jpeg,
                                                               options: EncodeOptions(jpegQuality: 100)), to: path)
        var options = ResizeOptions()
        options.colour = mode
        let result = try FileResizeRequest(input: path, output: "/dev/null", container: .png,
                                           size: .box(width: 16, height: 16, contentMode: .scaleToFill), options: options).resized()
        #expect(result.metadata.iccProfile == nil)
        let rgb = try result.bitmap.converted(to: .rgb8)
        for (q, ink) in quadrants.enumerated() {
            let x = (q % 2) * 8 + 4, y = (q / 2) * 8 + 4
            let p = Self.prints(Double(ink[0]) / 255, Double(ink[1]) / 255, Double(ink[2]) / 255, Double(ink[3]) / 255)
            let got = (0..<3).map { Double(rgb.bytes[y * rgb.bytesPerRow + x * 3 + $0]) }
            let departure = zip(got, [p.0, p.1, p.2].map { $0 * 255 }).map { abs($0 - $1) }.max() ?? .infinity
            #expect(departure <= 8, "quadrant \(q): \(got) against \([p.0, p.1, p.2].map { $0 * 255 })")
        }
    }

    @Test("a streamed resize reads a header larger than its first 256 KiB read whole: a 500 KB profile is kept and applied")
    func largeHeaderStreamed() throws {
        let profile = try #require(ICCProfileBuilder.cmyk(grid: 17, prints: Self.prints))
        #expect(profile.count > 256 << 10)
        let inks: [UInt8] = [0, 0, 0, 128]
        let bitmap = try Bitmap(width: 64, height: 64, format: PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: 8),
                                bytes: Array((0..<(64 * 64)).map { _ in inks }.joined()))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cmyk-large-\(UUID().uuidString).jpg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: bitmap, metadata: ImageMetadata(iccProfile: profile)), as: .jpeg,
                                                               options: EncodeOptions(jpegQuality: 100)), to: path)
        let streamed = try FileResize.resized(path: path, pointWidth: 16, pointHeight: 16, scale: 1, contentMode: .scaleToFill)
        #expect(streamed.metadata.iccProfile == profile, "\(streamed.metadata.warnings)")
        let result = try FileResizeRequest(input: path, output: "/dev/null", container: .png,
                                           size: .box(width: 16, height: 16, contentMode: .scaleToFill)).resized()
        let p = Self.prints(0, 0, 0, 128.0 / 255)
        let got = try result.bitmap.converted(to: .rgb8).bytes.prefix(3).map(Double.init)
        #expect(zip(got, [p.0, p.1, p.2].map { $0 * 255 }).allSatisfy { abs($0 - $1) <= 8 }, "\(got) against \([p.0, p.1, p.2].map { $0 * 255 })")
    }
}
