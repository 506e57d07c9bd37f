import CommandLineOptions
import Foundation

/// The command-line tool: its verbs and the overview `imglab` prints without one.
enum Imglab {
    /// The verbs imglab knows, in the order the overview lists them.
    static var commands: [any Command.Type] {
        [InfoCommand.self, DecodeCommand.self, ResizeCommand.self, ThumbnailCommand.self, DiffCommand.self,
         CorpusCommand.self, RunCommand.self, SelftestCommand.self, ReproduceCommand.self, LeagueCommand.self,
         MergeCommand.self, BlessCommand.self, FuzzCommand.self]
    }

    static var overview: String {
        """
        imglab — a format lab and regression harness for image resizers, and the resizer it gates.

        USAGE: imglab <command> [options]

        COMMANDS:
        \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n"))

        Run 'imglab <command> --help' for a command's options and examples.
        """
    }
}

extension Imglab {
    /// `, did you mean 'run'?` when a known verb is within two edits of `typed`, else empty.
    static func suggestion(for typed: String) -> String {
        guard let near = EditDistance.nearest(to: typed, among: commands.map { $0.name }) else { return "" }
        return ", did you mean '\(near)'?"
    }
}
