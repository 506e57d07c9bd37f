import CommandLineOptions
import Foundation
import ImageCodecs

/// One imglab verb: its name, summary, declared options and positionals, help, and behaviour.
protocol Command {
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
    static var positionals: Positionals { .none }
    static var exclusive: [[any OptionDeclaration]] { [] }
}

/// The prose of a command's `--help`; ``HelpText`` adds the usage line and the options.
struct Help: Sendable {
    /// What the command does (a paragraph or two).
    var about: String
    /// The exit statuses, one per line, indented.
    var exitStatus: String
    /// Example command lines.
    var examples: [String]
    /// The reference page in the repository, e.g. `docs/run.md`.
    var docs: String?
}

/// Exit statuses of every imglab command.
enum ExitStatus: Int32 {
    /// Success.
    case ok = 0
    /// The command ran and found a failure (a file could not be decoded, a gate failed).
    case failure = 1
    /// The command line was wrong, or the run itself failed.
    case usage = 2
}

/// Writes to standard error; file names in it come out as the bytes the file system holds.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(FileSystemName.bytes(message + "\n")))
}

/// Terminal output from worker threads, one write at a time.
enum Console {
    private static let lock = NSLock()
    static func line(_ s: String) { raw(s + "\n") }
    static func raw(_ s: String) {
        guard !s.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardOutput.write(Data(s.utf8))
    }
}
