import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageCorpus

/// libvips' reduce arithmetic (``LibvipsReduce``) against `vipsthumbnail` 8.14.1's own outputs,
/// committed as reference data with the script that made them (`Tests/Fixtures/reference/libvips/`).
@Suite("libvips reduce arithmetic")
struct LibvipsReduceTests {
    static let folder = QuickCorpus.packageRoot.appendingPathComponent("Tests/Fixtures/reference/libvips")

    /// Each line of `cases.txt`: the corpus source, vipsthumbnail's `--size`, the reference file and a fill's `--smartcrop`.
    static func cases() throws -> [(source: String, operation: LabOperation, reference: String)] {
        let text = try String(contentsOf: folder.appendingPathComponent("cases.txt"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ").map(String.init)
            guard f.count >= 3 else { return nil }
            let size = f[1].replacingOccurrences(of: "!", with: "").split(separator: "x").compactMap { Int($0) }
            guard size.count == 2 else { return nil }
            // --smartcrop low, centre, high: the fill's anchor 0, ½, 1 on both axes.
            let anchor = f.count > 3 ? ["low": 0.0, "centre": 0.5, "high": 1.0][f[3]] : nil
            let mode: LabContentMode = f[1].hasSuffix("!") ? .scaleToFill
                : anchor.map { .aspectFill(anchorX: $0, anchorY: $0) } ?? .aspectFit
            return (f[0], .resize(width: size[0], height: size[1], mode: mode), f[2])
        }
    }

    @Test("the model reproduces vipsthumbnail's 8-bit outputs exactly, and its alpha outputs up to the final cast's truncation")
    func matchesVipsthumbnail() throws {
        let all = try Self.cases()
        #expect(all.count == 15)
        for c in all {
            let source = try ImageCodecs.decode(contentsOf: QuickCorpus.packageRoot.appendingPathComponent("Corpus/sources/\(c.source)").path)
            let reference = try ImageCodecs.decode(contentsOf: Self.folder.appendingPathComponent(c.reference).path)
            let size = source.displaySize
            let placement = try OracleGeometry.placement(of: c.operation, width: size.width, height: size.height)
            var design = KernelOracle.Design(kernel: .lanczos3, lightSpace: .srgb, edge: .clamp)
            design.arithmetic = .libvipsReduce
            let model = try #require(try LibvipsReduce.render(source: source, frame: 0, placement: placement, design: design),
                                     "\(c.reference): the model applies")
            let expected = try reference.bitmap.converted(to: .rgba8)
            #expect(model.width == expected.width && model.height == expected.height, "\(c.reference)")
            guard model.width == expected.width, model.height == expected.height else { continue }
            let alpha = source.bitmap.format.hasAlpha
            var worst = 0.0
            for y in 0..<model.height {
                for x in 0..<model.width {
                    let p = model.encodedPixel(x: x, y: y)
                    let values = [p.red, p.green, p.blue, p.alpha]
                    let o = y * expected.bytesPerRow + x * 4
                    // Colour under α = 0 is not shown (vips leaves 255 there, the model 0).
                    for k in 0..<4 where k == 3 || expected.bytes[o + 3] > 0 {
                        let code = Double(expected.bytes[o + k])
                        let v = values[k] * 255
                        // With alpha, vips_cast truncates the unpremultiplied floats: the code is ⌊v⌋.
                        let miss = alpha ? (code <= v + 1e-6 && v < code + 1 + 1e-3 ? 0 : abs(v - code)) : abs(v - code)
                        worst = max(worst, miss)
                    }
                }
            }
            #expect(worst < 0.01, "\(c.reference): worst difference \(worst) codes")
        }
    }

    @Test("a fit shrinks both axes by one factor; a stretch each by its own; a fill crops the resized image at its anchor")
    func framing() throws {
        // 48×32 fitted in 16×16: 3 source pixels per output pixel on both axes (32 / 3 rounds to 11).
        let fit = try #require(LibvipsReduce.framing(try OracleGeometry.placement(of: .resize(width: 16, height: 16, mode: .aspectFit), width: 48, height: 32), upright: (48, 32)))
        #expect(fit.factors == (3, 3) && fit.resized == (16, 11))
        // Stretched to 7×5: 48/7 and 32/5.
        let stretch = try #require(LibvipsReduce.framing(try OracleGeometry.placement(of: .resize(width: 7, height: 5, mode: .scaleToFill), width: 48, height: 32), upright: (48, 32)))
        #expect(stretch.factors == (48.0 / 7, 32.0 / 5) && stretch.resized == (7, 5))
        // Filled into 20×20 at the centre: 1.6 source pixels per output pixel, 30×20, 5 columns cropped each side;
        // at the right (anchor 1): the last 20 of 30 columns.
        let centre = try #require(LibvipsReduce.framing(try OracleGeometry.placement(of: .resize(width: 20, height: 20, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)), width: 48, height: 32), upright: (48, 32)))
        #expect(abs(centre.factors.x - 1.6) < 1e-12 && centre.resized == (30, 20) && centre.crop == (5, 0))
        let right = try #require(LibvipsReduce.framing(try OracleGeometry.placement(of: .resize(width: 20, height: 20, mode: .aspectFill(anchorX: 1, anchorY: 0.5)), width: 48, height: 32), upright: (48, 32)))
        #expect(right.crop == (10, 0))
    }

    @Test("Orc's 2.6 weights keep the sum: 64 for weights summing to 1")
    func orcWeightsSum() {
        for x in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
            let w = LibvipsReduce.mask(.lanczos3, points: 13, shrink: 2, x: x)
            #expect(LibvipsReduce.orcWeights(w).reduce(0, +) == 64)
        }
    }
}
