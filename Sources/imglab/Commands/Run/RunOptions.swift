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
        --profile scale streams sources of 24 to 96 megapixels into a temporary folder and measures each
        resizer call's peak memory and CPU time in a child process against a decode-only floor, gated by the
        cost gate of gates.json; it takes none of --inputs, --shard, --goldens, --gates.
        """, exitStatus: """
          0  every pair passed (or changed closer to the oracle than a golden)
          1  a pair failed its gate, erred, or changed further from the oracle than every golden
          2  the run itself failed: bad usage, an unreadable corpus or gates file, a canary that misbehaved
        """, examples: [
            "imglab run                                      the CI gate: quick corpus, built-in resizer",
            "imglab run --filter '*/resize-aspectFit-24x24,*/orient' --json out.json --junit junit.xml",
            "imglab run --shard 2/3 --json shard2.json --report none",
            "imglab run --resizer swap-rb --filter colorPatches   see what a pink-tint bug looks like",
            "imglab run --inputs photos/ --report Reports/photos   your own images, the four default operations",
            "imglab run --inputs photos/ --ops fit-half --resizer mutant:argb-as-rgba --report none",
            "imglab run --resizer vipsthumbnail --json vips.json   a config built into imglab (benchmarks/resizers/)",
            "imglab run --resizer cmd:'imglab resize {in} -o {out} --size {width}x{height} --mode {mode}'"],
        docs: "docs/run.md (resizers, verdicts, outputs), docs/external-resizers.md (cmd: placeholders, configs)")
}
