/// The option table of the docs (docs/options.md), generated from the commands' declarations:
/// one row per option (by its long name), its placeholder, its one meaning and the commands
/// that take it, sorted by name.
public enum OptionTable {
    /// One row: the option as spelled in help, its meaning, and the commands that declare it.
    public struct Row: Sendable, Equatable {
        public var option: String
        public var meaning: String
        public var commands: [String]
    }

    /// The rows of `commands`' options; an option declared with different meanings or
    /// placeholders in two commands gives one row per variant, so the table shows the conflict.
    public static func rows(_ commands: [any Command.Type]) -> [Row] {
        var rows: [String: Row] = [:]
        for command in commands {
            for option in command.options {
                let spelled = option.name + (option.placeholder.map { " " + $0 } ?? "")
                let key = spelled + "\u{0}" + option.meaning
                rows[key, default: Row(option: spelled, meaning: option.meaning, commands: [])].commands.append(command.name)
            }
        }
        return rows.values.map { var r = $0; r.commands.sort(); return r }.sorted { ($0.option, $0.meaning) < ($1.option, $1.meaning) }
    }

    /// The Markdown table: a header and a line per row.
    public static func markdown(_ commands: [any Command.Type]) -> String {
        let lines = rows(commands).map { row in
            "| `\(row.option)` | \(row.meaning.replacingPipes) | \(row.commands.map { "`\($0)`" }.joined(separator: ", ")) |"
        }
        return (["| option | meaning | commands |", "|---|---|---|"] + lines).joined(separator: "\n")
    }
}

extension String {
    /// The text with `|` escaped for a Markdown table cell.
    fileprivate var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
