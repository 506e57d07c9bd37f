import ImageCore
import ImageCorpus
import Foundation
import ImageMetrics

/// `imglab reproduce BUG`: runs the mutants of one topic of ``MutantCatalogue`` on every pair
/// that triggers them, judged against the oracle with the corpus's gates (``PairJudge``, as
/// `imglab run` does), tallies the catches and namings (the `imglab selftest` rule, per topic),
/// then shows a handful of those pairs (``ReproduceSample``, caught pairs first) beside the
/// built-in resizer's output on the same pairs, with what exposes the bug (``TopicEvidence``).
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
    /// Pairs to show in all; each mutant gets ``shownPerMutant``.
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

    /// The pairs that trigger each mutant (``Mutant/triggers``; colour sources only when the
    /// topic ``TopicEvidence/requiresColour``), in mutant order and manifest order.
    public func triggering() throws(RunError) -> [(mutant: Mutant, pairs: [LabPair])] {
        let all = LabPair.all(in: try LabRunner.manifest(corpus: corpus))
        let colour = evidence.requiresColour
        return mutants.map { m in (m, all.filter { m.triggers($0) && (!colour || TopicEvidence.hasColour($0)) }) }
    }

    /// Pairs shown per mutant: `max(3, ⌈limit / mutants⌉)`.
    public var shownPerMutant: Int { max(3, (limit + max(1, mutants.count) - 1) / max(1, mutants.count)) }

    /// Runs the canaries; every mutant on every pair that triggers it (the tally, as
    /// `imglab selftest` counts it); then picks the pairs to show (``ReproduceSample``, pairs
    /// that caught the bug first) and runs the built-in resizer on them.
    /// - Throws: ``RunError`` when the corpus or its gates cannot be read, or a metric canary fails.
    public func run() throws(RunError) -> Outcome {
        let gates = try GateBook.load(corpus: corpus)
        let plan = try triggering()
        let judge = PairJudge(corpus: URL(fileURLWithPath: corpus), gates: gates, canaries: try PairJudge.metricCanaries(), keepEvidence: true)
        let threads = self.threads

        // 1. Every mutant on every pair that triggers it.
        var screenJobs: [(pair: LabPair, resizer: any Resizer)] = []
        for (mutant, pairs) in plan {
            let resizer = mutant.make(BuiltinResizer())
            screenJobs += pairs.map { ($0, resizer) }
        }
        let screen = Self.judgeAll(screenJobs, judge: judge, threads: threads)

        // 2. The pairs to show: the sample rule over the pairs that caught the bug, then over the rest.
        var rows: [(mutant: Mutant, pair: LabPair, judged: Judged)] = []
        var summaries: [ReproduceResults.MutantSummary] = []
        var offset = 0
        for (mutant, pairs) in plan {
            let judged = Array(screen[offset..<offset + pairs.count])
            offset += pairs.count
            var byID: [String: Judged] = [:]
            for (pair, j) in zip(pairs, judged) { byID[pair.id] = j }
            let caught = zip(pairs, judged).filter { $0.1.result.verdict != .pass }.map(\.0)
            let missed = zip(pairs, judged).filter { $0.1.result.verdict == .pass }.map(\.0)
            var shown = ReproduceSample.pick(caught, preferring: evidence.scenes, limit: shownPerMutant)
            shown += ReproduceSample.pick(missed, preferring: evidence.scenes, limit: shownPerMutant - shown.count)
            for pair in shown { if let j = byID[pair.id] { rows.append((mutant, pair, j)) } }
            summaries.append(summary(mutant, judged.map(\.result), shown: shown.count))
        }

        // 3. The correct output on each shown pair.
        var distinct: [LabPair] = []
        var correctIndex: [String: Int] = [:]
        for row in rows where correctIndex[row.pair.id] == nil {
            correctIndex[row.pair.id] = distinct.count
            distinct.append(row.pair)
        }
        let correct = Self.judgeAll(distinct.map { ($0, BuiltinResizer()) }, judge: judge, threads: threads)

        var pairs: [ReproducedPair] = []
        var evidence: [(buggy: PairEvidence?, correct: PairEvidence?)] = []
        for row in rows {
            let c = correct[correctIndex[row.pair.id] ?? 0]
            pairs.append(reproduced(row.mutant, row.pair, buggy: row.judged, correct: c))
            evidence.append((row.judged.evidence, c.evidence))
        }
        let results = ReproduceResults(topic: topic, corpus: corpus, mutants: summaries, pairs: pairs,
                                       reproduced: !summaries.isEmpty && summaries.allSatisfy(\.reproduced))
        return Outcome(results: results, evidence: evidence)
    }

    private static func judgeAll(_ jobs: [(pair: LabPair, resizer: any Resizer)], judge: PairJudge, threads: Int) -> [Judged] {
        ParallelMap.run(jobs.count, threads: threads) { i in
            let out = judge.judge(jobs[i].pair, with: jobs[i].resizer)
            return Judged(result: out.result, evidence: out.evidence)
        }
    }

    private struct Judged: Sendable {
        var result: PairResult
        var evidence: PairEvidence?
    }

    /// The measures in showing order: the error, the size, then the topic's metrics.
    var measuredMetrics: [ExposingMetric] { [.errorText, .outputSize] + evidence.metrics }

    /// Whether a judged output caught the bug, named it, and as what: a failure's diagnosis class,
    /// or `error` for a thrown error, which names the bug when its message carries the mutant's
    /// class or the topic's ``TopicEvidence/errorSignatures``.
    func naming(_ mutant: Mutant, _ b: PairResult) -> (caught: Bool, named: Bool, namedAs: String?) {
        switch b.verdict {
        case .pass, .changedCloser, .changedFurther:  // reproduce runs without goldens
            return (false, false, nil)
        case .fail:
            return (true, b.diagnosis?.bugClass == mutant.bugClass, b.diagnosis?.bugClass ?? "none")
        case .error:
            let message = b.message ?? ""
            return (true, ([mutant.bugClass] + evidence.errorSignatures).contains { message.localizedCaseInsensitiveContains($0) }, "error")
        }
    }

    private func reproduced(_ mutant: Mutant, _ pair: LabPair, buggy: Judged, correct: Judged) -> ReproducedPair {
        let b = buggy.result
        let (caught, named, namedAs) = naming(mutant, b)
        let measures = measuredMetrics.compactMap { ExposedValue.measure($0, result: b, comparison: buggy.evidence?.comparison) }
        let correctMeasures = measuredMetrics.compactMap { ExposedValue.measure($0, result: correct.result, comparison: correct.evidence?.comparison) }
        return ReproducedPair(mutant: mutant.id, pair: pair.id, buggy: b, correct: correct.result, caught: caught, named: named,
                              namedAs: namedAs, exposing: measures.first(where: \.shows), measures: measures, correctMeasures: correctMeasures)
    }

    private func summary(_ m: Mutant, _ results: [PairResult], shown: Int) -> ReproduceResults.MutantSummary {
        let namings = results.map { naming(m, $0) }
        let caught = namings.filter(\.caught).count, named = namings.filter(\.named).count
        var counts: [String: Int] = [:]
        for n in namings { if let a = n.namedAs { counts[a, default: 0] += 1 } }
        let diagnoses = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        return .init(id: m.id, title: m.title, history: m.history, references: m.references, bugClass: m.bugClass,
                     pairs: results.count, caught: caught, named: named, shown: shown,
                     reproduced: ReproduceResults.reproduces(caught: caught, named: named, required: m.requiredAccuracy),
                     diagnoses: diagnoses)
    }
}
