import ImageLab
import ImageReports

/// `imglab league`: several resizers through the same corpus and gates, reported side by side.
enum LeagueCommand: Command {
    static let name = "league"
    static let summary = "run several resizers (built-in, external tools) over the corpus; table, HTML and JSON side by side"
    static let resizers = Option<String?>.text("--resizer", "R", "a resizer, repeatable: builtin, mutant:ID, cmd:TEMPLATE, config:FILE; with neither option, builtin and every config in benchmarks/resizers/").repeated()
    static let configs = Option.parsed("--resizer-config", "FILE", "a resizer config file, repeatable; the same as --resizer config:FILE") { text throws(UsageError) in "config:" + text }.repeated()
    static let out = Option.text("--out", "DIR", "where to write index.html, league.json and results/NAME.json, each resizer's full results", default: "Reports/league")
    static let options: [any OptionDeclaration] = [resizers, configs, SharedOptions.corpus, SharedOptions.filter, out, SharedOptions.threads]
    static let help = Help(about: """
        Runs each resizer through the lab exactly as 'imglab run' would and puts the results side by side
        (Markdown on stdout, HTML, JSON): pass, fail, error, skipped, pairs a declared policy changed,
        failures grouped by diagnosis, errors by message. External resizers are cmd: templates or configs
        with declared policies (srgb light, rounding, orientation, operations, …) that the gates honour;
        ready configs: benchmarks/resizers/vipsthumbnail.json, imagemagick.json, pillow.json,
        imglab-cli.json. A config whose program is not installed is skipped with a message.
        """, exitStatus: """
          0  the league ran (whatever the verdicts: it compares, it does not gate)
          2  bad usage, an unreadable config, a corpus or gates file that cannot be read
        """, examples: ["imglab league",
                        "imglab league --resizer builtin --resizer-config benchmarks/resizers/vipsthumbnail.json",
                        "imglab league --resizer builtin --resizer cmd:'.build/release/imglab resize {in} -o {out} --size {width}x{height} --mode {mode}' --filter '*/resize-aspectFit-24x24'"],
        docs: "docs/league.md, docs/external-resizers.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let specs = try args.values(resizers, configs).compactMap { $0 }
        let league = League(specs: specs.isEmpty ? League.defaultSpecs() : specs, corpus: try args.value(SharedOptions.corpus),
                            filter: try args.value(SharedOptions.filter), threads: try args.value(SharedOptions.threads))
        let folder = try args.value(out)
        try OutputPaths.checkFolder(option: out.name, folder)
        let outcome: League.Outcome
        do { outcome = try league.run { print("league: \($0)") } } catch {
            printError("imglab league: \(error)")
            return .usage
        }
        print(outcome.table.terminalText(), terminator: "")
        do { try ResultFiles.write(outcome, to: folder) } catch {
            printError("imglab league: cannot write \(folder): \(error)")
            return .usage
        }
        print("league: \(folder)/index.html, \(folder)/league.json")
        return .ok
    }
}
