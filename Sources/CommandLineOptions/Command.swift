import Foundation

/// One verb of a command-line tool: its name, summary, declared options and positionals, help, and behaviour.
public protocol Command {
    /// The verb, as typed.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The positional arguments it takes.
    static var positionals: Positionals { get }
    /// Its options, in the order `--help` lists them.
    static var options: [any OptionDeclaration] { get }
    /// Groups of options of which at most one may be given.
    static var exclusive: [[any OptionDeclaration]] { get }
    /// The prose of `--help`.
    static var help: Help { get }
    /// Runs with the parsed, validated arguments.
    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus
}

extension Command {
    public static var positionals: Positionals { .none }
    public static var exclusive: [[any OptionDeclaration]] { [] }
}

/// The prose of a command's `--help`; ``HelpText`` adds the usage line and the options.
public struct Help: Sendable {
    /// What the command does (a paragraph or two).
    public var about: String
    /// The exit statuses, one per line, indented.
    public var exitStatus: String
    /// Example command lines.
    public var examples: [String]
    /// The reference page in the repository, e.g. `docs/run.md`.
    public var docs: String?

    public init(about: String, exitStatus: String, examples: [String], docs: String?) {
        self.about = about
        self.exitStatus = exitStatus
        self.examples = examples
        self.docs = docs
    }
}

/// The exit statuses of every command.
public enum ExitStatus: Int32 {
    /// Success.
    case ok = 0
    /// The command ran and found a failure (a file could not be decoded, a gate failed).
    case failure = 1
    /// The command line was wrong, or the run itself failed.
    case usage = 2
}
