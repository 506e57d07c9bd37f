import Testing
import ImageMetrics

/// The gate parser's bounds: nesting of parentheses and `!` up to ``GateExpression/maxNesting``,
/// comparisons up to ``GateExpression/maxComparisons``; one more is a syntax error naming the limit.
@Suite("gate expression limits")
struct GateLimitTests {
    @Test("64 levels of parentheses or '!' parse; 65 are a syntax error at the 65th, naming the limit")
    func nesting() throws {
        #expect(GateExpression.maxNesting == 64)
        for opening in ["(", "!"] {
            func gate(_ depth: Int) -> String {
                String(repeating: opening, count: depth) + "exact.max <= 1" + (opening == "(" ? String(repeating: ")", count: depth) : "")
            }
            _ = try GateExpression(gate(64))
            #expect(throws: GateError.syntax("nested deeper than 64 levels of parentheses and '!', the limit", position: 64)) {
                _ = try GateExpression(gate(65))
            }
        }
    }

    @Test("1000 comparisons parse; 1001 are a syntax error naming the limit")
    func comparisons() throws {
        #expect(GateExpression.maxComparisons == 1000)
        _ = try GateExpression(Array(repeating: "exact.max <= 1", count: 1000).joined(separator: " && "))
        #expect {
            _ = try GateExpression(Array(repeating: "exact.max <= 1", count: 1001).joined(separator: " && "))
        } throws: { error in
            guard case .syntax(let why, _) = error as? GateError else { return false }
            return why == "more than 1000 comparisons, the limit"
        }
    }
}
