import Foundation
import Testing
import CommandLineOptions
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
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let spelled = cells[1].replacingOccurrences(of: "`", with: "").split(separator: " ").map(String.init)
            let commands = Set(cells[3].replacingOccurrences(of: "`", with: "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            rows[spelled[0]] = Row(name: spelled[0], placeholder: spelled.dropFirst().joined(separator: " "), commands: commands)
        }
        return rows
    }

    /// The options of a command as its `--help` lists them: long name and placeholder.
    static func helpOptions(_ command: any Command.Type) -> [(name: String, placeholder: String)] {
        let help = HelpText.render(command, program: "imglab")
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

    /// The table between the markers of docs/options.md.
    static let markers = (start: "<!-- options-table: generated from the declarations by OptionTableTests -->\n",
                          end: "\n<!-- /options-table -->")

    @Test("docs/options.md's table is the one the commands' declarations generate (IMGLAB_RECORD_OPTION_TABLE=1 rewrites it)")
    func tableIsGenerated() throws {
        let url = Self.packageRoot.appendingPathComponent("docs/options.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: Self.markers.start), "docs/options.md has no options-table marker")
        let end = try #require(text.range(of: Self.markers.end, range: start.upperBound..<text.endIndex))
        let generated = OptionTable.markdown(Imglab.commands)
        if ProcessInfo.processInfo.environment["IMGLAB_RECORD_OPTION_TABLE"] == "1" {
            try (String(text[..<start.upperBound]) + generated + String(text[end.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(String(text[start.upperBound..<end.lowerBound]) == generated,
                "docs/options.md's table differs from the declarations: run IMGLAB_RECORD_OPTION_TABLE=1 swift test --filter OptionTableTests, then read the diff")
    }

    @Test("an option has one meaning and one placeholder in every command that declares it")
    func oneMeaningPerOption() {
        let rows = OptionTable.rows(Imglab.commands)
        let byName = Dictionary(grouping: rows) { $0.option.split(separator: " ")[0] }
        #expect(byName.count > 40, "\(byName.count) options")
        for (name, variants) in byName where variants.count > 1 {
            Issue.record("\(name) has \(variants.count) meanings: \(variants.map { "\($0.option): \($0.meaning) (\($0.commands.joined(separator: ", ")))" })")
        }
    }

    @Test("a meaning is the help text's first clause unless declared, and | is escaped in the table")
    func meaningDerivation() {
        let plain = Option.flag("--x", "do this; and more")
        #expect(plain.meaning == "do this")
        #expect(Option.flag("--y", "one (with a note): more").meaning == "one")
        #expect(Option.flag("--z", "anything").meaning("said once").meaning == "said once")
        #expect(Option.integer("--n", "N", "count: how many", default: 1, in: 1...2).optional().meaning("n").meaning == "n")
    }
}
