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
        #expect(r.clauses[0].text == "ssim (0.985) >= 0.99")
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

    @Test("a metric without a value makes the gate throw instead of passing (fail closed)")
    func missing() throws {
        let gate = try GateExpression("msssim >= 0.9 || ssim >= 0")
        #expect(throws: GateError.missingValue("msssim")) { try gate.evaluate { $0 == "ssim" ? 1 : nil } }
    }
}
