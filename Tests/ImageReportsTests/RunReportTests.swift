import Foundation
import Testing
import ImageReports
@testable import ImageLab
import ImageCorpus
import ImageMetrics

@Suite("Run report")
struct RunReportTests {
    static func results(caseID: String, message: String) -> RunResults {
        let pair = PairResult(pair: "\(caseID)/op", caseID: caseID, operation: "op", encoding: "e", container: "png", orientation: 1,
                              family: "f<i>", verdict: .fail, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1],
                              metrics: [:], diagnosis: .init(bugClass: "channel-order", name: "R & B", confidence: 0.9, summary: "s"),
                              message: message)
        let ok = PairResult(pair: "ok/op", caseID: "ok", operation: "op", encoding: "e", container: "png", orientation: 1,
                            family: "f", verdict: .pass, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1],
                            metrics: [:], diagnosis: nil, message: nil)
        return RunResults(resizer: "r\"x", profile: "quick", corpus: "C", filter: [], shard: [1, 1], gatesFile: "gates.json",
                          gates: [.init(family: "f", gate: "a < b")], metricDefinitions: [:], canaries: [],
                          pairs: [ok, pair], summary: RunResults.summarize([ok, pair]), warnings: ["<b>w</b>"])
    }

    @Test("a scale pair's costs show in its JUnit output and on its index row: MiB, over the floor, seconds, the floor's scale and the ratio")
    func costsShown() throws {
        let mib = 1_048_576
        var pair = PairResult(pair: "c/op", caseID: "c", operation: "op", encoding: "e", container: "jpeg", orientation: 1,
                              family: "f", verdict: .pass, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1],
                              metrics: [:], diagnosis: nil, message: nil)
        pair.cost = ScaleCost(resizer: ProcessCost(peakRSSBytes: 40 * mib, cpuSeconds: 0.9, wallSeconds: 1),
                              floor: ProcessCost(peakRSSBytes: 30 * mib, cpuSeconds: 0.3, wallSeconds: 0.4), floorScale: 8,
                              gate: try GateExpression("cost.cpu.ratio <= 4").evaluate { $0 == "cost.cpu.ratio" ? 3 : nil })
        // 40 MiB, 40 − 30 = 10 over the floor, 0.9 s against 0.3 s at 1/8: × 3.
        let expected = "rss 40.0 MiB (10.0 over the floor)  cpu 0.90 s (floor 0.30 s at 1/8, ×3.00)  wall 1.00 s"
        #expect(JUnitReport.testcase(pair).contains("cost: " + expected))
        #expect(JUnitReport.testcase(pair).contains("cost gate: cost.cpu.ratio &lt;= 4"))
        #expect(RunReport.indexRow(pair, link: nil).contains("cost: " + expected))
    }

    @Test("every string in the index and in JUnit is escaped")
    func escaped() {
        let r = Self.results(caseID: "<script>alert(1)</script>", message: "a \"quoted\" & 'odd' \u{1} message")
        let html = RunReport.index(r, links: [1: "pairs/0001-x.html"])
        #expect(!html.contains("<script>alert"))
        // Rows are data in a script block: `<` is written \u003c there, so no text can close it.
        #expect(html.contains("\"t\":\"\\u003cscript>alert(1)\\u003c/script>\""))
        #expect(!html.contains("<b>w</b>") && !html.contains("f<i>"))
        let xml = JUnitReport.xml(r)
        #expect(!xml.contains("<script>") && !xml.contains("\u{1}"))
        #expect(xml.contains("&quot;quoted&quot; &amp; &#39;odd&#39;"))
    }

    @Test("the index lists failures before passes and counts each verdict")
    func failuresFirst() throws {
        let html = RunReport.index(Self.results(caseID: "bad", message: "m"), links: [:])
        let fail = try #require(html.range(of: "{\"s\":\"fail\",")), pass = try #require(html.range(of: "{\"s\":\"pass\","))
        #expect(fail.lowerBound < pass.lowerBound)
        #expect(html.contains("2 pairs: <b>1</b> pass, <b>1</b> fail, <b>0</b> error"))
    }

    @Test("results written before the golden verdicts existed still decode, with zero changed counts")
    func oldSummaryDecodes() throws {
        var r = Self.results(caseID: "c", message: "m")
        let data = try r.jsonData()
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var summary = try #require(object["summary"] as? [String: Any])
        summary.removeValue(forKey: "changedCloser")
        summary.removeValue(forKey: "changedFurther")
        object["summary"] = summary
        let old = try RunResults.decode(try JSONSerialization.data(withJSONObject: object))
        #expect(old.summary == RunResults.Summary(pairs: 2, pass: 1, fail: 1, error: 0))
        r.pairs[1].verdict = .changedFurther
        #expect(RunResults.summarize(r.pairs).changedFurther == 1 && RunResults.summarize(r.pairs).fail == 0)
    }
}
