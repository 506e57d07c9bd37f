import Foundation
import Testing
import ImageReports
import ImageMetrics
import TestSupport
@testable import ImageLab
import ImageCorpus

/// The run report of a real (filtered) run, rendered in headless Chromium where it is installed;
/// hostile ids and metadata render as text.
@Suite("Run report in Chromium", .serialized)
struct RunReportChromiumTests {
    /// A real run of two scenes: goldens blessed from the R↔B-swapped resizer, then the
    /// built-in resizer judged against them, so pages carry a golden and a golden verdict.
    static func realRun(in dir: URL) throws -> LabRunner.Outcome {
        let goldens = dir.appendingPathComponent("goldens").path
        var swapped = try LabRuns.runner(ChannelSwapMutant(BuiltinResizer()), filter: "png-rgba8-colorPatches,gif-anim-none")
        swapped.keepEvidence = true
        let blessed = try swapped.run()
        let outputs = zip(blessed.results.pairs, blessed.evidence).compactMap { r, e in
            e.map { (pair: r.pair, image: $0.actual.image, resizer: "swap-rb", oracleDistance: ["visible.mean": $0.comparison.value("visible.mean") ?? 0]) }
        }
        try GoldenStore(folder: goldens).bless(outputs)
        var runner = try LabRuns.runner(BuiltinResizer(), filter: "png-rgba8-colorPatches,gif-anim-none")
        runner.keepEvidence = true
        runner.goldenStore = GoldenStore(folder: goldens)
        runner.goldens = try GoldenStore(folder: goldens).load()
        return try runner.run()
    }

