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

    /// Runs the canaries, then every selected pair, and keeps every result (and, with
    /// ``keepEvidence``, every pair's evidence) for the caller.
    /// - Throws: ``RunError`` when the run cannot judge the resizer (exit status 2).
    public func run(progress: @escaping @Sendable (Progress) -> Void = { _ in }) throws(RunError) -> Outcome {
        let kept = KeptPairs()
        var results = try run(progress: progress, into: kept).results
        results.pairs = kept.results
        return Outcome(results: results, evidence: kept.evidence)
    }

    /// What a streamed run keeps: the results without their pairs, and the tally of the pairs.
    public struct StreamedOutcome: Sendable {
        /// Every field of the results but ``RunResults/pairs``, which is empty: each pair went
        /// to the sink as soon as it was judged.
        public var results: RunResults
        /// The figures of the pairs (summary, exit status, policy counts).
        public var tally: RunTally
    }

    /// Runs the canaries, then every selected pair, handing each judged pair to `sink` in
    /// manifest order as soon as the pairs before it are judged (``PairSink``); nothing is kept
    /// per pair but the tally, so memory does not grow with the number of pairs.
    /// - Throws: ``RunError`` when the run cannot judge the resizer (exit status 2), or
    ///   ``RunError/output(_:)`` when the sink throws (the run stops there).
    public func run<Sink: PairSink>(progress: @escaping @Sendable (Progress) -> Void = { _ in }, into sink: Sink) throws(RunError) -> StreamedOutcome {
        let source = CorpusPairs(corpus: corpus, selection: selection, judgedCases: judgedCases)
        let manifest = try source.manifest()
        let all = LabPair.all(in: manifest)
        let selected = try source.pairs(of: manifest)
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
        let tally = TallyBox(RunTally(gates: gates))
        do {
            try ParallelStream.run(judged.count, threads: threads, { i in
                let started = DispatchTime.now().uptimeNanoseconds
                var out = judge.judge(judged[i], with: resizer)
                out.result.elapsed = WallTime(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                progress(Progress(done: counter.increment(), total: judged.count, result: out.result))
                return Judged(result: out.result, prepared: sink.prepare(index: i, result: out.result, evidence: out.evidence))
            }, deliver: { i, pair in
                try sink.accept(index: i, result: pair.result, prepared: pair.prepared)
                tally.add(pair.result)
            })
        } catch {
            throw .output("\(error)")
        }
        var counted = tally.value
        for canary in canaryResults { counted.addDefinitions(of: canary) }
        // Bounds are judged lax only over the whole corpus: a filtered or sharded run sees a
        // subset of each family, whose worst value says nothing about the bound.
        let whole = selection.patterns.isEmpty && selection.shardCount == 1 && skipped.isEmpty
        let warnings = whole ? counted.laxBounds.map(\.description) : []
        var results = RunResults(
            resizer: resizer.name, profile: manifest.profile, corpus: corpus, filter: selection.patterns,
            shard: [selection.shardIndex, selection.shardCount], gatesFile: GateBook.fileName,
            gates: zip(gates.file.families, gates.gates).map { .init(family: $0.name, gate: $1.text) },
            metricDefinitions: counted.metricDefinitions, canaries: canaryResults,
            pairs: [], summary: counted.summary, warnings: warnings)
        if policy != .builtin { results.policy = policy }
        if !skipped.isEmpty {
            results.skipped = skipped
            results.summary.skipped = skipped.count
        }
        return StreamedOutcome(results: results, tally: counted)
    }

    private struct Judged<Prepared: Sendable>: Sendable {
        var result: PairResult
        var prepared: Prepared
    }

    /// The tally, added to serially by the in-order delivery and read after the run.
    private final class TallyBox: @unchecked Sendable {
        var value: RunTally
        init(_ value: RunTally) { self.value = value }
        func add(_ p: PairResult) { value.add(p) }
    }

    private final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
    }
}
