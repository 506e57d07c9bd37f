import ImageMetrics

/// What a run keeps of its pairs when it streams them (``PairSink``): the figures its summary
/// needs, accumulated pair by pair in manifest order, a few numbers each instead of every
/// ``PairResult``. Each figure equals the one computed from the whole list of results:
/// ``summary`` is ``RunResults/summarize(_:)``, ``metricDefinitions`` is
/// ``RunResults/definitions(for:)``, ``laxBounds`` is ``LaxBound/find(gates:results:)``.
public struct RunTally: Sendable {
    /// Counts by verdict.
    public private(set) var summary = RunResults.Summary(pairs: 0, pass: 0, fail: 0, error: 0)
    /// The unit and version of every metric the pairs hold.
    public private(set) var metricDefinitions: [String: RunResults.MetricVersion] = [:]
    /// How many labels of each kind the pairs carry (``RunResults/policyCounts``).
    public private(set) var policyLabels: [PolicyLabel.Kind: Int] = [:]
    /// Pairs judged under a declared policy (with at least one label).
    public private(set) var pairsUnderPolicy = 0
    /// What failed, grouped by gate family and failing metric, in order of first appearance
    /// (at most ``maxFailureGroups``): what `imglab run` tells a user about a finding.
    public private(set) var failureGroups: [FailureGroup] = []
    /// The failures grouped by the cause the diagnosis names (``FailureCauses``).
    public private(set) var causes = FailureCauses()
    /// The most failure groups kept.
    public static let maxFailureGroups = 64

    /// The pairs of one family that failed on one metric's bound (or an erred pair's reason).
    public struct FailureGroup: Sendable, Hashable {
        /// The gate family (`nil` for pairs no family took).
        public var family: String?
        /// The metric whose bound failed; `nil` for erred pairs, or a clause without a single metric.
        public var metric: String?
        /// Pairs in the group.
        public var count: Int
        /// The first pair: its id, the clause as it turned out (or the error), and the diagnosed bug class.
        public var example: String
        public var clause: String
        public var diagnosis: String?
    }

    /// A family's judged pairs (pass or fail) and, per bounded metric, how many have a value and the worst.
    private struct FamilyFigures: Sendable {
        var judged = 0
        var values: [String: (count: Int, worst: Double)] = [:]
    }
    private let gates: GateBook?
    /// The metrics each family name bounds away from a perfect value (those ``laxBounds`` looks at).
    private let bounded: [String: [(metric: String, perfect: Double)]]
    private var families: [String: FamilyFigures] = [:]

    /// A tally; `gates` is the book whose lax bounds ``laxBounds`` finds (none without it).
    public init(gates: GateBook? = nil) {
        self.gates = gates
        var bounded: [String: [(metric: String, perfect: Double)]] = [:]
        for (family, gate) in zip(gates?.file.families ?? [], gates?.gates ?? []) {
            for (metric, _) in LaxBound.bounds(of: gate) {
                guard let p = LaxBound.perfect(metric), !(bounded[family.name] ?? []).contains(where: { $0.metric == metric }) else { continue }
                bounded[family.name, default: []].append((metric, p))
            }
        }
        self.bounded = bounded
    }

    /// Counts a failed or erred pair in its group (family and first failing metric).
    private mutating func addFailure(_ p: PairResult) {
        let failing = (p.gate?.clauses ?? []).filter { !$0.passed && $0.excused != true } + (p.cost?.gate?.clauses ?? []).filter { !$0.passed && $0.excused != true }
        let metric = failing.first?.metric
        let clause = failing.first?.text ?? p.message ?? p.verdict.rawValue
        if let k = failureGroups.firstIndex(where: { $0.family == p.family && $0.metric == metric }) {
            failureGroups[k].count += 1
        } else if failureGroups.count < Self.maxFailureGroups {
            failureGroups.append(FailureGroup(family: p.family, metric: metric, count: 1, example: p.pair, clause: clause, diagnosis: p.diagnosis?.bugClass))
        }
    }

    /// Adds one pair (call in manifest order: the worst value of a lax bound keeps the first of equals).
    public mutating func add(_ p: PairResult) {
        summary.pairs += 1
        switch p.verdict {
        case .pass: summary.pass += 1
        case .fail: summary.fail += 1
        case .error: summary.error += 1
        case .changedCloser: summary.changedCloser += 1
        case .changedFurther: summary.changedFurther += 1
        }
        addDefinitions(of: p)
        if p.verdict.kind.fails { addFailure(p) }
        causes.add(p)
        if let labels = p.policy {
            pairsUnderPolicy += 1
            for label in labels { policyLabels[label.kind, default: 0] += 1 }
        }
        guard let family = p.family, p.verdict != .error, let metrics = bounded[family] else { return }
        var figures = families[family] ?? FamilyFigures()
        figures.judged += 1
        for (metric, perfect) in metrics {
            guard let v = p.metrics[metric] else { continue }
            if var seen = figures.values[metric] {
                // `max(by:)` over the family in manifest order: a later value replaces only a strictly worse-ranked one.
                if abs(seen.worst - perfect) < abs(v - perfect) { seen.worst = v }
                seen.count += 1
                figures.values[metric] = seen
            } else {
                figures.values[metric] = (1, v)
            }
        }
        families[family] = figures
    }

    /// Adds the metric definitions of a pair that is not counted (a canary).
    public mutating func addDefinitions(of p: PairResult) {
        for name in p.metrics.keys where metricDefinitions[name] == nil {
            if let d = MetricCatalog.definition(named: name) { metricDefinitions[name] = .init(unit: d.unit, version: d.version) }
        }
    }

    /// The exit status the pairs mean (``RunResults/exitStatus``).
    public var exitStatus: Int32 { ExitRule.status(failing: summary.failing) }

    /// The labels by kind, in kind order (``RunResults/policyCounts``).
    public var policyCounts: [(kind: PolicyLabel.Kind, count: Int)] {
        policyLabels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The lax bounds of every family over the pairs it judged (``LaxBound/find(gates:results:)``).
    public var laxBounds: [LaxBound] {
        guard let gates else { return [] }
        var out: [LaxBound] = []
        for (family, gate) in zip(gates.file.families, gates.gates) {
            guard let figures = families[family.name] else { continue }
            out += LaxBound.find(family: family, gate: gate, judged: figures.judged) { metric, _ in figures.values[metric] }
        }
        return out
    }
}
