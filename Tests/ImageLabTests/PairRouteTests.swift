import Foundation
import Testing

/// The pair route: every command that compares images goes through the judge's
/// stages. Only the metric core (ImageMetrics) and the route's stages (ImageLab/Route) may call
/// the core directly — build a ``Comparison``, run a ``Judge``, check the canaries; a command
/// (imglab), a sink (ImageReports), `expectImage` (ImageLabTesting) or any other layer that does
/// fails this test, which names the file and the call.
@Suite("pair route")
struct PairRouteTests {
    /// The calls into the metric core that only the route may make.
    static let coreCalls = ["Comparison(expected:", ".judge(expected:", "Canaries.check("]
    /// Where they may be made, relative to Sources/.
    static let routeFolders = ["ImageMetrics/", "ImageLab/Route/"]

    /// Every Swift file under Sources/, relative path → text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = QuickCorpus.packageRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            files.append((relative, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The core calls in a file's code (doc comments and comments left out).
    static func calls(in text: String) -> [String] {
        let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        // A call is the name not preceded by a letter (FileComparison(expected: is a stage, not the core).
        return coreCalls.filter { call in
            var range = code.startIndex..<code.endIndex
            while let hit = code.range(of: call, range: range) {
                if call.hasPrefix(".") || hit.lowerBound == code.startIndex || !code[code.index(before: hit.lowerBound)].isLetter { return true }
                range = hit.upperBound..<code.endIndex
            }
            return false
        }
    }

    @Test("no command, sink or other layer calls the metric core directly: only ImageMetrics and ImageLab/Route do")
    func onlyTheRouteCallsTheCore() throws {
        let files = try Self.sources()
        var outside: [String] = []
        var inside: Set<String> = []
        for file in files {
            let found = Self.calls(in: file.text)
            if Self.routeFolders.contains(where: { file.path.hasPrefix($0) }) {
                inside.formUnion(found)
            } else {
                outside += found.map { "\(file.path): \($0)" }
            }
        }
        #expect(outside.isEmpty, "calls into the metric core outside the route: \(outside)")
        // The scan sees the calls where they are made, so an empty list above is not the scan's blindness.
        #expect(inside == Set(Self.coreCalls), "calls found in the route: \(inside.sorted())")
    }

    @Test("the scan finds a core call in a command's code and skips one in a comment")
    func scanFindsCalls() {
        #expect(Self.calls(in: "let c = Comparison(expected: a, actual: b)") == ["Comparison(expected:"])
        #expect(Self.calls(in: "    /// Comparison(expected: a, actual: b)\n    // judge.judge(expected: a)").isEmpty)
        #expect(Self.calls(in: "let j = Judge(gate: g).judge(expected: e, actual: a)") == [".judge(expected:"])
        #expect(Self.calls(in: "try FileComparison(expected: a, actual: b).run()").isEmpty)
    }
}
