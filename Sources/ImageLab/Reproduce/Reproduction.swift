import Foundation
import ImageMetrics

/// `imglab reproduce BUG`: runs the mutants of one topic of ``MutantCatalogue`` on a handful of
/// the pairs that trigger them (``ReproduceSample``) and the built-in resizer on the same pairs,
/// judges both against the oracle with the corpus's gates (``PairJudge``, as `imglab run` does),
/// and measures what exposes the bug (``TopicEvidence``).
///
/// Fails closed: the metric canaries (``Canaries``) run first. Pure apart from reading the
/// corpus; the results and evidence go to the caller, which writes the report.
public struct Reproduction: Sendable {
    /// The topic, e.g. `pink-tint`.
    public var topic: String
    /// Its mutants (normally ``MutantCatalogue``'s with this topic).
    public var mutants: [Mutant]
    /// What exposes the bug and which scenes show it best.
    public var evidence: TopicEvidence
    /// The corpus folder (`manifest.json`, `gates.json`, sources, oracle).
    public var corpus: String
    /// Pairs to run in all; each mutant gets `max(3, ⌈limit / mutants⌉)`.
    public var limit: Int
    /// Worker threads; the results do not depend on it.
    public var threads: Int

    /// Everything a reproduction produced.
    public struct Outcome: Sendable {
        public var results: ReproduceResults
        /// Per pair of `results.pairs`: the buggy and the correct output against the oracle,
        /// when the resizer produced an output.
        public var evidence: [(buggy: PairEvidence?, correct: PairEvidence?)]
    }

    /// The topics of ``MutantCatalogue``, in catalogue order.
    public static var topics: [String] { MutantCatalogue.topics.map(\.topic) }

    /// The catalogue's reproduction of `topic`, or `nil` when no mutant has that topic.
    public init?(topic: String, corpus: String = "Corpus", limit: Int = 12,
                 threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let mutants = MutantCatalogue.all.filter { $0.topic == topic }
        guard !mutants.isEmpty else { return nil }
        self.init(topic: topic, mutants: mutants, corpus: corpus, limit: limit, threads: threads)
    }

    /// A reproduction of any mutants under a topic name (tests use their own).
    public init(topic: String, mutants: [Mutant], corpus: String = "Corpus", limit: Int = 12,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.topic = topic
        self.mutants = mutants
        self.evidence = TopicEvidence.of(topic)
        self.corpus = corpus
        self.limit = limit
        self.threads = threads
    }

    /// The pairs each mutant runs on, in mutant order.
    public func sample() throws(RunError) -> [(mutant: Mutant, pairs: [LabPair])] {
        let all = LabPair.all(in: try LabRunner.manifest(corpus: corpus))
        let each = max(3, (limit + max(1, mutants.count) - 1) / max(1, mutants.count))
        let colour = evidence.requiresColour
        return mutants.map { m in
            (m, ReproduceSample.pick(all.filter { m.triggers($0) && (!colour || TopicEvidence.hasColour($0)) }, preferring: evidence.scenes, limit: each))
        }
    }

    /// Runs the canaries, the mutants and the built-in resizer.
    /// - Throws: ``RunError`` when the corpus or its gates cannot be read, or a metric canary fails.
    public func run() throws(RunError) -> Outcome {
        let gates = try GateBook.load(corpus: corpus)
        let plan = try sample()
        let metricFailures = Canaries.check()
        guard metricFailures.isEmpty else { throw .metricCanaries(metricFailures.map(\.description)) }

        let judge = PairJudge(corpus: URL(fileURLWithPath: corpus), gates: gates, keepEvidence: true)
        // Jobs: every (mutant, pair), then the built-in resizer once per distinct pair.
        var jobs: [(pair: LabPair, resizer: any Resizer)] = []
        var rows: [(mutant: Mutant, pair: LabPair, job: Int)] = []
        for (mutant, pairs) in plan {
            let resizer = mutant.make(BuiltinResizer())
            for pair in pairs {
                rows.append((mutant, pair, jobs.count))
                jobs.append((pair, resizer))
            }
        }
        var correctJob: [String: Int] = [:]
        for row in rows where correctJob[row.pair.id] == nil {
            correctJob[row.pair.id] = jobs.count
            jobs.append((row.pair, BuiltinResizer()))
        }
        let frozen = jobs
        let judged = ParallelMap.run(frozen.count, threads: threads) { i in
            let out = judge.judge(frozen[i].pair, with: frozen[i].resizer)
            return Judged(result: out.result, evidence: out.evidence)
        }

        var pairs: [ReproducedPair] = []
        var evidence: [(buggy: PairEvidence?, correct: PairEvidence?)] = []
        for row in rows {
            let buggy = judged[row.job]
            let correct = judged[correctJob[row.pair.id] ?? row.job]
            pairs.append(reproduced(row.mutant, row.pair, buggy: buggy, correct: correct))
            evidence.append((buggy.evidence, correct.evidence))
        }
        let summaries = mutants.map { m in summary(m, pairs.filter { $0.mutant == m.id }) }
        let results = ReproduceResults(topic: topic, corpus: corpus, mutants: summaries, pairs: pairs,
                                       reproduced: !summaries.isEmpty && summaries.allSatisfy(\.reproduced))
        return Outcome(results: results, evidence: evidence)
    }

    private struct Judged: Sendable {
        var result: PairResult
        var evidence: PairEvidence?
    }

    /// The measures in showing order: the error, the size, then the topic's metrics.
    var measuredMetrics: [ExposingMetric] { [.errorText, .outputSize] + evidence.metrics }

    private func reproduced(_ mutant: Mutant, _ pair: LabPair, buggy: Judged, correct: Judged) -> ReproducedPair {
        let b = buggy.result
        let caught = b.verdict != .pass
        var namedAs: String?
        var named = false
        switch b.verdict {
        case .pass: break
        case .fail:
            namedAs = b.diagnosis?.bugClass ?? "none"
            named = b.diagnosis?.bugClass == mutant.bugClass
        case .error:
            namedAs = "error"
            let message = b.message ?? ""
            named = ([mutant.bugClass] + evidence.errorSignatures).contains { message.localizedCaseInsensitiveContains($0) }
        }
        let measures = measuredMetrics.compactMap { ExposedValue.measure($0, result: b, comparison: buggy.evidence?.comparison) }
        let correctMeasures = measuredMetrics.compactMap { ExposedValue.measure($0, result: correct.result, comparison: correct.evidence?.comparison) }
        return ReproducedPair(mutant: mutant.id, pair: pair.id, buggy: b, correct: correct.result, caught: caught, named: named,
                              namedAs: namedAs, exposing: measures.first(where: \.shows), measures: measures, correctMeasures: correctMeasures)
    }

    private func summary(_ m: Mutant, _ pairs: [ReproducedPair]) -> ReproduceResults.MutantSummary {
        let caught = pairs.filter(\.caught).count, named = pairs.filter(\.named).count
        var counts: [String: Int] = [:]
        for p in pairs { if let n = p.namedAs { counts[n, default: 0] += 1 } }
        let diagnoses = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        return .init(id: m.id, title: m.title, history: m.history, references: m.references, bugClass: m.bugClass,
                     pairs: pairs.count, caught: caught, named: named,
                     reproduced: ReproduceResults.reproduces(caught: caught, named: named), diagnoses: diagnoses)
    }
}
