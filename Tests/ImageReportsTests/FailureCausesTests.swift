import Testing
import ImageReports
@testable import ImageLab

/// Failures grouped by the cause the diagnosis names, in the run summary and on the index.
@Suite("Failures by cause")
struct FailureCausesTests {
    static func pair(_ id: String, _ verdict: PairResult.Verdict, bugClass: String?, name: String?) -> PairResult {
        PairResult(pair: id, caseID: id, operation: "op", encoding: "e", container: "png", orientation: 1,
                   family: "f", verdict: verdict, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1], metrics: [:],
                   diagnosis: .init(bugClass: bugClass, name: name, confidence: bugClass == nil ? 0 : 0.9, summary: "s"), message: nil)
    }

    /// Five halos, two swaps, three undiagnosed, one error and two passes, interleaved.
    static let pairs: [PairResult] = [
        pair("a", .fail, bugClass: "premultiplication", name: "halo"), pair("b", .pass, bugClass: nil, name: nil),
        pair("c", .fail, bugClass: "channel-order", name: "swap"), pair("d", .fail, bugClass: nil, name: nil),
        pair("e", .fail, bugClass: "premultiplication", name: "halo"), pair("f", .error, bugClass: nil, name: nil),
        pair("g", .fail, bugClass: "premultiplication", name: "halo"), pair("h", .changedFurther, bugClass: "channel-order", name: "swap"),
        pair("i", .fail, bugClass: nil, name: nil), pair("j", .fail, bugClass: "premultiplication", name: "halo"),
        pair("k", .fail, bugClass: "premultiplication", name: "halo"), pair("l", .fail, bugClass: nil, name: nil),
        pair("m", .pass, bugClass: nil, name: nil),
    ]

    @Test("failures are counted once per cause, largest first, with the first examples; errors and passes are not failures")
    func grouped() {
        var causes = FailureCauses()
        Self.pairs.forEach { causes.add($0) }
        #expect(causes.byCount.map(\.count) == [5, 2] && causes.byCount.map { $0.forms.map(\.name) } == [["halo"], ["swap"]])
        #expect(causes.byCount[0].examples == ["a", "e", "g"] && causes.byCount[1].examples == ["c", "h"])
        #expect(causes.undiagnosed?.count == 3 && causes.undiagnosed?.examples == ["d", "i", "l"])
        #expect(causes.lines == [
            "5 failures, one cause: premultiplication — halo, e.g. a, e, g",
            "2 failures, one cause: channel-order — swap, e.g. c, h",
            "3 failures undiagnosed (no cause explains half the difference), e.g. d, i, l",
        ])
    }

    @Test("one bug class in several forms is one cause: counted once, its most frequent form named, the others counted")
    func forms() {
        var causes = FailureCauses()
        let names = ["orientation 2", "orientation 3", "orientation 3", "orientation 5", "orientation 3", "orientation 2"]
        for (i, name) in names.enumerated() { causes.add(Self.pair("p\(i)", .fail, bugClass: "orientation", name: name)) }
        let g = causes.byCount[0]
        #expect(causes.byCount.count == 1 && g.count == 6)
        #expect(g.forms.map(\.name) == ["orientation 3", "orientation 2", "orientation 5"] && g.forms.map(\.count) == [3, 2, 1])
        #expect(causes.lines == ["6 failures, one cause: orientation — orientation 3 (and 2 other forms), e.g. p0, p1, p2"])
    }

    @Test("the run's index has a 'Failures by cause' table with a row per cause and the undiagnosed row last")
    func onTheIndex() {
        let r = RunResults(resizer: "r", profile: "quick", corpus: "C", filter: [], shard: [1, 1], gatesFile: "gates.json",
                           gates: [], metricDefinitions: [:], canaries: [], pairs: Self.pairs,
                           summary: RunResults.summarize(Self.pairs), warnings: [])
        let html = RunReport.index(r, links: [:])
        #expect(html.contains("Failures by cause"))
        let rows = ["<tr><td>5</td><td>premultiplication</td><td>5 × halo</td><td>a, e, g</td></tr>",
                    "<tr><td>2</td><td>channel-order</td><td>2 × swap</td><td>c, h</td></tr>",
                    "<tr><td>3</td><td>undiagnosed</td><td>no cause explains half of the difference</td><td>d, i, l</td></tr>"]
        let positions = rows.compactMap { html.range(of: $0)?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted(), "\(rows.filter { !html.contains($0) })")
    }
}
