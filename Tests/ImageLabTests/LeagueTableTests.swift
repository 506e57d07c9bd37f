import Testing
import ImageReports
@testable import ImageLab
@testable import ImageCorpus

/// The league's grouping of errors and its HTML page.
@Suite("League table")
struct LeagueTableTests {
    @Test("errors group by the text before the command and the stderr's last line, paths as … and digit runs as #")
    func errorKey() {
        let a = "resizer pillow: failed: exit status 1: /usr/bin/python3 /w/pillow_resize.py /c/a.tif /t/call-7/out.png orient; stderr: Traceback (most recent call last):\n  File \"/w/pillow_resize.py\", line 80, in <module>\nPIL.UnidentifiedImageError: cannot identify image file '/c/a.tif'"
        let b = "resizer pillow: failed: exit status 1: /usr/bin/python3 /w/pillow_resize.py /c/b.tif /t/call-9/out.png resize fit 24 24; stderr: Traceback (most recent call last):\n  File \"/w/pillow_resize.py\", line 41, in main\nPIL.UnidentifiedImageError: cannot identify image file '/c/b.tif'"
        let expected = "resizer pillow: failed: exit status #: … PIL.UnidentifiedImageError: cannot identify image file …"
        #expect(LeagueTable.errorKey(a) == expected)
        #expect(LeagueTable.errorKey(b) == expected)
        #expect(LeagueTable.errorKey("resizer x: failed: timed out after 30 s (process group killed): /bin/tool in out") == "resizer x: failed: timed out after # s (process group killed):")
    }

    @Test("the HTML page escapes every name and message and forbids the network")
    func htmlEscapes() {
        let entry = LeagueTable.notRun(resizer: "<script>alert(1)</script>", spec: "config:x.json", status: "not installed", note: "none of \"a&b\" is on PATH", policy: nil)
        let html = LeagueReport.html(LeagueTable(profile: "quick", corpus: "Corpus", entries: [entry]))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a&amp;b"))
        #expect(html.contains("default-src 'none'"))
    }
}

/// The scale league's cost columns.
@Suite("League table costs")
struct LeagueTableCostTests {
    /// A passing pair `id` whose resizer took `cpu` s and `mib` MiB against a floor of 0.1 s and 10 MiB.
    func pair(_ id: String, cpu: Double, mib: Int, verdict: PairResult.Verdict = .pass) -> PairResult {
        var p = PairResult(pair: id, caseID: "c", operation: "op", encoding: "jpeg-420", container: "jpeg", orientation: 1, family: nil,
                           verdict: verdict, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1], metrics: [:], diagnosis: nil, message: nil)
        p.cost = ScaleCost(resizer: ProcessCost(peakRSSBytes: mib * 1_048_576, cpuSeconds: cpu, wallSeconds: cpu),
                           floor: ProcessCost(peakRSSBytes: 10 * 1_048_576, cpuSeconds: 0.1, wallSeconds: 0.1), floorScale: 1, gate: nil)
        return p
    }

    @Test("median and largest CPU ratio and peak RSS over the measured pairs, and memory over the floor")
    func costColumns() throws {
        let costs = try #require(LeagueTable.Costs([pair("a", cpu: 0.1, mib: 20), pair("b", cpu: 0.3, mib: 40, verdict: .fail),
                                                    pair("c", cpu: 0.2, mib: 30)]))
        // Ratios 1, 3, 2 → median 2, max 3; RSS 20, 40, 30 → median 30, max 40; over the 10 MiB floor: 30.
        #expect(costs.measured == 3)
        #expect(abs(costs.cpuRatioMedian - 2) < 1e-9 && abs(costs.cpuRatioMax - 3) < 1e-9)
        #expect(costs.rssMedian == 30 && costs.rssMax == 40 && costs.rssOverFloorMax == 30)
        #expect(costs.pairs.map(\.verdict) == [.pass, .fail, .pass])
        // Two pairs: the median is the mean of the middle two.
        #expect(try #require(LeagueTable.Costs([pair("a", cpu: 0.1, mib: 20), pair("b", cpu: 0.2, mib: 40)])).rssMedian == 30)
        #expect(LeagueTable.Costs([]) == nil)
    }

    @Test("the Markdown table gets cost columns and a pair-by-pair matrix only when a resizer has costs")
    func markdownColumns() throws {
        let costs = try #require(LeagueTable.Costs([pair("p/one", cpu: 0.25, mib: 12), pair("p/two", cpu: 0.1, mib: 50, verdict: .fail)]))
        var ran = LeagueTable.notRun(resizer: "tool", spec: "cmd:x", status: "ran", note: "", policy: nil)
        ran.summary = .init(pairs: 2, pass: 1, fail: 1, error: 0)
        ran.costs = costs
        let table = LeagueTable(profile: "scale", corpus: "Corpus", entries: [ran])
        #expect(table.markdown().contains("| 1.75 / 2.50 | 31.0 / 50.0 | 40.0 |"))
        #expect(table.costMatrix().contains("| p/one | ×2.50 · 12 |"))
        #expect(table.costMatrix().contains("| p/two | ×1.00 · 50 fail |"))
        ran.costs = nil
        let plain = LeagueTable(profile: "quick", corpus: "Corpus", entries: [ran])
        #expect(!plain.markdown().contains("CPU ÷ floor"))
        #expect(plain.costMatrix().isEmpty)
    }
}
