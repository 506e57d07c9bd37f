import Foundation
import Testing

/// The command line stays thin: no line of the executable target over 120
/// characters, so a reader sees each declaration and call whole.
@Suite("command-line source shape")
struct CommandLineShapeTests {
    @Test("no line of Sources/imglab is longer than 120 characters")
    func noLongLines() throws {
        let root = OptionTableTests.packageRoot.appendingPathComponent("Sources/imglab")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var long: [String] = []
        var files = 0
        for case let url as URL in walker where url.pathExtension == "swift" {
            files += 1
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where line.count > 120 {
                long.append("\(url.lastPathComponent):\(i + 1) (\(line.count))")
            }
        }
        #expect(files > 20, "read \(files) files")
        #expect(long.isEmpty, "lines over 120 characters: \(long)")
    }

    /// The Swift files of the executable target, with their line counts.
    static func sources() throws -> [(name: String, lines: Int)] {
        let root = OptionTableTests.packageRoot.appendingPathComponent("Sources/imglab")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var files: [(String, Int)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            files.append((url.lastPathComponent, text.split(separator: "\n", omittingEmptySubsequences: false).count - 1))
        }
        return files
    }

    @Test("the executable target stays under 1,450 lines, and each command's run file is a page (66 lines) or less")
    func thinCommandLine() throws {
        let files = try Self.sources()
        let total = files.map(\.lines).reduce(0, +)
        #expect(files.count > 20 && total < 1450, "Sources/imglab holds \(total) lines in \(files.count) files")
        let long = files.filter { $0.name.hasSuffix("Command.swift") && $0.lines > 66 }
        #expect(long.isEmpty, "command files over a page: \(long)")
    }
}
