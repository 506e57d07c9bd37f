import ImageReports
import ImageCorpus
import Foundation
import ImageCodecs
import ImageLab

/// `imglab league`: several resizers through the same corpus and gates, reported side by side.
enum LeagueCommand: Command {
    static let name = "league"
    static let summary = "run several resizers (built-in, external tools) over the corpus; table, HTML and JSON side by side"
    static let help = """
    USAGE: imglab league [--resizer R]... [--resizer-config FILE]... [--corpus DIR] [--filter PATTERN]
                         [--out DIR] [--threads N]

    Runs each resizer through the lab exactly as 'imglab run' would (same corpus, same oracle, same
    gates, canaries first) and puts the results side by side: per resizer the pairs that pass,
    fail, err and are skipped, how many judgements a declared policy changed, and its failures
    grouped by diagnosis (the bug class that explains them) and its errors grouped by message.

    An external resizer is a shell command template (--resizer cmd:'TEMPLATE') or, better, a
    config file (--resizer-config FILE, or --resizer config:FILE) holding its templates and its
    declared policies: light space (linear | srgb), rounding rule of output sizes (builtin | floor
    | round | ceil), whether it applies the EXIF orientation, which operations and containers it
    handles, whether it writes only the first frame of an animation. The gates honour them:
    undeclared operations are skipped, an sRGB resizer is judged against an oracle averaged in
    sRGB, a rounding rule gives the expected size, a resizer that does not orient is fed upright
    pixels; each such pair carries a 'policy: …' label. See 'imglab run --help' and README.

    Ready configs (benchmarks/resizers/): vipsthumbnail.json (libvips), imagemagick.json
    (magick, convert-im6.q16 or convert-im7.q16, whichever is installed), pillow.json (Python
    Pillow through pillow_resize.py), imglab-cli.json (imglab's own resize command as an
    external program: must match the builtin row). A config whose program is not installed is
    skipped with a message; it does not stop the league.

    OPTIONS:
      --resizer R          a resizer, repeatable: builtin, mutant:ID, cmd:TEMPLATE, config:FILE
      --resizer-config F   a resizer config file, repeatable (same as --resizer config:F)
                           (default, with neither: builtin and every config in benchmarks/resizers/)
      --corpus DIR         the corpus folder (default: Corpus)
      --filter PATTERN     only the pairs whose CASE/OPERATION matches (as in 'imglab run')
      --out DIR            where to write index.html, league.json and results/NAME.json, each
                           resizer's full results (default: Reports/league)
      --threads N          worker threads per resizer (default: the number of cores)

    OUTPUT: the table on stdout (Markdown), DIR/index.html (self-contained), DIR/league.json
    (schema imglab-league/1), DIR/results/NAME.json (schema imglab-run/1, per resizer).

    EXIT STATUS:
      0  the league ran (whatever the verdicts: it compares, it does not gate)
      2  bad usage, an unreadable config, a corpus or gates file that cannot be read

    EXAMPLES:
      imglab league
      imglab league --resizer builtin --resizer-config benchmarks/resizers/vipsthumbnail.json
      imglab league --resizer builtin --resizer cmd:'.build/release/imglab resize {in} -o {out} --size {width}x{height} --mode {mode}' --filter '*/resize-aspectFit-24x24'
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--resizer", "--resizer-config", "--corpus", "--filter", "--out", "--threads"], flags: [])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        // The resizers in command-line order.
        var specs: [String] = []
        var i = 0
        while i < argv.count {
            let a = argv[i]
            for option in ["--resizer", "--resizer-config"] {
                let prefix = option == "--resizer" ? "" : "config:"
                if a == option, i + 1 < argv.count { specs.append(prefix + argv[i + 1]); i += 1 }
                else if a.hasPrefix(option + "=") { specs.append(prefix + String(a.dropFirst(option.count + 1))) }
            }
            i += 1
        }
        if specs.isEmpty {
            let folder = "benchmarks/resizers"
            let configs = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            specs = ["builtin"] + configs.map { "config:\(folder)/\($0)" }
        }
        let corpus = args.value("--corpus") ?? "Corpus"
        let out = args.value("--out") ?? "Reports/league"
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)

        let selection: RunSelection
        let gates: GateBook
        let manifest: CorpusManifest
        do {
            selection = try RunSelection(filter: args.value("--filter"), shardIndex: 1, shardCount: 1)
            gates = try GateBook.load(corpus: corpus)
            manifest = try LabRunner.manifest(corpus: corpus)
        } catch {
            printError("imglab league: \(error)")
            return .usage
        }
        var entries: [LeagueTable.Entry] = []
        var written: [(String, [UInt8])] = []
        for spec in specs {
            let resizer: any Resizer
            do throws(ResizerConfigError) { resizer = try ResizerChoice.adapter(spec) } catch {
                if error.missingProgram {
                    print("league: skipping \(spec): \(error.reason)")
                    entries.append(LeagueTable.notRun(resizer: name(of: spec), spec: spec, status: "not installed", note: error.reason, policy: nil))
                    continue
                }
                printError("imglab league: \(error)")
                return .usage
            }
            print("league: \(resizer.name) — declared: \(resizer.policy.summary)")
            let started = Date()
            let runner = LabRunner(corpus: corpus, resizer: resizer, gates: gates, selection: selection, threads: threads)
            do {
                let outcome = try runner.run()
                let seconds = Date().timeIntervalSince(started)
                let r = outcome.results
                entries.append(LeagueTable.entry(spec: spec, results: r, policy: resizer.policy, seconds: seconds))
                written.append(("results/\(fileName(r.resizer)).json", [UInt8](try r.jsonData())))
                let s = r.summary
                print("league: \(resizer.name): \(s.pass) pass, \(s.fail) fail, \(s.error) error, \(s.skipped ?? 0) skipped in \(String(format: "%.1f", seconds)) s")
            } catch {
                print("league: \(resizer.name) could not be judged: \(error)")
                entries.append(LeagueTable.notRun(resizer: resizer.name, spec: spec, status: "unusable", note: "\(error)", policy: resizer.policy))
            }
        }
        let table = LeagueTable(profile: manifest.profile, corpus: corpus, entries: entries)
        print("")
        print(table.markdown())
        for e in table.entries where !e.failures.isEmpty || !e.errors.isEmpty {
            print("\(e.resizer):")
            for g in e.failures { print("  fail \(g.key) ×\(g.count) — e.g. \(line(g.example))") }
            for g in e.errors { print("  error \(g.key) ×\(g.count) — e.g. \(line(g.example))") }
        }
        do {
            try FileManager.default.createDirectory(atPath: out + "/results", withIntermediateDirectories: true)
            for (path, bytes) in written { try ImageCodecs.writeAtomically(bytes, to: out + "/" + path) }
            try ImageCodecs.writeAtomically([UInt8](try table.jsonData()), to: out + "/league.json")
            try ImageCodecs.writeAtomically(Array(LeagueReport.html(table).utf8), to: out + "/index.html")
        } catch {
            printError("imglab league: cannot write \(out): \(error)")
            return .usage
        }
        print("league: \(out)/index.html, \(out)/league.json")
        return .ok
    }

    /// `text` on one line, at most 400 characters (the JSON and the HTML page keep it whole).
    static func line(_ text: String) -> String {
        let one = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return one.count > 400 ? String(one.prefix(399)) + "…" : one
    }

    /// A display name for a resizer that could not be built: the config file's base name.
    static func name(of spec: String) -> String {
        guard spec.hasPrefix("config:") else { return spec }
        return URL(fileURLWithPath: String(spec.dropFirst("config:".count))).deletingPathExtension().lastPathComponent
    }

    /// `name` with every character but letters, digits, `-`, `.` and `_` replaced by `_`.
    static func fileName(_ name: String) -> String {
        String(name.unicodeScalars.map { ch -> Character in
            (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") || ch == "-" || ch == "." || ch == "_" ? Character(ch) : "_"
        })
    }
}
