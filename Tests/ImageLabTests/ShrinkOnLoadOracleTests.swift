import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize
import ImageLabTesting
@testable import ImageLab

/// `FileResize` with shrink-on-load (a JPEG decoded at 1/d in the DCT domain) against the box
/// oracle computed here, independently: the file decoded in full, oriented, and each output
/// pixel the linear-light mean of its block of source pixels. Judged under the `lossy` family's
/// gate of `Corpus/gates.json`, the gate every JPEG pair of the quick corpus is judged by.
@Suite("shrink-on-load resize vs the box oracle of the full decode, under the lossy gate")
struct ShrinkOnLoadOracleTests {
    static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imglab-shrink-oracle-\(UUID().uuidString).\(ext)").path
    }

    /// A smooth 1600×1200 picture (slow waves in red and green, a ramp in blue) stored with
    /// `orientation`, as a quality-90 4:2:0 JPEG.
    static func writeJPEG(orientation: Orientation) throws -> String {
        let width = 1600, height = 1200
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = UInt8((128 + 100 * sin(2 * Double.pi * Double(x) / 800)).rounded())
                bytes[i + 1] = UInt8((128 + 100 * cos(2 * Double.pi * Double(y) / 600)).rounded())
                bytes[i + 2] = UInt8((Double(x + y) * 255 / 2798).rounded())
            }
        }
        let image = Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: bytes), orientation: orientation)
        let path = temporaryPath("jpg")
        try Data(try ImageCodecs.encode(image, as: .jpeg)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// sRGB code (0…255) to linear light and back (IEC 61966-2-1).
    static func linear(_ code: UInt8) -> Double {
        let v = Double(code) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
    static func code(_ linear: Double) -> UInt8 {
        let v = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8((min(max(v, 0), 1) * 255).rounded())
    }

    /// The box oracle: the displayed RGB8 image `source`, region `x0, y0` of `bw × bh` source
    /// pixels per output pixel, `width × height` output pixels, each the linear-light mean of its block.
    static func boxOracle(_ source: Image, x0: Int, y0: Int, blockWidth bw: Int, blockHeight bh: Int, width: Int, height: Int) throws -> Image {
        let s = source.bitmap
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for oy in 0..<height {
            for ox in 0..<width {
                var sum = [0.0, 0.0, 0.0]
                for y in (y0 + oy * bh)..<(y0 + (oy + 1) * bh) {
                    for x in (x0 + ox * bw)..<(x0 + (ox + 1) * bw) {
                        for c in 0..<3 { sum[c] += linear(s.bytes[y * s.bytesPerRow + x * 3 + c]) }
                    }
                }
                for c in 0..<3 { out[(oy * width + ox) * 3 + c] = code(sum[c] / Double(bw * bh)) }
            }
        }
        return Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: out))
    }

    @Test("fit, fill anchored left, stretch and an oriented fit, each decoded at 1/4 or 1/8, match the box oracle within the lossy gate")
    func matchesBoxOracle() throws {
        let gates = try GateBook.load(corpus: RunnerTests.corpus)
        let lossy = try #require(gates.file.families.first { $0.name == "lossy" }?.gate)
        // Output sizes, blocks and denominators by hand (source stored 1600×1200):
        // fit 200×150: blocks 8×8; d = 4 (400 ≥ 2·200, 300 ≥ 2·150; 8 would leave 200 < 400).
        // fill 100×100 anchored left: region x 0…1200, blocks 12×12; d = 4 (300 ≥ 200; 150 < 200 at 8).
        // stretch 100×300: blocks 16×4; d = 2 (800 ≥ 200, 600 ≥ 600; at 4, 300 < 600).
        // orientation 6 (displayed 1200×1600) fit 75×100: stored target 100×75, blocks 16×16;
        // d = 8 (200 ≥ 200, 150 ≥ 150).
        let cases: [(orientation: Orientation, mode: ContentMode, box: (Int, Int), x0: Int, block: (Int, Int), denominator: Int)] = [
            (.up, .aspectFit, (200, 150), 0, (8, 8), 4),
            (.up, .aspectFill(anchor: .left), (100, 100), 0, (12, 12), 4),
            (.up, .scaleToFill, (100, 300), 0, (16, 4), 2),
            (.right, .aspectFit, (75, 100), 0, (16, 16), 8),
        ]
        for c in cases {
            let path = try Self.writeJPEG(orientation: c.orientation)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let output = try FileResize.resized(path: path, width: c.box.0, height: c.box.1, contentMode: c.mode)
            #expect(output.metadata.properties["jpeg.scale"] == "1/\(c.denominator)", "\(c.mode) \(c.box)")
            let full = try ImageCodecs.decode(contentsOf: path).oriented()
            let oracle = try Self.boxOracle(full, x0: c.x0, y0: 0, blockWidth: c.block.0, blockHeight: c.block.1,
                                            width: c.box.0, height: c.box.1)
            try expectImage(output, matches: oracle, gate: lossy, name: "shrink-on-load-\(c.orientation)-\(c.box.0)x\(c.box.1)")
        }
    }
}
