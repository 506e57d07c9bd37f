import Foundation

HardwareVariant.execIfSupported()

/// The verbs imglab knows, in the order the overview lists them.
let commands: [any Command.Type] = [InfoCommand.self, ResizeCommand.self, ThumbnailCommand.self, DiffCommand.self, CorpusCommand.self, RunCommand.self, SelftestCommand.self, ReproduceCommand.self, LeagueCommand.self, MergeCommand.self, BlessCommand.self, FuzzCommand.self]

let overview = """
imglab — a format lab and regression harness for image resizers, and the resizer it gates.

USAGE: imglab <command> [options]

COMMANDS:
\(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

Run 'imglab <command> --help' for a command's options and examples.
"""

let argv = Array(CommandLine.arguments.dropFirst())
guard let verb = argv.first, verb != "--help", verb != "-h", verb != "help" else {
    print(overview)
    PeakMemory.exit(argv.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.ok.rawValue)
}
guard let command = commands.first(where: { $0.name == verb }) else {
    printError("imglab: unknown command '\(verb)'\n\n\(overview)")
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
do {
    PeakMemory.exit(try command.run(Array(argv.dropFirst())).rawValue)
} catch {
    printError("imglab \(verb): \(error.message)\n\n\(command.help)")
    PeakMemory.exit(ExitStatus.usage.rawValue)
}
