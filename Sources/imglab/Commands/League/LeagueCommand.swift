import CommandLineOptions
import ImageLab
import ImageReports

/// `imglab league`: several resizers through the same corpus and gates, reported side by side.
enum LeagueCommand: Command {
    static let name = "league"
    static let summary = "run several resizers (built-in, external tools) over the corpus, reported side by side"
    static let resizers = Option<String?>.text("--resizer", "R", "a resizer, repeatable: builtin, mutant:ID, "
        + "cmd:TEMPLATE, config:FILE, or a config built into imglab by name (vipsthumbnail, imagemagick, pillow, "
        + "imglab-cli); with neither option, builtin and every built-in config").repeated()
        .meaning(SharedOptions.resizerMeaning)
    static let configs = Option.parsed("--resizer-config", "FILE", "a resizer config file, repeatable; the same as "
        + "--resizer config:FILE") { text throws(UsageError) in "config:" + text }.repeated()
        .meaning(SharedOptions.resizerConfig.meaning)
    static let out = SharedOptions.report("DIR/index.html, DIR/league.json and "
        + "DIR/results/NAME.json, each resizer's full results", default: "Reports/league").alsoSpelled("--out")
    static let options: [any OptionDeclaration] = [resizers, configs, SharedOptions.corpus, SharedOptions.profile,
        SharedOptions.filter, out, SharedOptions.threads]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let specs = try args.values(resizers, configs).compactMap { $0 }
        var field = League.Field.corpus
        if try SharedOptions.profile(args, accepting: [.quick, .scale]) == .scale {
            if let problem = LabExecutables.meterProblem() { throw UsageError(problem) }
            field = .scale(imglab: LabExecutables.imglab, meter: LabExecutables.meter)
        }
        let corpus = try SharedOptions.corpusFolder(args, command: name)
        let filter = try args.value(SharedOptions.filter), threads = try args.value(SharedOptions.threads)
        let league = League(specs: specs.isEmpty ? League.defaultSpecs : specs, corpus: corpus, filter: filter,
                            threads: threads, field: field)
        let folder = try OutputPaths.reportFolder(args, out, default: "Reports/league")
        let outcome: League.Outcome
        do { outcome = try league.run { Console.line("league: \($0)") } } catch {
            printError("imglab league: \(error)")
            return .usage
        }
        print(outcome.table.terminalText(), terminator: "")
        guard let folder else { return .ok }
        do { try ResultFiles.write(outcome, to: folder) } catch {
            printError("imglab league: cannot write \(folder): \(error)")
            return .usage
        }
        print("league: \(folder)/index.html, \(folder)/league.json")
        return .ok
    }
}
