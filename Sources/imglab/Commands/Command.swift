/// One imglab verb: its name, one-line summary, help text and behaviour.
protocol Command {
    /// The verb, as typed.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The full `--help` text: usage, what it does, options, examples.
    static var help: String { get }
    /// Runs with the arguments after the verb.
    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus
}

/// Writes to standard error.
func printError(_ message: String) {
    var stderr = StandardError()
    print(message, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

import Foundation