    static func write(_ files: [(path: String, text: String)], to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("pairs"), withIntermediateDirectories: true)
        for f in files { try Data(f.text.utf8).write(to: dir.appendingPathComponent(f.path)) }
    }

    static func write(thumbnails: [(path: String, png: [UInt8])], to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("thumbs"), withIntermediateDirectories: true)
        for t in thumbnails { try Data(t.png).write(to: dir.appendingPathComponent(t.path)) }
    }

    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-run-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("index.html and pair pages of a real run render in headless Chromium with no console error",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func rendersInChromium() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try Self.realRun(in: dir)
        let r = outcome.results
        // The swapped goldens are far from the oracle, the built-in outputs pass their gates: every
        // colour-patch pair changed and moved closer (the animation's gray scene may equal its golden).
        #expect(r.pairs.allSatisfy { $0.verdict == .pass || $0.verdict == .changedCloser })
        #expect(r.pairs.filter { $0.caseID.contains("colorPatches") }.allSatisfy { $0.verdict == .changedCloser && $0.goldenHash != nil })
        let report = dir.appendingPathComponent("report")
        let files = RunReport.files(r, evidence: outcome.evidence, threads: 2)
        #expect(files.count == r.pairs.count + 1 && files.last?.path == "index.html")
        try Self.write(files, to: report)
        try Self.write(thumbnails: RunReport.thumbnails(r, evidence: outcome.evidence), to: report)

        let index = try chromium.render(report.appendingPathComponent("index.html"))
        #expect(index.status == 0)
        #expect(index.dom.contains("data-ready=\"1\""), "the index script did not finish")
        #expect(index.errors.isEmpty, "\(index.errors)")
        #expect(index.dom.contains("of \(r.pairs.count) pairs shown"), "the filter script did not count the rows")

        // A matrix cell's link filters the list: the script reads the fragment.
        let first = r.pairs[0]
        let cell = URL(string: report.appendingPathComponent("index.html").absoluteString + "#container=\(first.container)&orientation=\(first.orientation)")!
        let filtered = try chromium.render(cell)
        #expect(filtered.errors.isEmpty, "\(filtered.errors)")
        let expected = r.pairs.count { $0.container == first.container && $0.orientation == first.orientation }
        #expect(filtered.dom.contains("\(expected) of \(r.pairs.count) pairs shown"))

        let pages = files.filter { $0.path.hasPrefix("pairs/") }
        for page in [pages.first, pages.last].compactMap({ $0 }) {
            let rendered = try chromium.render(report.appendingPathComponent(page.path))
            #expect(rendered.status == 0)
            #expect(rendered.dom.contains("data-ready=\"1\""), "\(page.path): the viewer script did not finish")
            #expect(rendered.errors.isEmpty, "\(page.path): \(rendered.errors)")
            for figure in ["alt=\"source\"", "alt=\"oracle\"", "alt=\"golden\"", "alt=\"output\""] {
                #expect(page.text.contains(figure), "\(page.path) lacks \(figure)")
            }
        }
    }

    /// Sets the title wherever it runs as markup; shown as text, it changes nothing.
    static let payload = "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">"

    /// The report pages of a one-pair run whose id, family, message, warnings and image names
    /// all hold ``payload``.
    static func hostileFiles() throws -> [(path: String, text: String)] {
        var runner = try LabRuns.runner(BuiltinResizer(), filter: "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24")
        runner.keepEvidence = true
        let outcome = try runner.run()
        var r = outcome.results
        try #require(r.pairs.count == 1)
        var evidence = try #require(outcome.evidence[0])
        let p = Self.payload
        r.pairs[0].pair = p + "/" + p
        r.pairs[0].caseID = p
        r.pairs[0].operation = p
        r.pairs[0].encoding = p
        r.pairs[0].container = p
        r.pairs[0].family = p
        r.pairs[0].message = p
        r.pairs[0].golden = p
        r.warnings = [p]
        evidence.comparison.expected.name = p
        evidence.comparison.actual.name = p
        evidence.source?.name = p
        return RunReport.files(r, evidence: [evidence], threads: 1)
    }

    @Test("a pair whose id, family, message and image names contain <script> is written as text, never as markup")
    func hostileStringsAreEscaped() throws {
        let files = try Self.hostileFiles()
        #expect(files.count == 2)
        for f in files {
            #expect(!f.text.contains("<script>document"), "\(f.path) holds the payload as markup")
            #expect(!f.text.contains("<img src=x"), "\(f.path) holds the payload as markup")
            #expect(f.text.contains("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;"), "\(f.path) does not show the payload as text")
        }
    }

    @Test("a pair whose id, family, message and image names contain <script> renders inert in headless Chromium: document.title unchanged",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func hostileStringsAreInert() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.hostileFiles()
        let p = Self.payload
        let report = dir.appendingPathComponent("report")
        try Self.write(files, to: report)
        // Negative control: the payload as markup does change the title, so the check below can fail.
        let control = dir.appendingPathComponent("control.html")
        try Data("<!DOCTYPE html><html><head><title>written</title></head><body>\(p)</body></html>".utf8).write(to: control)
        #expect(try chromium.render(control).title == "PWNED", "the payload did not run even as markup")
        for f in files {
            let page = try chromium.render(report.appendingPathComponent(f.path))
            let written = HeadlessChromium.title(ofHTML: f.text)
            #expect(written != nil, "\(f.path): no <title>")
            #expect(page.dom.contains("data-ready=\"1\""), "\(f.path): the script did not finish")
            #expect(page.title == written, "\(f.path): the payload ran: the title became \(page.title ?? "nil")")
            #expect(!page.dom.contains("<img src=\"x\""), "\(f.path): the payload became an element")
            #expect(page.dom.contains("&lt;script&gt;document.title='PWNED'&lt;/script&gt;"), "\(f.path): the payload is not shown as text")
            #expect(page.errors.isEmpty, "\(f.path): \(page.errors)")
        }
    }

    @Test("a run whose contract was fingerprinted shows the contract table in Chromium: one row per finding, sRGB averaging as a design choice, the header linking to it",
          .enabled(if: HeadlessChromium.testsRun, "needs chromium on PATH (apt-get install chromium, or set IMGLAB_CHROMIUM)"))
    func contractTableRenders() throws {
        let chromium = try #require(HeadlessChromium.found, "chromium is not installed (apt-get install chromium, or set IMGLAB_CHROMIUM)")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mutant = try #require(MutantCatalogue.mutant("srgb-averaging")).make(BuiltinResizer())
        var runner = try LabRuns.runner(mutant, filter: "png-rgb8-colorPatches-48x32/resize-aspectFit-24x24")
        runner.keepEvidence = true
        let outcome = try runner.run()
        var results = outcome.results
        let fingerprint = ContractFingerprint.infer(mutant)
        results.contract = fingerprint
        results.policy = fingerprint.contractPolicy(requiring: [])
        let report = dir.appendingPathComponent("report")
        try Self.write(RunReport.files(results, evidence: outcome.evidence, threads: 2), to: report)
        try Self.write(thumbnails: RunReport.thumbnails(results, evidence: outcome.evidence), to: report)
        let index = try chromium.render(report.appendingPathComponent("index.html"))
        #expect(index.errors.isEmpty, "\(index.errors)")
        #expect(index.dom.contains("id=\"contract-table\""))
        #expect(index.dom.components(separatedBy: "<tr class=\"k-").count - 1 == fingerprint.findings.count)
        let light = try #require(index.dom.components(separatedBy: "<tr class=\"k-design\"><td>light space</td>").dropFirst().first)
        #expect(light.prefix(400).contains("sRGB-encoded values"), "\(light.prefix(400))")
        #expect(index.dom.contains("href=\"#contract\""), "the header does not link to the table")
    }
}
