import Foundation
import Testing
import TestSupport
import ImageCore
import ImageCodecs
import ImageReports
import ImageLab

/// The `imglab diff --report` page and the league page in headless Chromium: their scripts finish,
/// nothing reaches the console as an error, and hostile file names and resizer names stay text: a
/// payload that would set `document.title` where it ran leaves the title as the page wrote it.
@Suite("Report pages in Chromium", .serialized)
struct ReportPagesChromiumTests {
    /// Sets the title wherever it runs as markup; shown as text, it changes nothing.
    static let payload = "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">"
    /// The part of ``payload`` a file name can hold (no `/`).
    static let namePayload = "<img src=x onerror=\"document.title='PWNED'\">"

    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The rendered page kept the title its file wrote, holds no element made from a payload, and
    /// logged no console error.
    static func expectInert(_ page: HeadlessChromium.Page, written html: String, _ what: String) {
        let written = HeadlessChromium.title(ofHTML: html)
        #expect(written != nil, "\(what): the page has no <title>")
        #expect(page.title == written, "\(what): the title became \(page.title ?? "nil")")
        #expect(!page.dom.contains("<img src=\"x\""), "\(what): the payload became an element")
        #expect(page.errors.isEmpty, "\(what): \(page.errors)")
    }

    @Test("the payload does set the title where it runs as markup, so the checks below can fail",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func negativeControl() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for payload in [Self.payload, Self.namePayload] {
            let control = dir.appendingPathComponent("control.html")
            try Data("<!DOCTYPE html><html><head><title>written</title></head><body>\(payload)</body></html>".utf8).write(to: control)
            #expect(try chromium.render(control).title == "PWNED", "\(payload) did not run even as markup")
        }
    }

    @Test("the imglab diff --report page of two files named with markup renders with no console error, its title unchanged",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func diffReport() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes: [UInt8] = []
        for y in 0..<24 { for x in 0..<32 { bytes += [UInt8(x * 8), UInt8(y * 10), 90, UInt8(x < 4 ? 0 : 255)] } }
        var swapped = bytes
        for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
        let expected = dir.appendingPathComponent("expected \(Self.namePayload).png").path
        let actual = dir.appendingPathComponent("actual \(Self.namePayload).png").path
        for (path, pixels) in [(expected, bytes), (actual, swapped)] {
            let image = Image(bitmap: try Bitmap(width: 32, height: 24, format: .rgba8, bytes: pixels))
            try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: .png), to: path)
        }
        let report = dir.appendingPathComponent("report/index.html").path
        let outcome = try FileDiff(expected: expected, actual: actual, reportFolder: dir.appendingPathComponent("report").path).run()
        #expect(outcome.exitStatus == 1, "R and B swapped must differ")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!html.contains("<img src=x"), "the report holds the name as markup")
        let page = try chromium.render(URL(fileURLWithPath: report))
        #expect(page.status == 0)
        #expect(page.dom.contains("data-ready=\"1\""), "the viewer script did not finish")
        Self.expectInert(page, written: html, "diff report")
        #expect(page.dom.contains("&lt;img src=x onerror=\"document.title='PWNED'\"&gt;"), "the name is not shown as text")
    }

    @Test("the league page, with a resizer and a program named with markup, renders with no console error, its title unchanged",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func leaguePage() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A resizer that runs (it copies its input, so the sizes are wrong) under a declared name
        // holding the payload, and one whose program is missing, named by its file.
        let copying = dir.appendingPathComponent("copying.json")
        let declared: [String: Any] = ["name": Self.payload, "programs": ["tool": ["cp"]], "template": "{tool} {in} {out}"]
        try JSONSerialization.data(withJSONObject: declared).write(to: copying)
        let missing = dir.appendingPathComponent("\(Self.namePayload).json")
        let absent: [String: Any] = ["name": "absent", "programs": ["tool": [Self.namePayload]], "template": "{tool} {in} {out}"]
        try JSONSerialization.data(withJSONObject: absent).write(to: missing)
        let outcome = try League(specs: ["builtin", "mutant:swap-rb", "config:" + copying.path, "config:" + missing.path], corpus: LabRuns.corpus,
                                 filter: "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24", threads: 2).run()
        #expect(outcome.table.entries.map(\.status) == ["ran", "ran", "ran", "not installed"])
        #expect(outcome.table.entries.map(\.resizer) == ["builtin", "swap-rb(builtin)", Self.payload, Self.namePayload])  // a mutant is named after the resizer it wraps
        let html = LeagueReport.html(outcome.table)
        #expect(!html.contains("<script>document") && !html.contains("<img src=x"), "the league page holds a name as markup")
        let file = dir.appendingPathComponent("league.html")
        try Data(html.utf8).write(to: file)
        let page = try chromium.render(file)
        #expect(page.status == 0)
        Self.expectInert(page, written: html, "league page")
        #expect(page.dom.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;"), "the declared name is not shown as text")
        #expect(page.dom.contains("&lt;img src=x onerror=\"document.title='PWNED'\"&gt;"), "the file name is not shown as text")
        #expect(page.dom.contains("channel-order"), "the swapped resizer's failures are not listed by diagnosis")
    }

    @Test("the imglab diff report of two folders whose files and subfolder are named with markup: the index and a pair page render with no console error, their titles unchanged",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func folderDiffReport() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes: [UInt8] = []
        for y in 0..<24 { for x in 0..<32 { bytes += [UInt8(x * 8), UInt8(y * 10), 90, UInt8(x < 4 ? 0 : 255)] } }
        var swapped = bytes
        for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
        let expected = dir.appendingPathComponent("expected").path, actual = dir.appendingPathComponent("actual").path
        let changed = "\(Self.namePayload)/changed \(Self.namePayload).png", added = "new \(Self.namePayload).png"
        for (folder, files) in [(expected, [(changed, bytes)]), (actual, [(changed, swapped), (added, bytes)])] {
            for (name, pixels) in files {
                let path = folder + "/" + name
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
                let image = Image(bitmap: try Bitmap(width: 32, height: 24, format: .rgba8, bytes: pixels))
                try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: .png), to: path)
            }
        }
        let report = dir.appendingPathComponent("report").path
        let outcome = try FolderDiff(expected: expected, actual: actual, reportFolder: report).run()
        #expect(outcome.exitStatus == 1, "a changed and a new file")
        let page = try #require(outcome.results.items.first { $0.key == changed }?.page, "the changed pair has no page")
        for (file, what) in [(report + "/index.html", "folder diff index"), (report + "/" + page, "folder diff pair page")] {
            let html = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!html.contains("<img src=x"), "\(what) holds a name as markup")
            let rendered = try chromium.render(URL(fileURLWithPath: file))
            #expect(rendered.status == 0)
            #expect(rendered.dom.contains("data-ready=\"1\""), "\(what): the script did not finish")
            Self.expectInert(rendered, written: html, what)
            #expect(rendered.dom.contains("&lt;img src=x onerror=\"document.title='PWNED'\"&gt;"), "\(what): the name is not shown as text")
        }
    }
}
