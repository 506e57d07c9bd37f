import Foundation
import Testing

/// The package graph is the architecture: the README draws it, `Package.swift` declares it,
/// and the sources import exactly what is declared. ImageCorpus (the oracle) cannot see
/// ImageResize (the resizer it judges), so their independence is a compile-time fact.
@Suite("Module graph")
struct ModuleGraphTests {
    static let root = QuickCorpus.packageRoot
    static let projectModules: Set<String> = Set(try! declaredGraph().keys)

    /// Target name → its dependencies, for every non-test target of `Package.swift`
    /// (TestSupport, which lives under Tests/, is test code).
    static func declaredGraph() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = #"\.(target|executableTarget)\(\s*name:\s*"(\w+)"\s*,(\s*path:\s*"([^"]*)"\s*,)?(\s*dependencies:\s*\[([^\]]*)\])?"#
        let regex = try NSRegularExpression(pattern: pattern)
        var graph: [String: [String]] = [:]
        for m in regex.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            func group(_ i: Int) -> String? { Range(m.range(at: i), in: manifest).map { String(manifest[$0]) } }
            guard let name = group(2) else { continue }
            if let path = group(4), path.hasPrefix("Tests") { continue }
            let deps = (group(6) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }.filter { !$0.isEmpty }
            graph[name] = deps
        }
        return graph
    }

    /// The graph the README draws between its `module-graph` markers: `Name ← A, B` per line.
    static func readmeGraph() throws -> [String: [String]] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- module-graph"))
        let end = try #require(readme.range(of: "<!-- /module-graph -->"))
        var graph: [String: [String]] = [:]
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let first = text.first, first.isLetter else { continue }
            let parts = text.split(separator: "←", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let deps = parts.count > 1 ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
            graph[parts[0]] = deps
        }
        return graph
    }

    /// The project modules a target's sources import (any access level or attribute).
    static func imports(of target: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
        let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        let regex = try NSRegularExpression(pattern: #"(?m)^\s*(?:@\w+\s+)?(?:(?:public|internal|package|private)\s+)?import\s+(\w+)"#)
        var found: Set<String> = []
        for case let url as URL in walker where ["swift", "c", "h"].contains(url.pathExtension) {
            let text = try String(contentsOf: url, encoding: .utf8)
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text), projectModules.contains(String(text[r])) { found.insert(String(text[r])) }
            }
        }
        return found
    }

    static func closure(of target: String, in graph: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], stack = graph[target] ?? []
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += graph[next] ?? [] }
        }
        return seen
    }

    @Test("the README's module diagram is the graph Package.swift declares")
    func readmeDrawsThePackageGraph() throws {
        let declared = try Self.declaredGraph(), drawn = try Self.readmeGraph()
        #expect(declared.count >= 9, "Package.swift parsed to \(declared.keys.sorted())")
        #expect(Set(drawn.keys) == Set(declared.keys))
        for (name, deps) in declared {
            #expect(Set(drawn[name] ?? []) == Set(deps), "README draws \(name) ← \(drawn[name] ?? []), Package.swift declares \(deps)")
        }
    }

    @Test("the corpus and its oracles cannot see the resizer")
    func corpusIsIndependentOfTheResizer() throws {
        let graph = try Self.declaredGraph()
        #expect(graph["ImageCorpus"] != nil)
        #expect(!Self.closure(of: "ImageCorpus", in: graph).contains("ImageResize"))
        #expect(!Self.closure(of: "ImageMetrics", in: graph).contains("ImageResize"))
    }

    @Test("every declared dependency is imported, and nothing undeclared is", arguments: try! declaredGraph().keys.sorted())
    func dependenciesAreExactlyTheImports(target: String) throws {
        let declared = Set(try Self.declaredGraph()[target] ?? [])
        let imported = try Self.imports(of: target)
        // CImageShim is a C target: ImageCodecs imports it as a module too.
        #expect(imported == declared, "\(target): declared \(declared.sorted()), imported \(imported.sorted())")
    }
}
