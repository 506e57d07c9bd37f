import Foundation
import Testing

/// The command line stays thin (issue 32): no line of the executable target over 120
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
}
