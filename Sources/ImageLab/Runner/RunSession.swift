import ImageCorpus
import ImageMetrics
import Foundation

/// `imglab run`: one resizer over the selected pairs of a corpus that must hold a given profile,
/// judged against the oracle and, when the corpus has a golden store, against the goldens
/// (``LabRunner`` does the judging, canaries first).
public struct RunSession: Sendable {
    /// The corpus folder (manifest, gates, sources, oracle; `goldens/` by default).
    public var corpus: String
    public var resizer: any Resizer
    /// The profile the corpus must hold (`quick`, `full`).
    public var profile: CorpusProfile
    /// Filter patterns (``RunSelection``), comma-separated; `nil` takes every pair.
    public var filter: String?
    /// 1-based shard index and shard count.
    public var shard: (index: Int, count: Int)
    /// Worker threads; the results do not depend on it.
    public var threads: Int
    /// The golden store; `nil` means `CORPUS/goldens`, used when it has an index.
    public var goldens: String?
    /// Whether to keep each pair's evidence (for the HTML report).
    public var keepEvidence: Bool
    /// A gates file to judge by instead of the corpus's `gates.json` (`--gates FILE`).
    public var gatesFile: String? = nil
    /// One gate for every family instead of the gates file's (`--gate EXPR`); canaries still run.
    public var gate: GateExpression? = nil

    public init(corpus: String, resizer: any Resizer, profile: CorpusProfile = .quick, filter: String? = nil,
                shard: (index: Int, count: Int) = (1, 1), threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                goldens: String? = nil, keepEvidence: Bool = false) {
        self.corpus = corpus
        self.resizer = resizer
        self.profile = profile
        self.filter = filter
        self.shard = shard
        self.threads = threads
        self.goldens = goldens
        self.keepEvidence = keepEvidence
    }

    /// What a session produced.
    public struct Outcome: Sendable {
        public var results: RunResults
        /// Each pair's evidence (same order as `results.pairs`), when kept.
        public var evidence: [PairEvidence?]
        /// Wall-clock seconds, from reading the corpus to the last verdict.
        public var seconds: Double
    }

    /// What a streamed session produced (``run(progress:into:)``).
    public struct StreamedOutcome: Sendable {
        /// The results without their pairs (each went to the sink as it was judged).
        public var results: RunResults
        /// The figures of the pairs (summary, exit status, policy counts).
        public var tally: RunTally
        /// Wall-clock seconds, from reading the corpus to the last pair handed to the sink.
        public var seconds: Double
    }

    /// Checks the corpus's profile, loads the goldens, and runs.
    /// - Throws: ``RunError`` when the run cannot judge the resizer: a bad selection, an
    ///   unreadable corpus, gates or golden store, a corpus of another profile, a canary that
    ///   misbehaves.
    public func run(progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in }) throws(RunError) -> Outcome {
        let started = Date()
        let outcome = try runner().run(progress: progress)
        return Outcome(results: outcome.results, evidence: outcome.evidence, seconds: Date().timeIntervalSince(started))
    }

    /// As ``run(progress:)``, handing each judged pair to `sink` in manifest order instead of
    /// keeping it (``LabRunner/run(progress:into:)``).
    /// - Throws: as ``run(progress:)``, and ``RunError/output(_:)`` when the sink throws.
    public func run<Sink: PairSink>(progress: @escaping @Sendable (LabRunner.Progress) -> Void = { _ in }, into sink: Sink) throws(RunError) -> StreamedOutcome {
        let started = Date()
        let outcome = try runner().run(progress: progress, into: sink)
        return StreamedOutcome(results: outcome.results, tally: outcome.tally, seconds: Date().timeIntervalSince(started))
    }

    /// The runner of this session, once the corpus's profile is checked and the goldens loaded.
    private func runner() throws(RunError) -> LabRunner {
        let selection = try RunSelection(filter: filter, shardIndex: shard.index, shardCount: shard.count)
        var gates = try GateBook.load(corpus: corpus, override: gatesFile)
        if let gate { gates = gates.judging(every: gate) }
        let manifest = try LabRunner.manifest(corpus: corpus)
        guard manifest.profile == profile.rawValue else {
            throw .corpusProfile("\(corpus) holds the \(manifest.profile) profile, not \(profile.rawValue); generate it with 'imglab corpus --profile \(profile.rawValue) --out DIR' and pass --corpus DIR")
        }
        var runner = LabRunner(corpus: corpus, resizer: resizer, gates: gates, selection: selection, threads: threads, keepEvidence: keepEvidence)
        let folder = goldens ?? corpus + "/goldens"
        if let goldens, !FileManager.default.fileExists(atPath: goldens + "/index.json") {
            // Asked for by name: a store that is not there is a mistake, not "no goldens".
            throw .goldens("\(goldens) holds no golden store (no index.json); 'imglab bless --goldens \(goldens)' makes one")
        }
        if FileManager.default.fileExists(atPath: folder + "/index.json") {
            let store = GoldenStore(folder: folder)
            do { runner.goldens = try store.load() } catch { throw .goldens(error.description) }
            runner.goldenStore = store
        }
        return runner
    }
}
