import ImageCore
import ImageCorpus
import Foundation
import ImageMetrics

/// The lab's main job: corpus → resizer → metrics → verdict. Fails closed: the metric
/// canaries (``Canaries``) and the gates file's canary pairs (the built-in resizer made
/// deliberately broken by a mutant of ``MutantCatalogue``; each must fail) run before any real pair, and the run throws if one of
/// them does not behave.
///
/// Determinism: pairs are judged in parallel on `threads` threads, but each result lands at
/// its manifest index, so results (and the JSON) are the same for any thread count.
public struct LabRunner: Sendable {
    /// The corpus folder (holds `manifest.json`, `gates.json`, `sources/`, `oracle/`).
    public var corpus: String
    public var resizer: any Resizer
    public var gates: GateBook
    public var selection: RunSelection
    /// Worker threads (default: the number of cores).
    public var threads: Int
    /// Whether to keep each pair's evidence for the HTML report.
    public var keepEvidence: Bool
    /// The blessed goldens to check each output against (regression), if any: they turn a
    /// passing output that differs from every golden into `changed-closer` or `changed-further`.
    public var goldens: GoldenStore.Index?
    /// The store the goldens come from, so the report can show the golden image (optional).
    public var goldenStore: GoldenStore?
    /// The cases whose pairs are judged, or `nil` for every case; the others only serve the
    /// canaries (an input corpus holds the canary cases of the reference corpus).
    public var judgedCases: Set<String>? = nil

    /// Progress of a run, reported after each judged pair (from worker threads).
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var result: PairResult
    }

    /// Everything a run produced.
    public struct Outcome: Sendable {
        public var results: RunResults
        /// The evidence of each pair (same order as `results.pairs`), when kept.
        public var evidence: [PairEvidence?]
    }

    public init(corpus: String, resizer: any Resizer, gates: GateBook, selection: RunSelection,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, keepEvidence: Bool = false) {
        self.corpus = corpus
        self.resizer = resizer
        self.gates = gates
        self.selection = selection
        self.threads = threads
        self.keepEvidence = keepEvidence
    }

    /// Reads `DIR/manifest.json`.
    public static func manifest(corpus folder: String) throws(RunError) -> CorpusManifest {
        let path = URL(fileURLWithPath: folder).appendingPathComponent("manifest.json").path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .corpus("cannot read \(path); generate the corpus with 'imglab corpus --out \(folder)'")
        }
        do { return try JSONDecoder().decode(CorpusManifest.self, from: data) } catch {
            throw .corpus("\(path) is not a corpus manifest: \(error)")
        }
    }

    /// Runs the canaries, then every selected pair.
    /// - Throws: ``RunError`` when the run cannot judge the resizer (exit status 2).
    public func run(progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws(RunError) -> Outcome {
        let manifest = try Self.manifest(corpus: corpus)
        let all = LabPair.all(in: manifest)
        let judgedCases = self.judgedCases
        let selected = all.filter { pair in selection.selects(pair.id) && (judgedCases?.contains(pair.record.id) ?? true) }
        guard !selected.isEmpty else {
            throw .nothingSelected("filter \(selection.patterns), shard \(selection.shardIndex)/\(selection.shardCount), \(all.count) pairs in the corpus")
        }
        let metricCanaries = try PairJudge.metricCanaries()

        let root = URL(fileURLWithPath: corpus)
        let canaryJudge = PairJudge(corpus: root, gates: gates, canaries: metricCanaries, keepEvidence: false)
        var canaryResults: [PairResult] = []
        var leaks: [String] = []
        for canary in gates.file.canaries {
            // A pattern resolves to its first pair in manifest order, so one gates file serves every profile.
            guard let pair = all.first(where: { canary.matches($0.id) }) else {
                throw .gates("canary pair \(canary.pair) matches no pair of the corpus")
            }
            // The mutant breaks the known-good built-in resizer, so the canary tests the gates,
            // whatever adapter is under test.
            guard let mutant = MutantCatalogue.mutant(canary.mutant) else { throw .gates("canary \(canary.pair): unknown mutant '\(canary.mutant)'") }
            let result = canaryJudge.judge(pair, with: mutant.make(BuiltinResizer())).result
            canaryResults.append(result)
            if result.verdict == .pass {
                leaks.append("\(pair.id) through \(canary.mutant) passed")
            } else if let expected = canary.diagnosis, result.verdict == .fail, result.diagnosis?.bugClass != expected {
                leaks.append("\(pair.id) through \(canary.mutant) was diagnosed '\(result.diagnosis?.bugClass ?? "nothing")', not '\(expected)'")
            } else if result.verdict == .error {
                leaks.append("\(pair.id) through \(canary.mutant) could not be judged: \(result.message ?? "")")
            }
        }
        guard leaks.isEmpty else { throw .canaryPassed(leaks) }

        // Pairs the resizer's declared policies leave out are skipped, not judged.
        let policy = resizer.policy
        var skipped: [RunResults.SkippedPair] = []
        let judged = selected.filter { p in
            guard let why = policy.skipReason(operation: p.entry.operation, container: p.record.container) else { return true }
            skipped.append(.init(pair: p.id, reason: why))
            return false
        }

        let judge = PairJudge(corpus: root, gates: gates, canaries: metricCanaries, keepEvidence: keepEvidence, goldens: goldens, goldenStore: goldenStore)
        let counter = Counter()
        let resizer = self.resizer
        let outcomes = ParallelMap.run(judged.count, threads: threads) { i in
            let out = judge.judge(judged[i], with: resizer)
            progress(Progress(done: counter.increment(), total: judged.count, result: out.result))
            return Judged(result: out.result, evidence: out.evidence)
        }
        let pairs = outcomes.map(\.result)
        // Bounds are judged lax only over the whole corpus: a filtered or sharded run sees a
        // subset of each family, whose worst value says nothing about the bound.
        let whole = selection.patterns.isEmpty && selection.shardCount == 1 && skipped.isEmpty
        let warnings = whole ? LaxBound.find(gates: gates, results: pairs).map(\.description) : []
        var results = RunResults(
            resizer: resizer.name, profile: manifest.profile, corpus: corpus, filter: selection.patterns,
            shard: [selection.shardIndex, selection.shardCount], gatesFile: GateBook.fileName,
            gates: zip(gates.file.families, gates.gates).map { .init(family: $0.name, gate: $1.text) },
            metricDefinitions: RunResults.definitions(for: pairs + canaryResults), canaries: canaryResults,
            pairs: pairs, summary: RunResults.summarize(pairs), warnings: warnings)
        if policy != .builtin { results.policy = policy }
        if !skipped.isEmpty {
            results.skipped = skipped
            results.summary.skipped = skipped.count
        }
        return Outcome(results: results, evidence: outcomes.map(\.evidence))
    }

    private struct Judged: Sendable {
        var result: PairResult
        var evidence: PairEvidence?
    }

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
