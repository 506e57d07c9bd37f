import ImageReports
import ImageCorpus
import Foundation
import ImageCodecs
import ImageLab
#if canImport(Glibc)
import Glibc
#endif

/// `imglab run`: the CI gate. Every (case, operation) pair of the corpus through a resizer
/// adapter, compared with its oracle, judged by the reviewed gates of `Corpus/gates.json`.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "run a resizer through the lab: every corpus case vs its oracle, gated; JSON, JUnit, HTML report"
    static let help = """
    USAGE: imglab run [--resizer builtin|mutant:ID|cmd:T|config:F] [--resizer-config F] [--profile quick] [--corpus DIR] [--filter PATTERN]
                      [--shard I/N] [--report DIR] [--json FILE] [--junit FILE] [--threads N] [--goldens DIR]

    The lab's main job: corpus → resizer → metrics → verdict → report → exit status. Each
    corpus file is decoded, every operation the manifest lists for it (orient, resize in each
    content mode, crop, square thumbnail, rounded corners, transparent border, max-pixel-size)
    goes through the resizer adapter, and each output frame is compared by value with the
    operation's analytic oracle (the ideal, box-filtered rendering of the scene; see
    'imglab corpus --help'). The first family of DIR/gates.json that takes the pair gives the
    gate; its verdict is pass, fail (with the diagnosis: the bug class that explains the
    difference) or error (the resizer threw, a file is unreadable, no family takes the pair).
    With a golden store ('imglab bless'), an output within the gate that equals no golden is
    changed-closer (as close to the oracle as some golden: passes, bless it) or changed-further
    (further from the oracle than every golden: a regression, fails the run).

    Fail closed: before any pair, the metric canaries run (every metric must tell pairs that
    must differ from pairs that must match) and the canary pairs of gates.json go through a
    deliberately broken adapter (a mutant of the catalogue: R and B swapped, the pink tint);
    each must FAIL its gate with the expected
    diagnosis, or the run stops with status 2. After the run, a bound whose worst observed value
    stays below 75 % of it is reported as a warning (the gate has become lax).

    OPTIONS:
      --resizer R      builtin (default: imglab's ImageResize, Lanczos 3, linear light),
                       mutant:ID, a deliberately broken resizer of the catalogue, e.g. swap-rb
                       (builtin with R and B swapped) or argb-as-rgba (the pink tint), for trying
                       the gate ('imglab selftest' runs them all), or an external one:
                       cmd:'TEMPLATE', a /bin/sh command run per pair with {in} {out} {width}
                       {height} {mode} {kind} {size} {x} {y} {border} {radius} … filled in, each
                       already shell-quoted (write them bare), or config:FILE (as --resizer-config)
      --resizer-config FILE
                       an external resizer's JSON config: its templates (one per operation kind
                       if need be) and declared policies: lightSpace linear|srgb, rounding
                       builtin|floor|round|ceil, appliesOrientation, operations, containers,
                       firstFrameOnly. The gates honour them: undeclared pairs are skipped, an
                       srgb resizer is judged against an oracle averaged in sRGB, the rounding
                       rule sets the expected size, a resizer that does not orient is fed upright
                       pixels; every such pair is labelled 'policy: …' (terminal, JSON, report).
                       Ready configs: benchmarks/resizers/*.json; see also 'imglab league --help'
      --profile P      the corpus profile the folder must hold (default: quick)
      --corpus DIR     the corpus folder (default: Corpus); generate it with 'imglab corpus'
      --filter PATTERN run the pairs whose id CASE/OPERATION matches: a glob (* and ?) or, without
                       wildcards, a substring; several patterns separated by commas
      --shard I/N      run shard I of N (1-based): a pair's shard is FNV-1a(id) mod N + 1, the
                       same split on every machine (default 1/1)
      --report DIR     write the HTML report: DIR/index.html (counts, matrix heat maps of container ×
                       orientation and encoding × operation, filters, every pair with failures
                       first) and a page per pair under DIR/pairs/ (source, oracle, golden, output,
                       heat map, the diff viewer, each gate bound, the diagnosis, the metadata);
                       self-contained, no network (default: Reports/PROFILE; 'none' to skip)
      --json FILE      write the results (schema imglab-run/1, see README) atomically
      --junit FILE     write JUnit XML (one testcase per pair) atomically
      --threads N      worker threads (default: the number of cores); results do not depend on it
      --goldens DIR    the golden store of 'imglab bless' (default: CORPUS/goldens, when it exists):
                       a passing output that matches no golden becomes changed-closer or
                       changed-further (by visible.mean to the oracle); the report shows the golden

    EXIT STATUS:
      0  every pair passed (or changed closer to the oracle than a golden)
      1  a pair failed its gate, erred (the resizer threw or produced no output), or changed
         further from the oracle than every golden
      2  the run itself failed: bad usage, missing corpus or gates file, a gate that does not
         parse, a metric canary failed, or a canary pair that must fail passed

    EXAMPLES:
      imglab run                                      the CI gate: quick corpus, built-in resizer
      imglab run --filter 'png-rgba8-*' --report Reports/rgba
      imglab run --filter '*/resize-aspectFit-24x24,*/orient' --json out.json --junit junit.xml
      imglab run --shard 2/3 --json shard2.json --report none
      imglab run --resizer swap-rb --filter colorPatches   see what a pink-tint bug looks like
      imglab run --resizer-config benchmarks/resizers/vipsthumbnail.json --json vips.json
      imglab run --resizer cmd:'.build/release/imglab resize {in} -o {out} --size {width}x{height} --mode {mode}' --filter '*/resize-aspectFit-24x24'
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--resizer", "--resizer-config", "--profile", "--corpus", "--filter", "--shard", "--report", "--json", "--junit", "--threads", "--goldens"], flags: [])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        if args.value("--resizer") != nil && args.value("--resizer-config") != nil { throw UsageError("give --resizer or --resizer-config, not both") }
        let resizerName = args.value("--resizer-config").map { "config:" + $0 } ?? args.value("--resizer") ?? "builtin"
        let resizer: any Resizer
        do throws(ResizerConfigError) { resizer = try ResizerChoice.adapter(resizerName) } catch { throw UsageError(error.description) }
        let policy = resizer.policy
        if policy != .builtin { print("imglab run: \(resizer.name) declares: \(policy.summary) (the gates honour it; affected pairs are labelled 'policy:')") }
        let profile = args.value("--profile") ?? "quick"
        guard CorpusProfile(rawValue: profile) != nil else { throw UsageError("--profile must be quick or full, not '\(profile)'") }
        let corpus = args.value("--corpus") ?? "Corpus"
        var shard = (index: 1, count: 1)
        if let text = args.value("--shard") {
            guard let s = RunSelection.parseShard(text) else { throw UsageError("--shard must be I/N with 1 ≤ I ≤ N, not '\(text)'") }
            shard = s
        }
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
        let reportArg = args.value("--report") ?? "Reports/\(profile)"
        let report = reportArg == "none" ? nil : reportArg

        let started = Date()
        let outcome: LabRunner.Outcome
        do {
            let selection = try RunSelection(filter: args.value("--filter"), shardIndex: shard.index, shardCount: shard.count)
            let gates = try GateBook.load(corpus: corpus)
            let manifest = try LabRunner.manifest(corpus: corpus)
            guard manifest.profile == profile else {
                printError("imglab run: \(corpus) holds the \(manifest.profile) profile, not \(profile); generate it with 'imglab corpus --profile \(profile) --out DIR' and pass --corpus DIR")
                return .usage
            }
            var runner = LabRunner(corpus: corpus, resizer: resizer, gates: gates, selection: selection, threads: threads, keepEvidence: report != nil)
            let goldenFolder = args.value("--goldens") ?? corpus + "/goldens"
            if FileManager.default.fileExists(atPath: goldenFolder + "/index.json") {
                do {
                    runner.goldenStore = GoldenStore(folder: goldenFolder)
                    runner.goldens = try GoldenStore(folder: goldenFolder).load()
                } catch {
                    printError("imglab run: \(error)")
                    return .usage
                }
            }
            let terminal = isatty(STDOUT_FILENO) == 1
            outcome = try runner.run { p in
                let line = "[\(p.done)/\(p.total)] \(p.result.verdict.rawValue.uppercased().padding(toLength: max(5, p.result.verdict.rawValue.count), withPad: " ", startingAt: 0)) \(p.result.pair)"
                if p.result.verdict != .pass {
                    let why = [p.result.diagnosis.flatMap { $0.bugClass.map { "diagnosis \($0)" } }, p.result.message, p.result.policy?.joined(separator: "; ")].compactMap { $0 }.joined(separator: ": ")
                    Console.line((terminal ? "\r\u{1B}[K" : "") + line + (why.isEmpty ? "" : " — " + why))
                } else if terminal {
                    Console.raw("\r\u{1B}[K" + bar(p.done, p.total) + " " + p.result.pair)
                } else if p.done % 25 == 0 || p.done == p.total {
                    Console.line("[\(p.done)/\(p.total)] judged")
                }
            }
            if terminal { Console.raw("\r\u{1B}[K") }
        } catch {
            printError("imglab run: \(error)")
            return .usage
        }
        let r = outcome.results
        for w in r.warnings { printError("warning: \(w)") }
        do {
            if let path = args.value("--json") { try ImageCodecs.writeAtomically([UInt8](try r.jsonData()), to: path) }
            if let path = args.value("--junit") { try ImageCodecs.writeAtomically(Array(JUnitReport.xml(r).utf8), to: path) }
            if let report {
                try FileManager.default.createDirectory(atPath: report + "/pairs", withIntermediateDirectories: true)
                // The index is written last, so a report folder with an index is complete.
                for file in RunReport.files(r, evidence: outcome.evidence) {
                    try ImageCodecs.writeAtomically(Array(file.text.utf8), to: report + "/" + file.path)
                }
            }
        } catch {
            printError("imglab run: cannot write the results: \(error)")
            return .usage
        }
        let seconds = Date().timeIntervalSince(started)
        let s = r.summary
        print("imglab run: \(r.resizer) on \(r.profile): \(s.line) in \(String(format: "%.1f", seconds)) s")
        if s.changedCloser > 0 {
            print("\(s.changedCloser) pair(s) changed and moved closer to the oracle: accept them with 'imglab bless" + (r.filter.isEmpty ? "" : " --filter '\(r.filter.joined(separator: ","))'") + "'")
        }
        if let skipped = s.skipped { print("imglab run: \(skipped) pairs skipped: not declared by the resizer's policy (listed in the JSON under 'skipped')") }
        let labelled = r.pairs.filter { $0.policy != nil }
        if !labelled.isEmpty {
            var counts: [String: Int] = [:]
            for p in labelled { for label in p.policy ?? [] { counts[label.dropFirst("policy: ".count).prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces), default: 0] += 1 } }
            print("imglab run: \(labelled.count) pairs judged under a declared policy (JSON 'policy' per pair): " + counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        if let report { print("report: \(report)/index.html") }
        return r.exitStatus == 0 ? .ok : .failure
    }

    static func bar(_ done: Int, _ total: Int) -> String {
        let width = 30, filled = total > 0 ? done * width / total : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total)"
    }
}

/// Progress output from worker threads, one write at a time.
enum Console {
    private static let lock = NSLock()
    static func line(_ s: String) { raw(s + "\n") }
    static func raw(_ s: String) {
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardOutput.write(Data(s.utf8))
    }
}
