import CommandLineOptions
import ImageLab

/// The options of `imglab run`, declared once (spellings, placeholder, help line, default,
/// validation), and the prose of its `--help`.
extension RunCommand {
    static let resizer = SharedOptions.resizer("""
        builtin (imglab's ImageResize, Lanczos 3, linear light); mutant:ID, a deliberately broken resizer of the \
        catalogue (e.g. swap-rb; argb-as-rgba, the pink tint); cmd:'TEMPLATE', a /bin/sh command run per pair with \
        these filled in, already shell-quoted: {in} {out} {width} {height} {mode} {kind} {size} …; or config:FILE \
        (as --resizer-config)
        """)
    static let shard = Option.parsed("--shard", "I/N", """
        run shard I of N: a pair's shard is FNV-1a(id) mod N + 1, the same split on every machine (default: 1/1)
        """) { text throws(UsageError) in
        guard let s = RunSelection.parseShard(text) else {
            throw UsageError("--shard must be I/N with 1 ≤ I ≤ N, not '\(text)'")
        }
        return s
    }
    static let report = SharedOptions.report("""
        DIR/index.html, a page per pair under DIR/pairs/ (self-contained), and the results again as \
        DIR/results.json and DIR/junit.xml
        """, default: "Reports/PROFILE")
    static let json = SharedOptions.json("write the results (schema imglab-run/1) to FILE as well")
    static let junit = SharedOptions.junit("write JUnit XML to FILE as well: a testcase per pair with its time, "
        + "failing clause and report page")
    static let inputs = Option<String?>.text("--inputs", "DIR", """
        judge the images of a folder instead of the corpus: each file recognised by content (recursively, any \
        supported container) becomes a case, its pair id RELATIVE/PATH/OPERATION; the box oracle is rendered from the \
        decoded file; gates and canaries come from --corpus; undecodable files are listed as skipped
        """)
    static let ops = Option.parsed("--ops", "LIST", """
        with --inputs, the operations of each image, comma-separated: orient, fit-half (aspect fit into half the \
        display size), fill-square (aspect fill of a square of half the shorter side), max-pixel-size-N \
        (default: orient,fit-half,fill-square,max-pixel-size-256)
        """) { text throws(UsageError) in
        guard let list = InputOperation.parseList(text) else {
            throw UsageError("--ops must list orient, fit-half, fill-square or max-pixel-size-N, not '\(text)'")
        }
        return list
    }
    static let keepSources = Option<String?>.text("--keep-sources", "DIR", """
        with --profile scale, write the generated sources into DIR and keep them, to reproduce a pair with 'imglab \
        thumbnail' or 'imglab resize'
        """).meaning("keep the scale profile's generated sources")

    static let require = Option.parsed("--require", "LIST", """
        judge these properties as the built-in design has them, whatever a resizer's fingerprint shows: \
        linear-light, antialiasing, full-precision, every-frame, or builtin-design (no fingerprint at all)
        """) { text throws(UsageError) in
        guard let list = ContractStage.Requirement.parseList(text) else {
            throw UsageError("--require " + ContractStage.Requirement.listProblem(text))
        }
        return list
    }

    static let help = Help(about: """
        The lab's main job: corpus → resizer → metrics → verdict → report → exit status. Each output is
        compared with its oracle and judged by the first gate family of gates.json that takes the pair: pass,
        fail (the diagnosis names the bug class) or error; with goldens, changed-closer or changed-further.
        Fail closed: the metric canaries and canary pairs run first, or the run stops with status 2.
        A cmd: resizer (or a config without a policy) is fingerprinted first: its design choices (kernel,
        light space, precision, …) become the contract it is judged against, printed once; defects still fail.
        --inputs DIR: every image of the folder becomes a case with the operations of --ops, judged against
        the oracle rendered from the decoded file. --profile scale measures each call's peak memory and CPU
        time on 24 to 96 megapixels against a decode-only floor (none of --inputs, --shard, --goldens, --gate[s]).
        """, exitStatus: """
          0  every pair passed (or changed closer to the oracle than a golden)
          1  a pair failed its gate, erred, or changed further from the oracle than every golden
          2  the run itself failed: bad usage, an unreadable corpus or gates file, a canary that misbehaved
        """, examples: [
            "imglab run                                      the CI gate: quick corpus, built-in resizer",
            "imglab run --filter '*/resize-aspectFit-24x24,*/orient' --json out.json --junit junit.xml",
            "imglab run --resizer swap-rb --filter colorPatches   see what a pink-tint bug looks like",
            "imglab run --inputs photos/ --gate 'deltaE00.p99 <= 2'   your own images, one gate for every pair",
            "imglab run --resizer vipsthumbnail --json vips.json   a config built into imglab (benchmarks/resizers/)",
            "imglab run --resizer cmd:'python3 mine.py {in} {out} {mode} {width} {height}'   fingerprinted first",
            "imglab run --resizer cmd:'…' --require linear-light   sRGB averaging fails (named) where it costs"],
        docs: "docs/run.md (resizers, verdicts, outputs), docs/external-resizers.md (cmd: placeholders, configs)")
}
