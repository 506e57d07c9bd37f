import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics
import TestSupport

/// `imglab diff A/ B/ --masks FILE`: regions per file, in pixels or in fractions of each file's
/// size, applied after orientation on top of `--ignore`; what each pair ignores is counted
/// (expected counts from the arithmetic of the regions), and the pair page draws and lists it.
@Suite("masks per file")
struct MaskSidecarTests {
    /// A `width` × `height` RGB picture of one colour, with the pixels in `changed` made red.
    static func image(_ width: Int, _ height: Int, changed: [(Int, Int)] = [], orientation: Orientation = .up) throws -> Image {
        var bytes = [UInt8](repeating: 120, count: width * height * 3)
        for (x, y) in changed { bytes[(y * width + x) * 3] = 255 }
        return Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: bytes), orientation: orientation)
    }

    static func write(_ image: Image, _ path: String, as container: ContainerFormat = .png) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: container), to: path)
    }

    static func sidecar(_ json: String) throws -> MaskSidecar { try MaskSidecar(parsing: Array(json.utf8), name: "masks.json") }

    @Test("one fraction region fits files of different sizes: the top-right tenth ignores 10×5 px of a 100×50 and 20×10 px of a 200×100, and the change inside it passes")
    func fractionsAcrossSizes() throws {
        let dir = try ScratchFolder.new("imglab-masks").path
        // Changes at the corner of the region (inside) on both sizes; the small one also changed outside.
        try Self.write(try Self.image(100, 50), dir + "/e/screens/small.png")
        try Self.write(try Self.image(100, 50, changed: [(90, 0), (99, 4), (10, 40)]), dir + "/a/screens/small.png")
        try Self.write(try Self.image(200, 100), dir + "/e/screens/large.png")
        try Self.write(try Self.image(200, 100, changed: [(180, 0), (199, 9)]), dir + "/a/screens/large.png")
        var diff = FolderDiff(expected: dir + "/e", actual: dir + "/a", threads: 1)
        diff.masks = try Self.sidecar(#"{"schema": "imglab-masks/1", "masks": {"screens/*.png": [{"fraction": [0.9, 0, 0.1, 0.1]}]}}"#)
        let items = try diff.run().results.items
        let small = try #require(items.first { $0.key == "screens/small.png" }), large = try #require(items.first { $0.key == "screens/large.png" })
        #expect(large.status == .unchanged && large.ignoredPixels == 200, "\(large)")
        #expect(small.status == .changed && small.ignoredPixels == 50 && small.metrics?["exact.pixels"] == 1, "\(small)")
        #expect(small.ignored == "fractions 0.9,0.0,0.1,0.1")
    }

    @Test("pixel rectangles apply by key, path or glob, several entries add up, and --ignore still applies to every file")
    func rectanglesAddUp() throws {
        let dir = try ScratchFolder.new("imglab-masks").path
        try Self.write(try Self.image(40, 30), dir + "/e/a.png")
        try Self.write(try Self.image(40, 30, changed: [(0, 0), (39, 29), (20, 15)]), dir + "/a/a.png")
        var diff = FolderDiff(expected: dir + "/e", actual: dir + "/a", ignored: IgnoredPixels(regions: [.init(x: 20, y: 15, width: 1, height: 1)]),
                              threads: 1)
        diff.masks = try Self.sidecar(#"{"masks": {"a.png": [{"rect": [0, 0, 2, 2]}], "*.png": [{"rect": [38, 28, 5, 5]}]}}"#)
        let item = try #require(try diff.run().results.items.first)
        // 1 (--ignore) + 2×2 + the 2×2 left of 38,28,5,5 inside 40×30.
        #expect(item.status == .unchanged && item.ignoredPixels == 1 + 4 + 4, "\(item)")
        #expect(diff.masks?.unused(in: [FolderPairing.Pair(key: "a.png", expected: "a.png", actual: "a.png")]) == [])
        #expect(diff.masks?.unused(in: []) == ["*.png", "a.png"])
    }

    @Test("regions are in displayed pixels: a file stored sideways (EXIF orientation 6) is masked where it shows")
    func afterOrientation() throws {
        let dir = try ScratchFolder.new("imglab-masks").path
        // Stored 30×40, displayed 40×30 (rotated 90° clockwise): stored (0, 39), bottom left, shows at (0, 0).
        try Self.write(try Self.image(30, 40, orientation: .right), dir + "/e/r.jpg", as: .jpeg)
        try Self.write(try Self.image(30, 40, orientation: .right), dir + "/a/r.jpg", as: .jpeg)
        let e = try ImageCodecs.decode(try ImageCodecs.readFile(dir + "/e/r.jpg"))
        #expect(e.displaySize.width == 40 && e.displaySize.height == 30, "the fixture is not displayed 40×30")
        var diff = FolderDiff(expected: dir + "/e", actual: dir + "/a", threads: 1)
        diff.masks = try Self.sidecar(#"{"masks": {"r.jpg": [{"fraction": [0, 0, 0.5, 1]}]}}"#)
        // Same bytes: unchanged without decoding; the masks are not counted then. Change one file's bytes.
        try Self.write(try Self.image(30, 40, changed: [(0, 39)], orientation: .right), dir + "/a/r.jpg", as: .jpeg)
        let item = try #require(try diff.run().results.items.first)
        #expect(item.ignoredPixels == 20 * 30, "half of the displayed 40×30: \(item)")
    }

    @Test("a masks file that is not one is refused with what is wrong: not JSON, an unknown key, a bad schema, a bad rectangle or fraction, an unknown kind")
    func refusedFiles() {
        let cases = [("[]", "not a JSON object"), (#"{"masks": {}, "mask": 1}"#, "unknown key(s) mask"),
                     (#"{"schema": "imglab-masks/2", "masks": {}}"#, "schema is imglab-masks/2"),
                     (#"{"masks": {"a": [{"rect": [0, 0, 0, 4]}]}}"#, "rect takes whole pixels"),
                     (#"{"masks": {"a": [{"rect": [0.5, 0, 2, 4]}]}}"#, "rect takes whole pixels"),
                     (#"{"masks": {"a": [{"fraction": [0.5, 0, 0.6, 1]}]}}"#, "fractions of the size"),
                     (#"{"masks": {"a": [{"circle": [0, 0, 1, 1]}]}}"#, "unknown region kind"),
                     (#"{"masks": {"a": []}}"#, "give a list of regions")]
        for (json, words) in cases {
            do {
                _ = try Self.sidecar(json)
                Issue.record("\(json) was accepted")
            } catch {
                #expect("\(error)".contains(words), "\(json): \(error)")
            }
        }
    }

    @Test("the pair page draws the ignored pixels over both images (the same hatched layer) and lists each region with its pixel count; the index says what each file ignored, or that its masks were not applied (sizes differ)")
    func pairPageListsRegions() throws {
        let dir = try ScratchFolder.new("imglab-masks").path
        try Self.write(try Self.image(40, 30), dir + "/e/a.png")
        try Self.write(try Self.image(40, 30, changed: [(0, 0), (30, 20)]), dir + "/a/a.png")
        try Self.write(try Self.image(40, 30), dir + "/e/b.png")
        try Self.write(try Self.image(41, 30), dir + "/a/b.png")
        var diff = FolderDiff(expected: dir + "/e", actual: dir + "/a", reportFolder: dir + "/r", threads: 1)
        diff.masks = try Self.sidecar(#"{"masks": {"a.png": [{"rect": [0, 0, 4, 4]}, {"fraction": [0, 0, 0.5, 0.5]}], "b.png": [{"rect": [1, 1, 2, 2]}]}}"#)
        let item = try #require(try diff.run().results.items.first)
        let index = try String(contentsOfFile: dir + "/r/index.html", encoding: .utf8)
        #expect(index.contains("ignored 300 px: regions 0,0,4,4; fractions 0.0,0.0,0.5,0.5"))
        #expect(index.contains("masks not applied (regions 1,1,2,2)"))
        #expect(item.ignoredPixels == 20 * 15)
        let page = try String(contentsOfFile: dir + "/r/" + (item.page ?? ""), encoding: .utf8)
        #expect(page.components(separatedBy: "<img class=\"ignored\"").count - 1 == 2, "one layer over each image")
        #expect(page.contains("<li>region 0,0,4,4: 16 px</li>") && page.contains("<li>region 0.0,0.0,0.5,0.5 of the size: 300 px</li>"))
        #expect(page.contains("counted as equal: <b>300</b> pixels"))
    }
}
