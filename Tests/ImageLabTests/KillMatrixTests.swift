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

    @Test("a subtle mutant needs 80 %, a gross one 90 %: 8 named of 10 caught passes the first and fails the second")
    func subtleAccuracy() throws {
        let subtle = try #require(MutantCatalogue.mutant("truncation")), gross = try #require(MutantCatalogue.mutant("swap-rb"))
        func results(_ m: Mutant) -> [PairResult] {
            (0..<8).map { Self.result("n\($0)", .fail, diagnosis: m.bugClass) } + (0..<2).map { Self.result("m\($0)", .fail, diagnosis: nil) }
        }
        let subtleRow = KillMatrix.row(for: subtle, results: results(subtle)), grossRow = KillMatrix.row(for: gross, results: results(gross))
        #expect(subtleRow.subtle && subtleRow.requiredAccuracy == 0.8 && subtleRow.meetsAccuracy)
        #expect(!grossRow.subtle && grossRow.requiredAccuracy == 0.9 && !grossRow.meetsAccuracy)
        #expect(KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [subtleRow]).isEmpty)
        let reasons = KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [grossRow])
        #expect(reasons.count == 1 && reasons[0].contains("8 of 10") && reasons[0].contains("< 90 %"))
        // 7 of 9 (78 %) is below 80 %.
        let seven = KillMatrix.row(for: subtle, results: Array(results(subtle).dropFirst()))
        #expect(!seven.meetsAccuracy && KillMatrix.reasons(builtin: Self.cleanBuiltin, mutants: [seven]).first?.contains("< 80 %") == true)
    }

    @Test("caught / triggered counts the caught pairs among those the triggers select, also when every pair ran")
    func caughtOfTriggered() {
        let results = [Self.result("a", .fail, diagnosis: "alpha-position"), Self.result("b", .pass),
                       Self.result("c", .fail, diagnosis: "alpha-position"), Self.result("d", .fail, diagnosis: "channel-order")]
        let all = KillMatrix.row(for: .pinkTint, results: results)
        #expect(all.triggered == 4 && all.caughtTriggered == 3 && all.caughtOfTriggered == "3/4")
        let some = KillMatrix.row(for: .pinkTint, results: results, triggered: { ["a", "b"].contains($0) })
        #expect(some.run == 4 && some.caught == 3 && some.triggered == 2 && some.caughtTriggered == 1 && some.caughtOfTriggered == "1/2")
        let m = KillMatrix(profile: "quick", allPairs: true, families: ["resample", "lossy"], builtin: Self.cleanBuiltin, mutants: [some],
                           passed: true, reasons: [])
        let header = m.table.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("caught/triggered") && header.contains("needs"))
        #expect(m.table.contains("1/2") && m.table.contains("≥ 90 %"))
        #expect(SelftestReport.html(m).contains("<td>1 / 2</td>"))
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
