import Testing
import ImageReports
@testable import ImageLab
@testable import ImageCorpus

/// The selftest's verdict: which rows and built-in runs make it fail.
@Suite("kill matrix")
struct KillMatrixTests {
    static func result(_ pair: String, _ verdict: PairResult.Verdict, diagnosis: String? = nil, message: String? = nil, family: String = "resample") -> PairResult {
        PairResult(pair: pair, caseID: "c", operation: "o", encoding: "e", container: "png", orientation: 1, family: family, verdict: verdict,
                   gate: nil, frames: 1, expectedSize: [1, 1], actualSize: [1, 1], metrics: [:],
                   diagnosis: diagnosis.map { .init(bugClass: $0, name: nil, confidence: 1, summary: $0) }, message: message)
    }

    static let cleanBuiltin = KillMatrix.Builtin(pairs: 3, pass: 3, failures: [], warnings: [])

    @Test("a mutant caught and named on every caught pair passes; accuracy counts caught pairs only")
    func named() {
        let row = KillMatrix.row(for: .pinkTint, results: [
            Self.result("a", .fail, diagnosis: "alpha-position"), Self.result("b", .pass), Self.result("c", .fail, diagnosis: "alpha-position", family: "lossy"),
        ])
        #expect(row.run == 3 && row.caught == 2 && row.named == 2 && row.accuracy == 1)
        #expect(row.cells["resample"] == KillMatrix.Cell(run: 2, caught: 1, named: 1))
        #expect(row.cells["lossy"] == KillMatrix.Cell(run: 1, caught: 1, named: 1))
        #expect(KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [row]).isEmpty)
    }

    @Test("a mutant never caught fails the selftest")
    func neverCaught() {
        let row = KillMatrix.row(for: .pinkTint, results: [Self.result("a", .pass), Self.result("b", .pass)])
        #expect(row.caught == 0 && row.accuracy == nil)
        let reasons = KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [row])
        #expect(reasons.count == 1 && reasons[0].contains("never caught"))
    }

    @Test("accuracy below 90 % fails: 8 named of 9 caught is 89 %, 9 of 10 is 90 %")
    func accuracy() {
        let eight = (0..<8).map { Self.result("n\($0)", .fail, diagnosis: "alpha-position") } + [Self.result("x", .fail, diagnosis: "channel-order")]
        let row = KillMatrix.row(for: .pinkTint, results: eight)
        #expect(row.misses.map(\.pair) == ["x"])
        #expect(!KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [row]).isEmpty)
        let nine = KillMatrix.row(for: .pinkTint, results: eight + [Self.result("n8", .fail, diagnosis: "alpha-position")])
        #expect(KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [nine]).isEmpty)
    }

    @Test("no mutant is exempt from the 90 % rule: 33 of 37 (89 %) fails for every former diagnosis gap", arguments: [
        "straight-as-premultiplied", "palette-trns-ignored", "srgb-averaging", "nearest-neighbour",
    ])
    func noExemption(_ id: String) throws {
        let mutant = try #require(MutantCatalogue.mutant(id))
        let results = (0..<33).map { Self.result("n\($0)", .fail, diagnosis: mutant.bugClass) }
            + (0..<4).map { Self.result("m\($0)", .fail, diagnosis: nil) }
        let row = KillMatrix.row(for: mutant, results: results)
        #expect(row.caught == 37 && row.named == 33)
        let reasons = KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [row])
        #expect(reasons.count == 1 && reasons[0].contains("33 of 37"))
    }

    @Test("a mutant no pair triggers fails, and so does a built-in failure")
    func emptyAndBuiltin() {
        let empty = KillMatrix.row(for: .pinkTint, results: [])
        #expect(KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [empty]).first?.contains("no pair") == true)
        let broken = KillMatrix.Builtin(pairs: 3, pass: 2, failures: [.init(pair: "a", diagnosis: "fail")], warnings: [])
        let good = KillMatrix.row(for: .pinkTint, results: [Self.result("a", .fail, diagnosis: "alpha-position")])
        #expect(KillMatrix.reasons(builtin: broken, mutants: [good]).first?.contains("built-in") == true)
    }

    @Test("errors count as named only when they carry Quartz's context-creation text")
    func quartzErrors() {
        let row = KillMatrix.row(for: .contextFromSource, results: [
            Self.result("a", .error, message: "resizer x: failed: CGBitmapContextCreate: unsupported parameter combination"),
            Self.result("b", .error, message: "resizer x: failed: out of memory"),
        ])
        #expect(row.caught == 2 && row.named == 1)
    }

    @Test("the report escapes every string and marks a mutant below 90 % as failing")
    func reportEscapes() {
        var row = KillMatrix.row(for: .nearestNeighbour, results: [Self.result("<img src=x>/o", .fail, diagnosis: "light-space")])
        row.title = "<script>alert(1)</script>"
        let m = KillMatrix(profile: "quick", allPairs: false, families: ["resample"], builtin: Self.cleanBuiltin, mutants: [row],
                           passed: true, reasons: [])
        let html = SelftestReport.html(m)
        #expect(!html.contains("<script>") && html.contains("&lt;script&gt;"))
        #expect(!html.contains("<img src=x>"))
        #expect(html.contains("<tr class=\"fail\"><td><a href=\"#nearest-neighbour\">"))
        #expect(!html.contains("Known diagnosis gap"))
    }
}
