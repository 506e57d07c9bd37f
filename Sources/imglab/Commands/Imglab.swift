import CommandLineOptions
import Foundation
import ImageCore

/// The command-line tool: its verbs, in the order the overview lists them.
enum Imglab {
    static let commands: [any Command.Type] = [InfoCommand.self, DecodeCommand.self, ResizeCommand.self,
        ThumbnailCommand.self, DiffCommand.self, CorpusCommand.self, RunCommand.self, FingerprintCommand.self,
        SelftestCommand.self, ReproduceCommand.self, LeagueCommand.self, MergeCommand.self, BlessCommand.self,
        AcceptCommand.self, ReportCommand.self, FuzzCommand.self]

    static var program: CommandLineProgram {
        CommandLineProgram(name: "imglab", tagline: "imglab — a format lab and regression harness for image "
            + "resizers, and the resizer it gates.", commands: commands, version: ImglabBuild.identity,
            printError: printError)
    }
}
