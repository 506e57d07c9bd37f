import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab league`: several resizers through the same corpus and gates, reported side by side.
enum LeagueCommand: Command {
    static let name = "league"
    static let summary = "run several resizers (built-in, external tools) over the corpus; table, HTML and JSON side "
        + "by side"
    static let resizers = Option<String?>.text("--resizer", "R", "a resizer, repeatable: builtin, mutant:ID, "
        + "cmd:TEMPLATE, config:FILE, or a config built into imglab by name (vipsthumbnail, imagemagick, pillow, "
        + "imglab-cli); with neither option, builtin and every built-in config").repeated()
    static let configs = Option.parsed("--resizer-config", "FILE", "a resizer config file, repeatable; the same as "
        + "--resizer config:FILE") { text throws(UsageError) in "config:" + text }.repeated()
    static let out = SharedOptions.report("the report folder: PATH/index.html, PATH/league.json and "
        + "PATH/results/NAME.json, each resizer's full results", default: "Reports/league").alsoSpelled("--out")
    static let options: [any OptionDeclaration] = [resizers, configs, SharedOptions.corpus, SharedOptions.profile,
        SharedOptions.filter, out, SharedOptions.threads]
    static let help = Help(about: """
        Runs each resizer through the lab exactly as 'imglab run' would and puts the results side by side
        (Markdown on stdout, HTML, JSON): pass, fail, error, skipped, pairs a declared policy changed,
        failures grouped by diagnosis, errors by message. External resizers are cmd: templates or configs
        with declared policies (srgb light, rounding, orientation, operations, …) that the gates honour;
        ready configs, built into imglab (their files are in benchmarks/resizers/): vipsthumbnail,
        imagemagick, pillow, imglab-cli. A config whose program is not installed is skipped with a message.
        --profile quick judges the pairs of the quick corpus (--corpus) as 'imglab run' judges them.
        With --profile scale the sources (24 to 96 megapixels) are streamed once into a temporary folder
        and every resizer's calls are measured one at a time; the table adds each resizer's CPU time as a
        ratio to the floor (imglab decode at the scale a correct shrink-on-load uses) and its peak memory,
        and a second table gives them pair by pair.
        """, exitStatus: """
          0  the league ran (whatever the verdicts: it compares, it does not gate)
          2  bad usage, an unreadable config, a corpus or gates file that cannot be read
        """, examples: ["imglab league",
                        "imglab league --resizer builtin --resizer vipsthumbnail",
                        "imglab league --profile scale --report Reports/league-scale   costs beside pass/fail, ratios "
                            + "to one floor",
                        "imglab league --resizer builtin --resizer cmd:'.build/release/imglab resize {in} -o {out} "
                            + "--size {width}x{height} --mode {mode}' --filter '*/resize-aspectFit-24x24'"],
        docs: "docs/league.md, docs/external-resizers.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let specs = try args.values(resizers, configs).compactMap { $0 }
        var field = League.Field.corpus
        if try SharedOptions.profile(args, accepting: [.quick, .scale]) == .scale {
            try Executable.requireMeter()
            field = .scale(imglab: Executable.path, meter: Executable.meter)
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
