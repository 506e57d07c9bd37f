import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics
import TestSupport

/// Masks and regions (`--mask`, `--ignore`) in `imglab diff` of two files and of two folders:
/// a difference only under the mask passes, one pixel outside fails, a mask of the wrong size is
/// a typed error, ignored pixels are counted and drawn hatched.
@Suite("ignored pixels")
struct IgnoredPixelsTests {
    /// A 40×30 RGB image: R = 6x, G = 8y, B = 200 − x; each listed pixel's G raised by 40.
    static func image(changed: [(Int, Int)] = []) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<40 {
                let g = UInt8(8 * y) &+ (changed.contains { $0 == (x, y) } ? 40 : 0)
                bytes += [UInt8(6 * x), g, UInt8(200 - x)]
            }
        }
        return Image(bitmap: try Bitmap(width: 40, height: 30, format: .rgb8, bytes: bytes))
    }

    /// A `width` × `height` mask: RGBA, α = 255 inside `rect` (x, y, w, h), 0 elsewhere; or, with
    /// `gray`, 8-bit gray, 255 inside and 0 elsewhere.
    static func mask(_ rect: (Int, Int, Int, Int), width: Int = 40, height: Int = 30, gray: Bool = false) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= rect.0 && x < rect.0 + rect.2 && y >= rect.1 && y < rect.1 + rect.3
                bytes += gray ? [inside ? 255 : 0] : [0, 0, 0, inside ? 255 : 0]
            }
        }
        return Image(bitmap: try Bitmap(width: width, height: height, format: gray ? .gray8 : .rgba8, bytes: bytes))
    }

    static func folder() throws -> String {
        try ScratchFolder.new("imglab-ignored").path
    }

    static func write(_ image: Image, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: .png), to: path)
    }

    @Test("the only difference under the mask passes (identical, exit 0, ignored.pixels = the mask's 6×4); one pixel outside fails (exit 1)")
    func maskPassesInsideFailsOutside() throws {
        let dir = try Self.folder()
        let expected = dir + "/e.png", inside = dir + "/inside.png", outside = dir + "/outside.png", maskPath = dir + "/m.png"
        try Self.write(try Self.image(), expected)
        try Self.write(try Self.image(changed: [(10, 10), (15, 13)]), inside)
        try Self.write(try Self.image(changed: [(10, 10), (15, 13), (16, 13)]), outside)
        try Self.write(try Self.mask((10, 10, 6, 4)), maskPath)
        let ignored = try IgnoredPixels(regions: [], maskFile: maskPath)
        let pass = try FileDiff(expected: expected, actual: inside, ignored: ignored).run()
        #expect(pass.exitStatus == 0)
        #expect(pass.judgement.comparison.identical)
        #expect(pass.judgement.comparison.value("ignored.pixels") == 24, "6 × 4 pixels")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(pass.json.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect((metrics["ignored.pixels"] as? [String: Any])?["value"] as? Double == 24)
        let fail = try FileDiff(expected: expected, actual: outside, ignored: ignored).run()
        #expect(fail.exitStatus == 1)
        #expect(fail.judgement.comparison.value("exact.pixels") == 1, "only (16, 13) lies outside the mask")
        // Without the mask all three changed pixels count.
        #expect(try FileDiff(expected: expected, actual: outside).run().judgement.comparison.value("exact.pixels") == 3)
    }

    @Test("a gray mask ignores where it is not black; --ignore rectangles do the same and are clipped to the image")
    func grayMaskAndRegions() throws {
        let dir = try Self.folder()
        let expected = dir + "/e.png", actual = dir + "/a.png", maskPath = dir + "/m.png"
        try Self.write(try Self.image(), expected)
        try Self.write(try Self.image(changed: [(0, 0), (39, 29)]), actual)
        try Self.write(try Self.mask((0, 0, 1, 1), gray: true), maskPath)
        let grayOnly = try FileDiff(expected: expected, actual: actual, ignored: try IgnoredPixels(regions: [], maskFile: maskPath)).run()
        #expect(grayOnly.judgement.comparison.value("exact.pixels") == 1 && grayOnly.exitStatus == 1)
        // The corner rectangle 38,28,5,5 reaches past the 40×30 image: clipped to 2×2 pixels.
        let both = IgnoredPixels(regions: [.init(x: 38, y: 28, width: 5, height: 5)], maskImage: try Self.mask((0, 0, 1, 1), gray: true))
        let pass = try FileDiff(expected: expected, actual: actual, ignored: both).run()
        #expect(pass.exitStatus == 0)
        #expect(pass.judgement.comparison.value("ignored.pixels") == Double(1 + 4), "1 mask pixel and the 2×2 clipped corner")
        #expect(throws: IgnoredPixelsError.badRegion("1,2,0,4")) { _ = try IgnoredPixels.Region(parsing: "1,2,0,4") }
        #expect(throws: IgnoredPixelsError.badRegion("1,2,3")) { _ = try IgnoredPixels.Region(parsing: "1,2,3") }
        #expect(try IgnoredPixels.Region(parsing: "1, 2,3,4") == .init(x: 1, y: 2, width: 3, height: 4))
    }

    @Test("a mask of the wrong size is a typed error naming both sizes; in a folder diff that pair is an error (exit 1, ExitRule)")
    func wrongSize() throws {
        let dir = try Self.folder()
        try Self.write(try Self.image(), dir + "/e/a.png")
        try Self.write(try Self.image(changed: [(1, 1)]), dir + "/a/a.png")
        let ignored = IgnoredPixels(maskImage: try Self.mask((0, 0, 1, 1), width: 41), maskName: "m.png")
        let error = FileDiffError.ignored(.wrongSize(mask: "m.png", maskWidth: 41, maskHeight: 30, width: 40, height: 30))
        #expect(throws: error) { _ = try FileDiff(expected: dir + "/e/a.png", actual: dir + "/a/a.png", ignored: ignored).run() }
        let folders = try FolderDiff(expected: dir + "/e", actual: dir + "/a", ignored: ignored).run()
        #expect(folders.exitStatus == 1)
        #expect(folders.results.items.first?.status == .error)
        #expect(folders.results.items.first?.message == error.description)
    }

    @Test("folder diff: a pair whose only difference is under a region is unchanged; the report's heat map is hatched there")
    func folderDiffAndHatch() throws {
        let dir = try Self.folder()
        try Self.write(try Self.image(), dir + "/e/a.png")
        try Self.write(try Self.image(changed: [(3, 3)]), dir + "/a/a.png")
        try Self.write(try Self.image(), dir + "/e/b.png")
        try Self.write(try Self.image(changed: [(3, 3), (20, 20)]), dir + "/a/b.png")
        let ignored = IgnoredPixels(regions: [.init(x: 0, y: 0, width: 6, height: 6)])
        let outcome = try FolderDiff(expected: dir + "/e", actual: dir + "/a", ignored: ignored, reportFolder: dir + "/r").run()
        let a = try #require(outcome.results.items.first { $0.key == "a.png" }), b = try #require(outcome.results.items.first { $0.key == "b.png" })
        #expect(a.status == .unchanged && a.ignoredPixels == 36)
        #expect(b.status == .changed && b.metrics?["exact.pixels"] == 1)
        // The heat map: ignored pixels are stripes of the hatch colour and the darkest grey.
        let ev = ValueImage(try Self.image(), withAlpha: false), av = ValueImage(try Self.image(changed: [(3, 3)]), withAlpha: false)
        let mask = try #require(try ignored.resolved(width: 40, height: 30))
        let heat = HeatMap.bitmap(expected: ev, actual: av)
        let hatched = HeatMap.indexedBitmap(expected: ev, actual: av, ignored: mask)
        let entries = HeatMap.palette.entries
        let hatch = entries.firstIndex { ($0.red, $0.green, $0.blue) == HeatMap.hatchColor }
        // (3, 3): (3 + 3) / 3 = 2, even: the light stripe; (1, 1): 2 / 3 = 0, even: light; (2, 1): 1: dark (grey 40).
        #expect(Int(hatched.bytes[3 * 40 + 3]) == hatch)
        #expect(Int(hatched.bytes[1 * 40 + 2]) == entries.firstIndex { ($0.red, $0.green, $0.blue) == (40, 40, 40) })
        // Outside the mask the hatched map is the plain one.
        let p = 20 * 40 + 20
        let plain = (heat.bytes[p * 3], heat.bytes[p * 3 + 1], heat.bytes[p * 3 + 2]), indexed = entries[Int(hatched.bytes[p])]
        #expect(plain == (indexed.red, indexed.green, indexed.blue))
        let page = try String(contentsOfFile: dir + "/r/" + (b.page ?? ""), encoding: .utf8)
        #expect(page.contains("36 pixels ignored (masks and regions)"))
    }
}
