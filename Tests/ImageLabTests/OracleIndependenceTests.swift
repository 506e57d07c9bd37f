import Foundation
import Testing

/// The oracle shares no resampling code with ImageResize: only `OracleGeometry.swift` imports
/// it on the oracle's side (the built-in resizer adapter, `Adapters/BuiltinResizer.swift`, is
/// the resizer under test and imports it too; no oracle file calls it), that file uses nothing of it but `OutputGeometry`, and the module is built with
/// `MemberImportVisibility` so no other file can reach ImageResize's extension members.
@Suite("Oracle independence")
struct OracleIndependenceTests {
    static let sources = QuickCorpus.packageRoot.appendingPathComponent("Sources")

    static func swiftFiles(_ module: String) throws -> [URL] {
        let base = sources.appendingPathComponent(module)
        let walker = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The text without comments and string literals.
    static func code(_ url: URL) throws -> String {
        var text = try String(contentsOf: url, encoding: .utf8)
        let patterns = [##"/\*[\s\S]*?\*/"##, ##"//[^\n]*"##, ##"#?"""[\s\S]*?"""#?"##, ##""(\\.|[^"\\\n])*""##]
        for pattern in patterns {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return text
    }

    static func identifiers(_ text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "[A-Za-z_][A-Za-z0-9_]*")
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    /// Names a module declares: types, functions (any access), public properties and enum
    /// cases (local variables are not declarations another module could use).
    static func declaredNames(_ module: String) throws -> Set<String> {
        let patterns = [#"\b(?:struct|enum|class|protocol|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
                        #"\b(?:public|package)\s+(?:static\s+)?(?:var|let)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
                        #"(?m)^\s*(?:public\s+)?case\s+(?!let\b|var\b)([A-Za-z_][A-Za-z0-9_]*)"#]
        var names: Set<String> = []
        for file in try swiftFiles(module) {
            let text = try code(file)
            for pattern in patterns {
                let regex = try NSRegularExpression(pattern: pattern)
                for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let r = Range(m.range(at: 1), in: text) { names.insert(String(text[r])) }
                }
            }
        }
        return names
    }

    @Test("only OracleGeometry.swift, the built-in adapter and the sampling mutants import ImageResize")
    func onlyOneImporter() throws {
        let importers = try Self.swiftFiles("ImageLab").filter { try Self.code($0).contains("import ImageResize") }
        #expect(importers.map(\.lastPathComponent).sorted() == ["BuiltinResizer.swift", "OracleGeometry.swift", "SamplingMutants.swift"])
    }

    @Test("no oracle, scene or corpus file uses the built-in adapter")
    func oracleNeverCallsTheAdapter() throws {
        let adapterFolders = ["/Adapters/", "/Runner/", "/Mutants/", "/Selftest/", "/Reproduce/"]
        for file in try Self.swiftFiles("ImageLab") where !adapterFolders.contains(where: { file.path.contains($0) }) {
            #expect(!Self.identifiers(try Self.code(file)).contains("BuiltinResizer"), "\(file.lastPathComponent) uses BuiltinResizer")
        }
    }

    @Test("OracleGeometry.swift uses nothing of ImageResize but OutputGeometry")
    func onlyOutputGeometry() throws {
        let resize = try Self.declaredNames("ImageResize")
        let lower = try Self.declaredNames("ImageCore").union(try Self.declaredNames("ImageCodecs"))
        // OutputGeometry and its members are the declared rule the oracle must share.
        let geometryFile = Self.sources.appendingPathComponent("ImageResize/Geometry/OutputGeometry.swift")
        let allowed = Self.identifiers(try Self.code(geometryFile))
        let lab = try Self.declaredNames("ImageLab")
        let file = try #require(try Self.swiftFiles("ImageLab").first { $0.lastPathComponent == "OracleGeometry.swift" })
        let text = try Self.code(file)
        for name in Self.identifiers(text) where resize.contains(name) && !lower.contains(name) && !allowed.contains(name) {
            if lab.contains(name) {
                // A name both modules declare may only appear as ImageLab's own enum case pattern.
                func count(_ pattern: String) -> Int {
                    (try? NSRegularExpression(pattern: pattern)).map { $0.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) } ?? -1
                }
                let uses = count("\\b\(name)\\b"), asCase = count("case \\.\(name)\\b")
                #expect(uses == asCase, "'\(name)' is used \(uses - asCase) times other than as ImageLab's own case")
            } else {
                Issue.record("OracleGeometry.swift uses ImageResize's '\(name)'")
            }
        }
        #expect(text.contains("OutputGeometry."))
    }

    @Test("ImageLab is built with MemberImportVisibility")
    func memberImportVisibility() throws {
        let manifest = try String(contentsOf: QuickCorpus.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try #require(manifest.range(of: "name: \"ImageLab\","))
        let rest = String(manifest[target.upperBound...])
        let end: String.Index = rest.range(of: ".executableTarget")?.lowerBound ?? rest.endIndex
        let declaration = String(rest[..<end])
        #expect(declaration.contains("MemberImportVisibility"))
    }
}
