import Foundation
import ImageCore
import ImageLab
import ImageMetrics

/// `imglab bless`: accept the resizer's current outputs as goldens.
enum BlessCommand: Command {
    static let name = "bless"
    static let summary = "accept the resizer's current outputs as goldens (atomic, crash-safe)"
    static let help = """
    USAGE: imglab bless [--resizer builtin] [--corpus DIR] [--goldens DIR] [--filter PATTERN] [--threads N]

    Runs the resizer on the selected (case, operation) pairs, exactly as 'imglab run' does, and
    adds each output to the golden store: DIR/files/HASH.png (16-bit RGBA, the displayed pixels)
    and DIR/index.json (pair → goldens, each with its pixel hash, the resizer and its distance to
    the oracle: visible.mean and deltaE00.p99). Several goldens per pair are allowed (keyed by the
    hash of the decoded pixels); an output equal to an existing golden adds nothing.

    Crash-safe: golden files are content-addressed and written atomically (temp file + rename)
    before the index, which is written atomically last; nothing is overwritten or deleted. A bless
    killed at any point leaves the previous goldens intact and loadable.

    Pairs that fail their gate are blessed too (a golden records what the resizer does, the
    oracle says whether it is right); their count is printed.

    OPTIONS:
      --resizer R      builtin (default) or mutant:ID (a mutant of the catalogue, e.g. swap-rb)
      --corpus DIR     the corpus folder (default: Corpus)
      --goldens DIR    the golden store (default: CORPUS/goldens)
      --filter PATTERN the pairs to bless, as for 'imglab run' (default: all)
      --threads N      worker threads (default: the number of cores)

    EXIT STATUS: 0 blessed, 1 the store could not be written, 2 bad usage or the run failed.

    EXAMPLES:
      imglab bless
      imglab bless --filter 'png-rgba8-*/resize-aspectFit-24x24'
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--resizer", "--corpus", "--goldens", "--filter", "--threads"], flags: [])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let resizerName = args.value("--resizer") ?? "builtin"
        guard let resizer = ResizerChoice.resolve(resizerName) else {
            throw UsageError("--resizer must be one of \(ResizerChoice.accepted), not '\(resizerName)'")
        }
        let corpus = args.value("--corpus") ?? "Corpus"
        let goldens = args.value("--goldens") ?? corpus + "/goldens"
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
        let outcome: LabRunner.Outcome
        do {
            let runner = LabRunner(corpus: corpus, resizer: resizer, gates: try GateBook.load(corpus: corpus),
                                   selection: try RunSelection(filter: args.value("--filter")), threads: threads, keepEvidence: true)
            outcome = try runner.run()
        } catch {
            printError("imglab bless: \(error)")
            return .usage
        }
        var outputs: [(pair: String, image: Image, resizer: String, oracleDistance: [String: Double])] = []
        for (result, evidence) in zip(outcome.results.pairs, outcome.evidence) {
            guard let evidence else { continue }
            var distance: [String: Double] = [:]
            for m in ["visible.mean", "deltaE00.p99"] { distance[m] = evidence.comparison.value(m) }
            outputs.append((result.pair, evidence.actual.image, resizer.name, distance))
        }
        do {
            let added = try GoldenStore(folder: goldens).bless(outputs)
            let failing = outcome.results.summary.fail
            print("imglab bless: \(added) golden(s) added to \(goldens) (\(outputs.count - added) already blessed)" + (failing > 0 ? "; \(failing) blessed pair(s) fail their gate" : ""))
        } catch {
            printError("imglab bless: \(error)")
            return .failure
        }
        return .ok
    }
}
