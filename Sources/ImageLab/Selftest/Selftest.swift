import ImageCore
import ImageCorpus
import Foundation

/// `imglab selftest`: the built-in resizer over every pair of the corpus (through
/// ``LabRunner``: canaries first, lax-bound warnings after), then every mutant of
/// ``MutantCatalogue``, built on the built-in resizer, over the pairs of its triggers (or every
/// pair), judged with the same gates; the outcome is a ``KillMatrix``.
public struct Selftest: Sendable {
    /// The corpus folder (with `manifest.json` and `gates.json`).
    public var corpus: String
    /// The mutants to run (default: the whole catalogue).
    public var mutants: [Mutant]
    /// Run every mutant on every pair instead of on its triggers.
    public var allPairs: Bool
    /// Worker threads.
    public var threads: Int

    /// Progress: a stage finished (`builtin`, or a mutant id) with a one-line summary.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var line: String
    }

    public init(corpus: String, mutants: [Mutant] = MutantCatalogue.all, allPairs: Bool = false,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.corpus = corpus
        self.mutants = mutants
        self.allPairs = allPairs
        self.threads = threads
    }

    /// Runs the built-in resizer, then each mutant.
    /// - Throws: ``RunError`` when the corpus or gates cannot be read or a canary misbehaves.
    public func run(progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws(RunError) -> KillMatrix {
        let gates = try GateBook.load(corpus: corpus)
        let manifest = try LabRunner.manifest(corpus: corpus)
        let all = LabPair.all(in: manifest)
        let total = mutants.count + 1
        let selection = try RunSelection()
        let outcome = try LabRunner(corpus: corpus, resizer: BuiltinResizer(), gates: gates, selection: selection, threads: threads).run()
        let results = outcome.results
        let builtin = KillMatrix.Builtin(
            pairs: results.pairs.count, pass: results.pairs.filter { $0.verdict == .pass }.count,
            failures: results.pairs.filter { $0.verdict != .pass }.map { .init(pair: $0.pair, diagnosis: "\($0.verdict.rawValue): \($0.message ?? "")") },
            warnings: results.warnings)
        progress(Progress(done: 1, total: total, line: "builtin: \(builtin.pass) of \(builtin.pairs) pairs pass"))

        // The built-in run above checked the metric canaries (it throws when one fails).
        let judge = PairJudge(corpus: URL(fileURLWithPath: corpus), gates: gates, canaries: [], keepEvidence: false)
        var rows: [KillMatrix.Row] = []
        for (k, mutant) in mutants.enumerated() {
            let triggered = all.filter(mutant.triggers)
            let pairs = allPairs ? all : triggered
            let resizer = mutant.make(BuiltinResizer())
            let judged = ParallelMap.run(pairs.count, threads: threads) { i in judge.judge(pairs[i], with: resizer).result }
            let triggeredIDs = Set(triggered.map(\.id))
            let row = KillMatrix.row(for: mutant, results: judged, triggered: { triggeredIDs.contains($0) })
            rows.append(row)
            let accuracy = row.accuracy.map { String(format: "%.0f %%", $0 * 100) } ?? "—"
            progress(Progress(done: k + 2, total: total, line: "\(mutant.id): \(row.run) pairs run, \(row.caught) caught, \(row.named) named '\(mutant.bugClass)' (\(accuracy)), caught on \(row.caughtOfTriggered) triggered"))
        }
        let reasons = KillMatrix.reasons(builtin: builtin, mutants: rows)
        return KillMatrix(profile: manifest.profile, allPairs: allPairs, families: gates.file.families.map(\.name),
                          builtin: builtin, mutants: rows, passed: reasons.isEmpty, reasons: reasons)
    }
}
