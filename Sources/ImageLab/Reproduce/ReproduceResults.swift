import ImageCore
import ImageCorpus
import Foundation

/// What `imglab reproduce BUG` found: for each mutant of the topic, the tally over every pair
/// that triggers it (how many the lab caught — the gate failed or the resizer threw — and named:
/// the diagnosis is the mutant's ``Mutant/bugClass``), and the handful of pairs shown, each with
/// the number that exposes the bug and the correct output (the built-in resizer) on the same pair. The `--json` file (schema
/// `imglab-reproduce/1`, keys sorted); no timings, so the same corpus gives the same bytes.
///
/// A mutant *reproduces* when the lab catches it on at least one of its pairs and names it on at
/// least 90 % of the pairs that catch it (the `imglab selftest` rule); the topic reproduces when
/// every one of its mutants does.
public struct ReproduceResults: Sendable, Hashable, Codable {
    public static let schema = "imglab-reproduce/1"
    public var schema = ReproduceResults.schema
    /// Which imglab wrote the file: version and commit (``ImglabBuild/identity``); absent in files written before it was recorded.
    public var imglab: String? = ImglabBuild.identity
    /// The topic, e.g. `pink-tint`.
    public var topic: String
    /// The corpus folder.
    public var corpus: String
    public var mutants: [MutantSummary]
    /// The pairs shown, grouped by mutant, in sample order (caught pairs first).
    public var pairs: [ReproducedPair]
    /// Whether every mutant reproduced.
    public var reproduced: Bool

    /// One mutant's record and tally.
    public struct MutantSummary: Sendable, Hashable, Codable {
        public var id: String
        public var title: String
        public var history: String
        public var references: [String]
        /// The diagnosis class that must name it.
        public var bugClass: String
        /// Pairs that trigger it (all run), pairs where the lab caught the bug, pairs where it
        /// also named it, and pairs shown (in ``ReproduceResults/pairs``).
        public var pairs: Int, caught: Int, named: Int, shown: Int
        /// Caught at least once and named on ≥ 90 % of the catches.
        public var reproduced: Bool
        /// The diagnosis classes named on its caught pairs, most frequent first (ties by name).
        public var diagnoses: [String]
    }

    /// Whether a tally reproduces: caught at least once, and named on at least `required` of
    /// the catches (``Mutant/requiredAccuracy``: 90 %, 80 % for a subtle mutant).
    public static func reproduces(caught: Int, named: Int, required: Double = Mutant.requiredAccuracy(subtle: false)) -> Bool {
        caught > 0 && Double(named) >= Double(caught) * required - 1e-9
    }

    /// The JSON, keys sorted, pretty printed; PSNR of identical images is the string `"inf"`.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}

/// One pair of a reproduction: the buggy output and the correct one, each judged against the oracle.
public struct ReproducedPair: Sendable, Hashable, Codable {
    /// The mutant's id.
    public var mutant: String
    /// `CASE/OPERATION`.
    public var pair: String
    /// The mutant's output judged (verdict, metrics, diagnosis).
    public var buggy: PairResult
    /// The built-in resizer's output on the same pair, judged by the same gate.
    public var correct: PairResult
    /// The gate failed or the resizer threw.
    public var caught: Bool
    /// Caught, and named as the mutant's class (the diagnosis, or for a thrown error its message).
    public var named: Bool
    /// The diagnosis class named, or for a thrown error `error`; absent when not caught.
    public var namedAs: String?
    /// The first of ``measures`` that shows a difference: the number that exposes the bug here.
    public var exposing: ExposedValue?
    /// The error text, the output size and the topic's metrics (``TopicEvidence/metrics``) on the buggy output.
    public var measures: [ExposedValue]
    /// The same on the correct output, for contrast.
    public var correctMeasures: [ExposedValue]
}
