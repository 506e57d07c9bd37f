import Foundation

/// The `--help` text of a command, generated from its declaration: the usage line from its
/// positionals and required options, its description, the OPTIONS section from its declared
/// options, the exit statuses, the examples, and where the full reference is.
public enum HelpText {
    /// Column where option help lines start, and the width they wrap at.
    public static let column = 24, width = 100

    /// The whole `--help` page of `command`, a verb of `program`.
    public static func render(_ command: any Command.Type, program: String) -> String {
        let help = command.help
        let required = command.options.filter(\.isRequired).map { "\($0.name) \($0.placeholder ?? "")" }
        let usage = ([program, command.name,
            command.positionals.synopsis] + required + ["[options]"]).filter { !$0.isEmpty }
        var parts = ["USAGE: " + usage.joined(separator: " "), help.about, "OPTIONS:\n" + optionLines(command.options)]
        if !help.exitStatus.isEmpty { parts.append("EXIT STATUS:\n" + help.exitStatus) }
        if !help.examples.isEmpty {
            parts.append("EXAMPLES:\n" + help.examples.map { "  " + $0 }.joined(separator: "\n"))
        }
        if let docs = help.docs { parts.append("More: \(docs)") }
        return parts.joined(separator: "\n\n")
    }

    /// One entry per option (and `-h, --help`): spellings and placeholder, then the help line
    /// wrapped at ``width`` and indented to ``column``.
    public static func optionLines(_ options: [any OptionDeclaration]) -> String {
        var lines: [String] = []
        for (names, text) in options.map({ ($0.names.joined(separator: ", ") + ($0.placeholder.map { " " + $0 } ?? ""),
            $0.helpLine) })
            + [("-h, --help", "this help")] {
            var words = TerminalText.wrap(text, width: width - column)
            let head = "  " + names
            if head.count + 2 > column { lines.append(head) } else {
                lines.append(head.padding(toLength: column, withPad: " ", startingAt: 0) + (words.first ?? ""))
                words = Array(words.dropFirst())
            }
            lines += words.map { String(repeating: " ", count: column) + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
