import Foundation
import Testing
import TestSupport
import ImageLab
@testable import ImageReports

/// The page shell every report shares: policy, title, readiness; and a page built on it in a browser.
@Suite("HTML page shell")
struct HTMLPageTests {
    @Test("a page with a script starts not ready and is marked ready after it; a page without has neither")
    func readiness() {
        let scripted = HTMLPage(title: "t", style: "", script: "(function(){})();", embedsImages: false).render("<p>x</p>")
        #expect(scripted.contains("<body data-ready=\"0\">"))
        #expect(scripted.components(separatedBy: "<script>").count == 2)
        #expect(scripted.hasSuffix("(function(){})();\n\(HTMLPage.readySignal)</script></body></html>\n"))
        let plain = HTMLPage(title: "t", style: "", script: nil, embedsImages: false).render("<p>x</p>")
        #expect(plain.contains("<body>\n<p>x</p></body></html>\n") && !plain.contains("<script"))
    }

    @Test("the policy forbids the network and allows data: images and inline script only when the page has them")
    func policy() {
        #expect(HTMLPage(title: "", style: "", script: nil, embedsImages: false).contentSecurityPolicy
                == "default-src 'none'; style-src 'unsafe-inline'")
        #expect(HTMLPage(title: "", style: "", script: "", embedsImages: true).contentSecurityPolicy
                == "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
        // An index shows thumbnails from its own folder, nothing from elsewhere.
        #expect(HTMLPage(title: "", style: "", script: "", embedsImages: false, showsImageFiles: true).contentSecurityPolicy
                == "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
    }

    @Test("the title is text: markup in it is escaped")
    func title() {
        let page = HTMLPage(title: "a <script>x</script> & b", style: "", script: nil, embedsImages: false).render("")
        #expect(page.contains("<title>a &lt;script&gt;x&lt;/script&gt; &amp; b</title>"))
    }

    @Test("the reproduce page renders in headless Chromium: its script finishes, nothing throws",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func reproducePageInChromium() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let reproduction = try #require(Reproduction(topic: "pink-tint", corpus: LabRuns.corpus, limit: 3, threads: 2))
        let html = ReproduceReport.html(try reproduction.run())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-reproduce-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("index.html")
        try Data(html.utf8).write(to: file)
        let page = try chromium.render(file)
        #expect(page.status == 0)
        #expect(page.dom.contains("data-ready=\"1\""), "the viewer script did not finish")
        #expect(page.errors.isEmpty, "\(page.errors)")
    }
}
