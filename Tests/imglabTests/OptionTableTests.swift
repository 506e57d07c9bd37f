import Foundation
import Testing
@testable import imglab

/// docs/options.md gives every option its one meaning across the commands; this test reads every
/// command's `--help` and holds the table to it: each option a command documents is a row, spelled
/// with the same placeholder, and the row lists that command; no row names a command that lacks it.
@Suite("The option table of docs/options.md")
struct OptionTableTests {
    /// One row: the option's long name, its placeholder (empty for a flag) and the commands listed.
    struct Row: Equatable {
        var name: String
        var placeholder: String
        var commands: Set<String>
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows of the table: `| `--name PLACEHOLDER` | meaning | `cmd`, `cmd` |`.
    static func table() throws -> [String: Row] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/options.md"), encoding: .utf8)
        var rows: [String: Row] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `-") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let spelled = cells[1].replacingOccurrences(of: "`", with: "").split(separator: " ").map(String.init)
            let commands = Set(cells[3].replacingOccurrences(of: "`", with: "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            rows[spelled[0]] = Row(name: spelled[0], placeholder: spelled.dropFirst().joined(separator: " "), commands: commands)
        }
        return rows
    }

    /// The options of a command as its `--help` lists them: long name and placeholder.
    static func helpOptions(_ command: any Command.Type) -> [(name: String, placeholder: String)] {
        let help = HelpText.render(command)
        guard let start = help.range(of: "OPTIONS:\n") else { return [] }
        var out: [(String, String)] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard line.hasPrefix("  -") else { continue }
            // "  -o, --output FILE    text…": the spellings, then the placeholder, then two spaces.
            let head = line.dropFirst(2).components(separatedBy: "  ")[0]
            let words = head.split(separator: " ").map(String.init)
            let names = words.filter { $0.hasPrefix("-") }.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
            guard let long = names.last, long != "--help" else { continue }
            out.append((long, words.filter { !$0.hasPrefix("-") }.joined(separator: " ")))
        }
        return out
    }

    @Test("every option of every command's --help is a row of docs/options.md with the same placeholder, listing the command")
    func everyOptionHasItsRow() throws {
        let rows = try Self.table()
        #expect(rows.count > 20, "docs/options.md has \(rows.count) rows")
        var seen: [String: Set<String>] = [:]
        for command in Imglab.commands {
            let options = Self.helpOptions(command)
            #expect(!options.isEmpty, "\(command.name) --help lists no option")
            for option in options {
                seen[option.name, default: []].insert(command.name)
                guard let row = rows[option.name] else {
                    Issue.record("\(command.name) \(option.name) has no row in docs/options.md")
                    continue
                }
                #expect(row.placeholder == option.placeholder, "\(command.name) \(option.name) takes '\(option.placeholder)', the table says '\(row.placeholder)'")
                #expect(row.commands.contains(command.name), "the row of \(option.name) does not list \(command.name)")
            }
        }
        for row in rows.values {
            #expect(row.commands == seen[row.name] ?? [], "the row of \(row.name) lists \(row.commands.sorted()), the commands have it in \((seen[row.name] ?? []).sorted())")
        }
    }

    @Test("--profile takes the same words wherever it is: quick, full, scale")
    func profileWords() throws {
        for command in Imglab.commands {
            guard let profile = command.options.first(where: { $0.name == "--profile" }) else { continue }
            let line = profile.helpLine
            for word in ["quick", "full", "scale", "corpus", "fast", "huge"] {
                let accepted = (try? profile.validate(word)) != nil
                if accepted { #expect(["quick", "full", "scale", "corpus"].contains(word), "\(command.name) --profile accepts '\(word)': \(line)") }
            }
            #expect((try? profile.validate("quick")) != nil, "\(command.name) --profile does not take quick")
        }
    }
}
