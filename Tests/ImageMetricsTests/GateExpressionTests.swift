import Testing
import ImageMetrics

/// The gate language: parsing, bounds, chains, errors, and failing closed on missing values.
@Suite("gate expressions")
struct GateExpressionTests {
    static let values: [String: Double] = ["deltaE00.p99": 1.5, "ssim": 0.985, "alpha.max": 1, "exact.over.5": 120, "exact.over.20": 3, "psnr": .infinity]

    func evaluate(_ text: String) throws -> GateResult {
        try GateExpression(text).evaluate { Self.values[$0] }
    }

    @Test("the issue's example passes when every bound holds and fails when one does not")
    func conjunction() throws {
        #expect(try evaluate("deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1").passed)
        #expect(try !evaluate("deltaE00.p99 <= 2 && ssim >= 0.99 && alpha.max <= 1").passed)
    }

    @Test("bucketed tolerances read like Gecko's fuzzy ranges")
    func buckets() throws {
        #expect(try !evaluate("exact.over.5 <= 100 && exact.over.20 <= 10").passed)
        #expect(try evaluate("exact.over.5 <= 200 && exact.over.20 <= 10").passed)
    }

    @Test("chains give lower and upper bounds; or, not and parentheses work")
    func chains() throws {
        #expect(try evaluate("0.98 <= ssim <= 1").passed)
        #expect(try !evaluate("0.99 <= ssim <= 1").passed)
        #expect(try evaluate("ssim > 0.99 || (alpha.max == 1 && !(deltaE00.p99 > 2))").passed)
        #expect(try evaluate("psnr >= inf").passed)
        #expect(try evaluate("ssim != 1").passed)
    }

    @Test("every comparison is reported with the value it saw")
    func clauses() throws {
        let r = try evaluate("ssim >= 0.99 && alpha.max <= 1")
        #expect(r.clauses.map(\.passed) == [false, true])
        #expect(r.clauses[0].text == "ssim 0.985 < 0.99: fails")
    }

    @Test("syntax errors say where", arguments: ["ssim >=", "ssim 0.9", "(ssim >= 1", "ssim >= 1 &&", "1 <= 2", "ssim >= 1 extra"])
    func syntax(_ text: String) {
        #expect(throws: GateError.self) { try GateExpression(text) }
    }

    @Test("unknown metric names are refused with suggestions")
    func unknown() {
        do {
            _ = try GateExpression("deltaE00.p98 <= 2")
            Issue.record("no error")
        } catch {
            guard case .unknownMetric(let name, let suggestions) = error else { Issue.record("wrong error \(error)"); return }
            #expect(name == "deltaE00.p98")
            #expect(suggestions.contains("deltaE00.p99"))
        }
    }

    @Test("a metric without a value makes the gate throw when the result depends on it (fail closed)")
    func missing() throws {
        let gate = try GateExpression("msssim >= 0.9 || ssim >= 2")
        #expect(throws: GateError.missingValue("msssim")) { try gate.evaluate { $0 == "ssim" ? 1 : nil } }
        #expect(throws: GateError.missingValue("ssim")) { try GateExpression("!(ssim >= 0.9)").evaluate { _ in nil } }
        #expect(throws: GateError.missingValue("ssim")) { try GateExpression("ssim >= 0.9 && exact.max <= 1").evaluate { $0 == "exact.max" ? 0 : nil } }
    }

    @Test("an unknown comparison follows Kleene's logic: unknown || true passes, unknown && false fails, neither throws")
    func kleene() throws {
        let thin = try GateExpression("(ssim >= 0.9 || size.min < 11) && exact.max <= 1")
        let values: [String: Double] = ["size.min": 1, "exact.max": 0]
        let result = try thin.evaluate { values[$0] }
        #expect(result.passed)
        #expect(result.clauses.map(\.text) == ["ssim (no value) >= 0.9: unknown", "size.min 1 < 11: holds", "exact.max 0 <= 1: holds"])
        #expect(result.clauses.map(\.passed) == [false, true, true])
        #expect(result.clauses[0].metric == "ssim" && result.clauses[0].observed == nil && result.clauses[0].bound == ">= 0.9")
        #expect(result.clauses.map(\.excused) == [true, nil, nil])
        #expect(result.failedClauses.isEmpty)

        let failed = try thin.evaluate { ["size.min": 1, "exact.max": 5][$0] }
        #expect(!failed.passed)
        #expect(failed.failedClauses == ["exact.max 5 > 1: fails"])
        // A failed alternative of a held `||` is not why a gate failed.
        let other = try thin.evaluate { ["ssim": 0.95, "size.min": 40, "exact.max": 5][$0] }
        #expect(other.failedClauses == ["exact.max 5 > 1: fails"])
        #expect(try !GateExpression("ssim >= 0.9 && exact.max <= 1").evaluate { $0 == "exact.max" ? 5 : nil }.passed)
        // Where SSIM has a value, it is gated as written.
        #expect(try !thin.evaluate { ["ssim": 0.5, "size.min": 40, "exact.max": 0][$0] }.passed)
        #expect(throws: GateError.missingValue("ssim")) { try thin.evaluate { ["size.min": 40, "exact.max": 0][$0] } }
    }
}
