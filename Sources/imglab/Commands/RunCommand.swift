import Foundation
import ImageCorpus
import ImageLab
import ImageReports

/// `imglab run`: the CI gate. Every (case, operation) pair of the corpus through a resizer
/// adapter, compared with its oracle, judged by the reviewed gates of `Corpus/gates.json`.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "run a resizer through the lab: every corpus case vs its oracle, gated; JSON, JUnit, HTML report"
    static let resizer = SharedOptions.resizer("builtin (imglab's ImageResize, Lanczos 3, linear light); mutant:ID, a deliberately broken resizer of the catalogue (e.g. swap-rb; argb-as-rgba, the pink tint); cmd:'TEMPLATE', a /bin/sh command run per pair with these filled in, already shell-quoted: {in} {out} {width} {height} {mode} {kind} {size} …; or config:FILE (as --resizer-config)")
    static let shard = Option.parsed("--shard", "I/N", "run shard I of N: a pair's shard is FNV-1a(id) mod N + 1, the same split on every machine (default: 1/1)") { text throws(UsageError) in
        guard let s = RunSelection.parseShard(text) else { throw UsageError("--shard must be I/N with 1 ≤ I ≤ N, not '\(text)'") }
        return s
    }
    static let report = SharedOptions.report("the report folder: PATH/index.html, a page per pair under PATH/pairs/ (self-contained), and the results again as PATH/results.json and PATH/junit.xml", default: "Reports/PROFILE")
    static let json = SharedOptions.json("write the results (schema imglab-run/1) to FILE as well")
    static let junit = SharedOptions.junit("write JUnit XML to FILE as well: a testcase per pair with its time, failing clause and report page")
    static let goldens = Option<String?>.text("--goldens", "DIR", "the golden store of 'imglab bless': a passing output that matches no golden becomes changed-closer or changed-further", default: "CORPUS/goldens, when it exists")
    static let inputs = Option<String?>.text("--inputs", "DIR", "judge the images of a folder instead of the corpus: each file recognised by content (recursively, any supported container) becomes a case, its pair id RELATIVE/PATH/OPERATION; the box oracle is rendered from the decoded file; gates and canaries come from --corpus; undecodable files are listed as skipped")
    static let ops = Option.parsed("--ops", "LIST", "with --inputs, the operations of each image, comma-separated: orient, fit-half (aspect fit into half the display size), fill-square (aspect fill of a square of half the shorter side), max-pixel-size-N (default: orient,fit-half,fill-square,max-pixel-size-256)") { text throws(UsageError) in
        guard let list = InputOperation.parseList(text) else { throw UsageError("--ops must list orient, fit-half, fill-square or max-pixel-size-N, comma-separated, not '\(text)'") }
        return list
    }
    /// What `--profile` selects: a corpus profile, or the scale profile's measured sources.
    enum RunProfile: Sendable {
        case corpus(CorpusProfile)
        case scale
        var name: String {
            switch self {
            case .corpus(let p): return p.rawValue
            case .scale: return "scale"
            }
        }
    }
    static let profile = Option.choice("--profile", "P", "quick is the CI gate, committed in Corpus/; full has every combination, for sharded runs; scale streams sources of 24 to 96 megapixels into a temporary folder and measures each resizer call's peak memory and CPU time in a child process against a decode-only floor (gated by the cost gate of gates.json; it takes none of --inputs, --shard, --goldens, --gates)",
                                       default: ("quick", RunProfile.corpus(.quick)), [("full", .corpus(.full)), ("scale", .scale)])
    static let keepSources = Option<String?>.text("--keep-sources", "DIR", "with --profile scale, write the generated sources into DIR and keep them, to reproduce a pair with 'imglab thumbnail' or 'imglab resize'")
    static let exclusive: [[any OptionDeclaration]] = [[resizer, SharedOptions.resizerConfig], [inputs, shard], [inputs, goldens]]
    static let options: [any OptionDeclaration] = [resizer, SharedOptions.resizerConfig, profile, SharedOptions.corpus, SharedOptions.gates, SharedOptions.filter,
                                                   shard, report, json, junit, SharedOptions.threads, goldens, inputs, ops, keepSources]
    static let help = Help(about: """
        The lab's main job: corpus → resizer → metrics → verdict → report → exit status. Each output is
        compared by value with its analytic oracle and judged by the first gate family of gates.json that
        takes the pair: pass, fail (with the diagnosis naming the bug class) or error; with goldens, an
        output equal to none is changed-closer or changed-further. Fail closed: the metric canaries and the
        canary pairs (a broken resizer that must FAIL) run first, or the run stops with status 2.
        With --inputs DIR, the lab runs on your own images instead: every image of the folder becomes a case
        (display size, format and orientation from its header) with the operations of --ops, judged against
        the box oracle rendered from the decoded file (or the kernel-exact one of a resizer that declares
        its kernel), by the gates of --corpus after its canaries. Files that hold an image that cannot be
        decoded are listed as skipped with the decoder's error.
        """, exitStatus: """
          0  every pair passed (or changed closer to the oracle than a golden)
          1  a pair failed its gate, erred, or changed further from the oracle than every golden
          2  the run itself failed: bad usage, an unreadable corpus or gates file, a canary that misbehaved
        """, examples: ["imglab run                                      the CI gate: quick corpus, built-in resizer",
                        "imglab run --filter '*/resize-aspectFit-24x24,*/orient' --json out.json --junit junit.xml",
                        "imglab run --shard 2/3 --json shard2.json --report none",
                        "imglab run --resizer swap-rb --filter colorPatches   see what a pink-tint bug looks like",
                        "imglab run --inputs photos/ --report Reports/photos   your own images: orient, fit-half, fill-square, max-pixel-size-256",
                        "imglab run --inputs photos/ --ops fit-half --resizer mutant:argb-as-rgba --report none",
                        "imglab run --resizer vipsthumbnail --json vips.json           a config built into imglab (benchmarks/resizers/)",
                        "imglab run --resizer cmd:'.build/release/imglab resize {in} -o {out} --size {width}x{height} --mode {mode}' --filter '*/resize-aspectFit-24x24'"],
        docs: "docs/run.md (resizers, verdicts, outputs), docs/external-resizers.md (cmd: placeholders, configs)")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let outputs: [(option: String, path: String?)] = [(json.name, try args.value(json)), (junit.name, try args.value(junit))]
        try OutputPaths.check(outputs.compactMap { o in o.path.map { (o.option, $0) } }, inputs: [])
        let configured = try args.value(SharedOptions.resizerConfig), named = try args.value(resizer)
        let adapter = configured ?? named ?? BuiltinResizer()
        if adapter.policy != .builtin { print("imglab run: \(adapter.name) declares: \(adapter.policy.summary) (the gates honour it; affected pairs are labelled 'policy:')") }
        let chosen = try args.value(profile), reportArg = try args.value(report) ?? "Reports/\(chosen.name)"
        let reportFolder = reportArg == "none" ? nil : reportArg
        if let reportFolder { try OutputPaths.checkFolder(option: report.name, reportFolder) }
        let inputFolder = try args.value(inputs), operations = try args.value(ops)
        if inputFolder == nil, operations != nil { throw UsageError("--ops needs --inputs DIR") }
        if args.has(keepSources), case .corpus = chosen { throw UsageError("--keep-sources needs --profile scale") }
        if let kept = try args.value(keepSources) { try OutputPaths.checkFolder(option: keepSources.name, kept) }
        var scaleResizer: CommandResizer?
        if case .scale = chosen {
            if inputFolder != nil || args.has(shard) || args.has(goldens) || args.has(SharedOptions.gates) {
                throw UsageError("--profile scale takes none of --inputs, --shard, --goldens, --gates (it is judged by the cost gate of the corpus's gates.json)")
            }
            let imglab = Executable.path
            guard FileManager.default.isExecutableFile(atPath: Executable.meter) else {
                throw UsageError("--profile scale needs \(Executable.meter), which measures each call; build it with 'swift build -c release'")
            }
            do { scaleResizer = try ScaleSession.commandResizer(adapter, imglab: imglab) } catch { throw UsageError("--profile scale: \(error)") }
        }
        let terminal = isatty(STDOUT_FILENO) == 1
        let jsonPath = try args.value(json), junitPath = try args.value(junit)
        let afterWrite = try WriteFaultPoint.fromEnvironment()
        // The files are written as the pairs are judged, so memory does not grow with the run.
        let files: StreamedResultFiles
        do { files = try StreamedResultFiles(json: jsonPath, junit: junitPath, report: reportFolder, afterWrite: afterWrite) } catch {
            printError("imglab run: cannot write the results: \(error)")
            return .usage
        }
        let outcome: RunSession.StreamedOutcome
        do {
            if let scaleResizer {
                let session = ScaleSession(reference: try SharedOptions.corpusFolder(args, command: name), resizer: scaleResizer, imglab: Executable.path, meter: Executable.meter,
                                           filter: try args.value(SharedOptions.filter), threads: try args.value(SharedOptions.threads),
                                           keepSources: try args.value(keepSources))
                outcome = try session.run(status: { Console.line("imglab run: \($0)") }, progress: { p in p.costLine.map(Console.line) }, into: files)
            } else if let inputFolder {
                var session = InputsSession(inputs: inputFolder, reference: try SharedOptions.corpusFolder(args, command: name), resizer: adapter,
                                            operations: operations ?? InputOperation.defaults, filter: try args.value(SharedOptions.filter),
                                            threads: try args.value(SharedOptions.threads), keepEvidence: reportFolder != nil)
                session.gatesFile = try args.value(SharedOptions.gates)
                outcome = try session.run(progress: { p in Console.raw(p.terminalLine(onTerminal: terminal)) }, into: files)
            } else {
                let corpusProfile: CorpusProfile
                if case .corpus(let p) = chosen { corpusProfile = p } else { corpusProfile = .quick }
                var session = RunSession(corpus: try SharedOptions.corpusFolder(args, command: name, profile: corpusProfile), resizer: adapter, profile: corpusProfile,
                                         filter: try args.value(SharedOptions.filter), shard: try args.value(shard) ?? (1, 1),
                                         threads: try args.value(SharedOptions.threads), goldens: try args.value(goldens), keepEvidence: reportFolder != nil)
                session.gatesFile = try args.value(SharedOptions.gates)
                outcome = try session.run(progress: { p in Console.raw(p.terminalLine(onTerminal: terminal)) }, into: files)
            }
        } catch {
            files.abandon()
            printError("imglab run: \(error)")
            return .usage
        }
        if terminal { Console.raw("\r\u{1B}[K") }
        let r = outcome.results, s = r.summary
        for w in r.warnings { printError("warning: \(w)") }
        do { try files.finish(r) } catch {
            printError("imglab run: cannot write the results: \(error)")
            return .usage
        }
        print("imglab run: \(r.resizer) on \(r.profile): \(s.line) in \(String(format: "%.1f", outcome.seconds)) s")
        if s.changedCloser > 0 {
            print("\(s.changedCloser) pair(s) changed and moved closer to the oracle: accept them with 'imglab bless" + (r.filter.isEmpty ? "" : " --filter '\(r.filter.joined(separator: ","))'") + "'")
        }
        if let skipped = r.skipped {
            let undecodable = skipped.filter { $0.reason.hasPrefix("decode:") }
            let unjudged = skipped.filter { $0.reason.hasPrefix("not judged:") }
            for file in undecodable + unjudged { print("skipped \(file.pair): \(file.reason)") }
            let undeclared = skipped.count - undecodable.count - unjudged.count
            if undeclared > 0 { print("imglab run: \(undeclared) pairs skipped: not declared by the resizer's policy (listed in the JSON under 'skipped')") }
            if !unjudged.isEmpty { print("imglab run: \(unjudged.count) pair(s) skipped: no oracle can judge them (listed in the JSON under 'skipped')") }
            if !undecodable.isEmpty { print("imglab run: \(undecodable.count) input file(s) skipped: cannot be decoded (listed in the JSON under 'skipped')") }
        }
        let counts = outcome.tally.policyCounts
        if !counts.isEmpty {
            print("imglab run: \(outcome.tally.pairsUnderPolicy) pairs judged under a declared policy or the thumbnail contract (JSON 'policy' per pair): " + counts.map { "\($0.kind.name) ×\($0.count)" }.joined(separator: ", "))
        }
        if let reportFolder { print("report: \(reportFolder)/index.html (results.json and junit.xml beside it)") }
        guard outcome.tally.exitStatus != 0 else { return .ok }
        print(RunFinding.text(outcome.tally, gatesFile: try args.value(SharedOptions.gates) ?? "\(r.corpus)/\(GateBook.fileName)", report: reportFolder))
        return .failure
    }
}
