import Foundation
import Testing
import ImageCore
import ImageCodecs

/// `imglab diff --gate` with nesting far past the parser's limit is a usage error, not a stack overflow.
@Suite("deep gate on the command line")
struct DeepGateCommandTests {
    /// One argument holds at most 128 KiB on Linux (MAX_ARG_STRLEN), so the parentheses stay open:
    /// the limit is met long before the missing ')'.
    @Test("diff --gate with 100,000 nested parentheses or '!' exits 2 naming the nesting limit of 64", arguments: ["(", "!"])
    func deepGate(opening: String) throws {
        let input = try CommandLineNumberTests.input()
        defer { try? FileManager.default.removeItem(atPath: input) }
        let gate = String(repeating: opening, count: 100_000) + "exact.max <= 1"
        let run = try ImglabRun.run(["diff", input, input, "--gate", gate])
        #expect(run.status == 2, "\(run.stderr.prefix(300))")
        #expect(run.stderr.contains("nested deeper than 64 levels of parentheses and '!', the limit"))
    }
}
