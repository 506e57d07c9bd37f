import Foundation
import Testing

/// `imglab selftest`'s exit status as CI reads it: 0 when every mutant run is caught and named and
/// the built-in resizer passes every pair, 1 when either is not so (the command's documented
/// statuses), with the JSON's `passed` and `reasons` saying the same.
@Suite("Selftest command", .serialized)
struct SelftestCommandTests {
    static let corpus = RunCommandTests.corpus

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("selftest exits 0 when the mutant is caught and named and the built-in resizer passes every pair")
    func passes() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-selftest-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: json) }
        let run = try ImglabRun.run(["selftest", "--corpus", Self.corpus, "--mutant", "swap-rb", "--report", "none", "--json", json, "--threads", "2"])
        #expect(run.status == 0, "\(run.stdout.suffix(800)) \(run.stderr.suffix(800))")
        #expect(run.stdout.contains(": PASS"))
        let matrix = try Self.json(json)
        #expect(matrix["passed"] as? Bool == true)
        #expect((matrix["reasons"] as? [String])?.isEmpty == true)
    }

    @Test("selftest exits 1 when the built-in resizer fails a pair: a corpus whose kernel-premultiplied gate no output can meet")
    func failsOnBuiltinFailure() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-selftest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = dir.appendingPathComponent("Corpus")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.corpus, toPath: corpus.path)
        // `visible.max <= 0 && visible.max >= 1` holds for no value: every pair of the family fails.
        let gatesFile = corpus.appendingPathComponent("gates.json")
        var gates = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: gatesFile)) as? [String: Any])
        var families = try #require(gates["families"] as? [[String: Any]])
        let index = try #require(families.firstIndex { $0["name"] as? String == "kernel-premultiplied" })
        families[index]["gate"] = "visible.max <= 0 && visible.max >= 1"
        gates["families"] = families
        try JSONSerialization.data(withJSONObject: gates).write(to: gatesFile)

        let json = dir.appendingPathComponent("selftest.json").path
        let run = try ImglabRun.run(["selftest", "--corpus", corpus.path, "--mutant", "swap-rb", "--report", "none", "--json", json, "--threads", "2"])
        #expect(run.status == 1, "\(run.stdout.suffix(800)) \(run.stderr.suffix(800))")
        #expect(run.stdout.contains(": FAIL"))
        let matrix = try Self.json(json)
        #expect(matrix["passed"] as? Bool == false)
        let reasons = try #require(matrix["reasons"] as? [String])
        #expect(reasons.count == 1 && reasons[0].hasPrefix("the built-in resizer failed"), "\(reasons)")
    }
}
