import Foundation
import ImageMetrics

/// The results file of `imglab run --json FILE` (schema `imglab-run/1`), one JSON object:
///
/// - `schema`: `"imglab-run/1"`; `resizer`: adapter name; `profile`: corpus profile;
///   `corpus`: corpus folder; `filter`: patterns; `shard`: `[I, N]`;
/// - `gatesFile`: the gates file's path, `gates`: its families (name and expression);
/// - `metricDefinitions`: for every metric the results contain, `{unit, version}` from
///   ``MetricCatalog`` (a stored number is never compared across definition versions), plus
///   `comparison` (``Comparison/version``) and `diagnosis` (``Diagnosis/version``);
/// - `canaries`: each canary pair with its verdict (each must be `fail`);
/// - `pairs`: ``PairResult`` per selected pair, in manifest order;
/// - `summary`: counts by verdict (`skipped` when some were); `warnings`: lax bounds (``LaxBound``) and notes;
/// - `policy` and `skipped`: an external resizer's declared policies (``ResizerPolicy``) and the
///   pairs they leave out, each with its reason; absent for the built-in policies.
///
/// Non-finite numbers (PSNR of identical images) are written as the strings `"inf"`/`"-inf"`.
public struct RunResults: Sendable, Hashable, Codable {
    public static let schema = "imglab-run/1"

    /// A metric's unit and definition version.
    public struct MetricVersion: Sendable, Hashable, Codable {
        public var unit: String
        public var version: String
    }

    /// One gate family as the run used it.
    public struct GateSummary: Sendable, Hashable, Codable {
        public var family: String
        public var gate: String
    }

    /// Counts by verdict.
    public struct Summary: Sendable, Hashable, Codable {
        public var pairs: Int
        public var pass: Int
        public var fail: Int
        public var error: Int
        /// Pairs not run because the resizer does not declare them (``skipped``); absent when none.
        public var skipped: Int? = nil
    }

    /// A pair the resizer was not asked to do: its declared policies leave the operation kind
    /// or the source container out (``ResizerPolicy/skipReason(kind:container:)``). Neither a
    /// pass nor a failure.
    public struct SkippedPair: Sendable, Hashable, Codable {
        /// `CASE/OPERATION`.
        public var pair: String
        /// Why, starting with `policy:`.
        public var reason: String
    }

    public var schema = RunResults.schema
    public var resizer: String
    public var profile: String
    public var corpus: String
    public var filter: [String]
    public var shard: [Int]
    public var gatesFile: String
    public var gates: [GateSummary]
    public var metricDefinitions: [String: MetricVersion]
    public var comparisonVersion = Comparison.version
    public var diagnosisVersion = Diagnosis.version
    public var canaries: [PairResult]
    public var pairs: [PairResult]
    public var summary: Summary
    public var warnings: [String]
    /// The resizer's declared policies, when they are not the built-in's (absent otherwise).
    public var policy: ResizerPolicy? = nil
    /// The pairs skipped by the declared policies, in manifest order; absent when none.
    public var skipped: [SkippedPair]? = nil

    /// The exit status this result means: 0 every pair passed, 1 a pair failed or erred.
    public var exitStatus: Int32 { summary.fail + summary.error == 0 ? 0 : 1 }

    /// Counts the verdicts of `pairs`.
    public static func summarize(_ pairs: [PairResult]) -> Summary {
        Summary(pairs: pairs.count, pass: pairs.count { $0.verdict == .pass },
                fail: pairs.count { $0.verdict == .fail }, error: pairs.count { $0.verdict == .error })
    }

    /// The unit and version of every metric the pairs contain.
    static func definitions(for pairs: [PairResult]) -> [String: MetricVersion] {
        var out: [String: MetricVersion] = [:]
        for p in pairs {
            for name in p.metrics.keys where out[name] == nil {
                if let d = MetricCatalog.definition(named: name) { out[name] = MetricVersion(unit: d.unit, version: d.version) }
            }
        }
        return out
    }

    /// Pretty, key-sorted JSON (deterministic bytes for the same results).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }

    /// Reads a results file written by ``jsonData()``.
    public static func decode(_ data: Data) throws -> RunResults {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(RunResults.self, from: data)
    }
}
