import Foundation
import TestSupport
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics

/// The HTML report: self-contained, every input string escaped, and it runs in a real browser.
@Suite("HTML report")
struct ReportTests {
    static let hostileName = "<script>x</script>.png"

    static func report(expectedName: String = "expected.png", actualName: String = hostileName) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<24 { for x in 0..<32 { bytes += [UInt8(x * 8), UInt8(y * 10), 90, UInt8(x < 4 ? 0 : 255)] } }
        let e = try Bitmap(width: 32, height: 24, format: .rgba8, bytes: bytes)
        var swapped = bytes
        for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
        let a = try Bitmap(width: 32, height: 24, format: .rgba8, bytes: swapped)
        var meta = ImageMetadata()
        meta.iccProfile = Array("<img src=x onerror=alert(1)>".utf8)
        let ei = ComparedImage(image: Image(bitmap: e), name: expectedName), ai = ComparedImage(image: Image(bitmap: a, metadata: meta), name: actualName)
        let c = Comparison(expected: ei, actual: ai, options: ComparisonOptions(structural: false))
        let gate = try GateExpression("ssim >= 0.9 || exact.max <= 1").evaluate { c.value($0) ?? 0 }
        return DiffReport.html(c, images: try DiffReport.Images.make(expected: ei, actual: ai), gate: gate, canaryFailures: [])
    }

    @Test("a file named <script>x</script>.png is escaped everywhere: the page has exactly one script, ours")
    func escaping() throws {
        let html = try Self.report()
        #expect(!html.contains("<script>x"))
        #expect(html.contains("&lt;script&gt;x&lt;/script&gt;.png"))
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(!html.contains("<img src=x"))
    }

    @Test("the page needs no network: images are data URIs and the CSP forbids everything else")
    func selfContained() throws {
        let html = try Self.report(actualName: "actual.png")
        #expect(html.contains("default-src 'none'"))
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 4)  // expected, actual, heat map
    }

    @Test("a file a browser shows as compared is embedded as is; an oriented or TIFF one is re-encoded upright as PNG")
    func embedding() throws {
        let b = try Bitmap(width: 4, height: 2, format: .rgb8, bytes: (0..<24).map { UInt8($0 * 10) })
        let png = try ImageCodecs.encode(Image(bitmap: b), as: .png), tiff = try ImageCodecs.encode(Image(bitmap: b), as: .tiff)
        let up = ComparedImage(image: try ImageCodecs.decode(png), name: "a.png", container: .png)
        let rotated = ComparedImage(image: Image(bitmap: b, orientation: .right), name: "r.png", container: .png)
        let t = ComparedImage(image: try ImageCodecs.decode(tiff), name: "t.tif", container: .tiff)
        let images = try DiffReport.Images.make(expected: up, actual: rotated, expectedFile: png, actualFile: png)
        #expect(images.expected.bytes == png && images.expected.mimeType == "image/png")
        let shown = try ImageCodecs.decode(images.actual.bytes)
        #expect((shown.width, shown.height) == (2, 4))  // re-encoded upright
        let fromTIFF = try DiffReport.Images.make(expected: t, actual: up, expectedFile: tiff, actualFile: png)
        #expect(fromTIFF.expected.mimeType == "image/png" && fromTIFF.expected.bytes != tiff)
    }

    @Test("the report renders in headless Chromium without console errors", .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func rendersInChromium() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        // Negative control: the detector must see a script error, or this test could not fail.
        let broken = dir.appendingPathComponent("broken.html")
        try Data("<!DOCTYPE html><html><body data-ready=\"0\"><script>undefinedFunction();</script></body></html>".utf8).write(to: broken)
        let control = try chromium.render(broken)
        #expect(!control.errors.isEmpty, "the error detector missed a thrown ReferenceError; log: \(control.log.suffix(500))")

        let file = dir.appendingPathComponent("report.html")
        try Data(try Self.report().utf8).write(to: file)
        let page = try chromium.render(file)
        #expect(page.status == 0)
        #expect(page.dom.contains("data-ready=\"1\""), "the viewer script did not finish")
        #expect(page.errors.isEmpty, "\(page.errors)")
        // The hostile name is text in the rendered DOM, never an element.
        #expect(page.dom.components(separatedBy: "<script").count == 2)
        #expect(page.dom.contains("&lt;script&gt;x&lt;/script&gt;.png"))
    }
}
