import Foundation

/// A program of verbs (`imglab run`, `imglab diff`, …): the overview without a verb, `--version`,
/// an unknown verb with the nearest known one suggested, each verb's `--help`, parsing, and the
/// run; one line on standard error for a usage error. Ends the process with the exit status
/// (``PeakMemory/exit(_:program:)``).
public struct CommandLineProgram: Sendable {
    /// The program's name as typed (`imglab`).
    public var name: String
    /// One line saying what the program is, first in the overview.
    public var tagline: String
    /// Its verbs, in the order the overview lists them.
    public var commands: [any Command.Type]
    /// What `--version` prints after the name.
    public var version: String
    /// Writes a line to standard error (the program's own, which may keep file names' bytes).
    public var printError: @Sendable (String) -> Void

    public init(name: String, tagline: String, commands: [any Command.Type], version: String,
                printError: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.tagline = tagline
        self.commands = commands
        self.version = version
        self.printError = printError
    }

    /// The page printed without a verb or with `--help`.
    public var overview: String {
        // The summaries in one column, two spaces past the longest name.
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        let verbs = commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
        return ([tagline, "", "USAGE: \(name) <command> [options]", "", "COMMANDS:"] + verbs
            + ["", "Run '\(name) <command> --help' for a command's options and examples."]).joined(separator: "\n")
    }

    /// Runs `arguments` (without the program's name) and exits with the status.
    public func run(_ arguments: [String]) -> Never {
        PeakMemory.exit(status(arguments).rawValue, program: name)
    }

    /// Runs `arguments` (without the program's name): the exit status.
    public func status(_ arguments: [String]) -> ExitStatus {
        guard let verb = arguments.first, !["--help", "-h", "help"].contains(verb) else {
            print(overview)
            return arguments.isEmpty ? .usage : .ok
        }
        if verb == "--version" || verb == "version" {
            print("\(name) \(version)")
            return .ok
        }
        guard let command = commands.first(where: { $0.name == verb }) else {
            let near = Self.suggestion(verb, commands.map { $0.name })
            printError("\(name): unknown command '\(verb)'\(near); '\(name) --help' lists the commands")
            return .usage
        }
        let args: Arguments
        do {
            args = try Arguments(Array(arguments.dropFirst()), options: command.options, exclusive: command.exclusive,
                                 positionals: command.positionals)
        } catch {
            return usage(verb, error)
        }
        if args.wantsHelp {
            print(HelpText.render(command, program: name))
            return .ok
        }
        do { return try command.run(args) } catch { return usage(verb, error) }
    }

    private static func suggestion(_ verb: String, _ names: [String]) -> String {
        guard let near = EditDistance.nearest(to: verb, among: names) else { return "" }
        return ", did you mean '\(near)'?"
    }

    /// One line: what is wrong, and where the command's options are explained.
    private func usage(_ verb: String, _ error: UsageError) -> ExitStatus {
        printError("\(name) \(verb): \(error.message)" + (error.pointsToHelp ? " (see '\(name) \(verb) --help')" : ""))
        return .usage
    }
}
