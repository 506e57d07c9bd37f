import Foundation
import Testing
@testable import ImageLab
@testable import ImageCorpus

/// `League.run`: several resizers over one corpus, a missing program skipped, a bad config refused.
@Suite("League")
struct LeagueTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-league-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the built-in resizer runs over the filtered pairs and a config whose program is missing gets a 'not installed' row, in order")
    func builtinAndMissingProgram() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let absent = dir.appendingPathComponent("absent-tool.json").path
        try Data(#"{"name": "absent-tool", "programs": {"tool": ["imglab-no-such-program-xyz"]}, "template": "{tool} {in} {out}"}"#.utf8)
            .write(to: URL(fileURLWithPath: absent))
        let expectedPairs = LabPair.all(in: try LabRunner.manifest(corpus: Self.corpus)).filter { $0.id.hasSuffix("/resize-aspectFit-24x24") }.count
        var events: [String] = []
        let outcome = try League(specs: ["builtin", "config:" + absent], corpus: Self.corpus, filter: "*/resize-aspectFit-24x24", threads: 2)
            .run { events.append("\($0)") }
        #expect(outcome.table.entries.map(\.status) == ["ran", "not installed"])
        #expect(outcome.table.entries.map(\.resizer) == ["builtin", "absent-tool"])
        #expect(outcome.table.entries[0].summary?.pairs == expectedPairs && outcome.table.entries[0].summary?.pass == expectedPairs)
        #expect(outcome.results.map(\.resizer) == ["builtin"])
        let declared = BuiltinResizer().policy.summary
        #expect(events.first == "builtin — declared: \(declared)")
        #expect(events.last == "skipping config:\(absent): not installed: none of imglab-no-such-program-xyz is on PATH")
        #expect(outcome.table.terminalText().contains("| builtin | \(declared) | \(expectedPairs) | 0 | 0 | 0 | 0 |"))
    }

    @Test("a config that cannot be read stops the league with a config error")
    func badConfig() {
        #expect(throws: LeagueError.self) {
            try League(specs: ["config:/nonexistent/resizer.json"], corpus: Self.corpus, filter: "*/resize-aspectFit-24x24", threads: 1).run()
        }
        #expect(throws: LeagueError.self) { try League(specs: ["builtin"], corpus: "/nonexistent-corpus").run() }
    }

    @Test("with no resizer named: builtin, then every config built into imglab, sorted: the JSON files of benchmarks/resizers/")
    func defaultSpecs() throws {
        let folder = QuickCorpus.packageRoot.appendingPathComponent("benchmarks/resizers").path
        let configs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(configs.count == 4, "benchmarks/resizers holds \(configs)")
        #expect(League.defaultSpecs == ["builtin"] + configs)
        #expect(League.resultsPath("cmd(imglab resize)") == "results/cmd_imglab_resize_.json")
    }
}
