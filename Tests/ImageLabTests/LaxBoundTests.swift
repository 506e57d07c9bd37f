import Foundation
import Testing
@testable import ImageLab
@testable import ImageCorpus

@Suite("Lax bounds")
struct LaxBoundTests {
    static func result(_ family: String, _ metrics: [String: Double], verdict: PairResult.Verdict = .pass) -> PairResult {
        PairResult(pair: "c/o", caseID: "c", operation: "o", encoding: "png-rgb8", container: "png", orientation: 1,
                   family: family, verdict: verdict, gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1],
                   metrics: metrics, diagnosis: nil, message: nil)
    }

    static func book(_ gate: String) throws -> GateBook {
        try GateBook(data: Data(#"{"schema": "imglab-gates/1", "families": [{"name": "f", "gate": "\#(gate)"}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}"#.utf8))
    }

    @Test("a distance bound warns when the worst value is below 75 % of it")
    func distance() throws {
        let gates = try Self.book("visible.max <= 10")
        // worst 7 → 70 %: warn; worst 8 → 80 %: fine.
        let lax = LaxBound.find(gates: gates, results: [Self.result("f", ["visible.max": 3]), Self.result("f", ["visible.max": 7])])
        #expect(lax.count == 1 && lax[0].worst == 7 && abs(lax[0].ratio - 0.7) < 1e-12)
        #expect(LaxBound.find(gates: gates, results: [Self.result("f", ["visible.max": 8])]).isEmpty)
    }

    @Test("a similarity bound is measured from the perfect value")
    func similarity() throws {
        // ssim ≥ 0.9: headroom 0.1; worst 0.93 uses 0.07 of it (70 %): warn. ssimulacra2 ≥ 60: worst 65 uses 35/40.
        let gates = try Self.book("ssim >= 0.9 && 60 <= ssimulacra2")
        let lax = LaxBound.find(gates: gates, results: [Self.result("f", ["ssim": 0.93, "ssimulacra2": 65]), Self.result("f", ["ssim": 0.99, "ssimulacra2": 90])])
        #expect(lax.map(\.metric) == ["ssim"])
        #expect(abs(lax[0].ratio - 0.7) < 1e-9)
    }

    @Test("signed metrics and errors are not judged")
    func skipped() throws {
        let gates = try Self.book("-2 <= cast.a <= 2 && visible.max <= 10")
        let lax = LaxBound.find(gates: gates, results: [Self.result("f", ["cast.a": 0, "visible.max": 9]), Self.result("f", [:], verdict: .error)])
        #expect(lax.isEmpty)
    }
}
