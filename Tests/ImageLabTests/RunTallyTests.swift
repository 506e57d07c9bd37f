import Foundation
import Testing
@testable import ImageLab

/// A streamed run keeps a tally instead of its pairs: each figure must equal the one computed
/// from the whole list (the functions the all-at-once results use).
@Suite("Run tally")
struct RunTallyTests {
    static func result(_ i: Int, family: String?, verdict: PairResult.Verdict, metrics: [String: Double],
                       policy: [PolicyLabel]? = nil) -> PairResult {
        var r = PairResult(pair: "c\(i)/o", caseID: "c\(i)", operation: "o", encoding: "png-rgb8", container: "png", orientation: 1,
                           family: family, verdict: verdict, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1],
                           metrics: metrics, diagnosis: nil, message: nil)
        r.policy = policy
        return r
    }

    static let book: GateBook = {
        // Three families; `f` bounds a distance and a similarity, `g` a distance and a signed metric (never lax),
        // `h` a distance by arithmetic (never checked for laxness).
        let text = #"{"schema": "imglab-gates/1", "families": [{"name": "f", "gate": "visible.max <= 10 && ssim >= 0.9"}, {"name": "g", "gate": "deltaE00.p99 <= 4 && -2 <= cast.a <= 2"}, {"name": "h", "derivedBounds": true, "gate": "visible.max <= 1"}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}"#
        return try! GateBook(data: Data(text.utf8))  // a fixed literal, not input
    }()

    /// Pairs of every verdict, both families, an error, a pair without a family, a missing metric.
    static let pairs: [PairResult] = [
        result(0, family: "f", verdict: .pass, metrics: ["visible.max": 3, "ssim": 0.99]),
        result(1, family: "f", verdict: .fail, metrics: ["visible.max": 7, "ssim": 0.93]),
        result(2, family: "f", verdict: .error, metrics: ["visible.max": 9.5]),
        result(3, family: "g", verdict: .pass, metrics: ["deltaE00.p99": 1, "cast.a": 0.5]),
        result(4, family: "g", verdict: .changedCloser, metrics: ["deltaE00.p99": 3.5, "cast.a": -1]),
        result(5, family: "g", verdict: .changedFurther, metrics: ["deltaE00.p99": 2, "psnr": .infinity]),
        result(6, family: nil, verdict: .error, metrics: [:]),
        result(7, family: "f", verdict: .pass, metrics: ["visible.max": 7, "ssim": 0.95],
               policy: [PolicyLabel(.srgbLightSpace, "averaged in sRGB"), PolicyLabel(.rounding(.floor), "sizes floored")]),
        result(8, family: "f", verdict: .pass, metrics: ["visible.max": 1, "ssim": 0.999], policy: [PolicyLabel(.srgbLightSpace, "averaged in sRGB")]),
        result(9, family: "h", verdict: .pass, metrics: ["visible.max": 0.1]),
    ]

    static func tally(_ pairs: [PairResult]) -> RunTally {
        var t = RunTally(gates: book)
        for p in pairs { t.add(p) }
        return t
    }

    @Test("the summary counts each verdict as summarize does, and the exit status follows it")
    func summary() {
        let t = Self.tally(Self.pairs)
        #expect(t.summary == RunResults.summarize(Self.pairs))
        // By hand: 5 pass (0, 3, 7, 8, 9), 1 fail, 2 error, 1 changed-closer, 1 changed-further of 10.
        #expect(t.summary == RunResults.Summary(pairs: 10, pass: 5, fail: 1, error: 2, changedCloser: 1, changedFurther: 1))
        #expect(t.exitStatus == 1)
        let passing = Self.pairs.filter { !$0.verdict.kind.fails }
        #expect(Self.tally(passing).exitStatus == 0)
    }

    @Test("the lax bounds equal LaxBound.find over the whole list")
    func laxBounds() {
        let t = Self.tally(Self.pairs)
        #expect(t.laxBounds == LaxBound.find(gates: Self.book, results: Self.pairs))
        // `h`'s worst, 0.1, is 10 % of its bound, but its bound is derived: no warning.
        #expect(!t.laxBounds.contains { $0.family == "h" })
        // By hand: f judged 0, 1, 7, 8 (2 erred): visible.max worst 7 of 10 → 70 % (lax); ssim worst 0.93 → 0.07 / 0.1 = 70 % (lax).
        // g judged 3, 4, 5: deltaE00.p99 worst 3.5 of 4 → 87.5 % (fine); cast.a is signed.
        #expect(t.laxBounds.map { "\($0.family) \($0.metric)" } == ["f visible.max", "f ssim"])
        #expect(t.laxBounds.first?.worst == 7)
    }

    @Test("the first of equally bad values is the worst, as max(by:) over the list keeps it")
    func firstOfEquals() {
        // 0.95 and 1.05 are equally far from ssim's perfect 1 (|v − 1| is the same double, 0.05 + 4.4e-17: both
        // subtractions are exact): the worst is whichever comes first; 0.05 of the 0.1 headroom is lax.
        let tied = [Self.result(0, family: "f", verdict: .pass, metrics: ["visible.max": 1, "ssim": 0.95]),
                    Self.result(1, family: "f", verdict: .pass, metrics: ["visible.max": 1, "ssim": 1.05])]
        #expect(Self.tally(tied).laxBounds == LaxBound.find(gates: Self.book, results: tied))
        #expect(Self.tally(tied.reversed()).laxBounds == LaxBound.find(gates: Self.book, results: tied.reversed()))
        #expect(Self.tally(tied).laxBounds.first { $0.metric == "ssim" }?.worst == 0.95)
        #expect(Self.tally(tied.reversed()).laxBounds.first { $0.metric == "ssim" }?.worst == 1.05)
    }

    @Test("the metric definitions and the policy counts equal those of the whole list")
    func definitionsAndPolicies() {
        let t = Self.tally(Self.pairs)
        #expect(t.metricDefinitions == RunResults.definitions(for: Self.pairs))
        let results = RunResults(resizer: "r", profile: "quick", corpus: "C", filter: [], shard: [1, 1], gatesFile: "gates.json", gates: [],
                                 metricDefinitions: [:], canaries: [], pairs: Self.pairs, summary: t.summary, warnings: [])
        #expect(t.policyCounts.map(\.kind) == results.policyCounts.map(\.kind))
        #expect(t.policyCounts.map(\.count) == results.policyCounts.map(\.count))
        // By hand: pairs 7 and 8 carry labels; light space twice, rounding once.
        #expect(t.pairsUnderPolicy == 2)
        #expect(t.policyCounts.map(\.count).reduce(0, +) == 3)
    }
}
