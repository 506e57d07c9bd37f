import ImageCore
import ImageCorpus
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
/// - `summary`: counts by verdict (`pass`, `fail`, `error`, `changedCloser`, `changedFurther`, and
///   `skipped` when some were); `warnings`: lax bounds (``LaxBound``) and notes;
/// - `policy` and `skipped`: an external resizer's declared policies (``ResizerPolicy``) and the
///   pairs they leave out, each with its reason; absent for the built-in policies.
///
/// Non-finite numbers (PSNR of identical images) are written as the strings `"inf"`/`"-inf"`.
/// Pair and operation ids use the operation names of ``LabOperation``; ``decode(_:)`` reads a
/// file written with the names of manifest version 1 (`…/fit-24x24`, `thumbnail`) as the
/// current ones (``ManifestV1Names``).
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

    /// Counts by verdict. `changedCloser` and `changedFurther` (the golden verdicts) read as 0
    /// from results written before they existed.
    public struct Summary: Sendable, Hashable, Codable {
        public var pairs: Int
        public var pass: Int
        public var fail: Int
        public var error: Int
        public var changedCloser: Int
        public var changedFurther: Int
        /// Pairs not run because the resizer does not declare them (``skipped``); absent when none.
        public var skipped: Int? = nil

        public init(pairs: Int, pass: Int, fail: Int, error: Int, changedCloser: Int = 0, changedFurther: Int = 0) {
            self.pairs = pairs
            self.pass = pass
            self.fail = fail
            self.error = error
            self.changedCloser = changedCloser
            self.changedFurther = changedFurther
        }

        /// Pairs whose verdict fails the run (``PairResult/Verdict/kind``): fail, changed-further, error.
        public var failing: Int { fail + changedFurther + error }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            pairs = try c.decode(Int.self, forKey: .pairs)
            pass = try c.decode(Int.self, forKey: .pass)
            fail = try c.decode(Int.self, forKey: .fail)
            error = try c.decode(Int.self, forKey: .error)
            changedCloser = try c.decodeIfPresent(Int.self, forKey: .changedCloser) ?? 0
            changedFurther = try c.decodeIfPresent(Int.self, forKey: .changedFurther) ?? 0
            skipped = try c.decodeIfPresent(Int.self, forKey: .skipped)
        }

        /// The count of one verdict.
        public func count(_ verdict: PairResult.Verdict) -> Int {
            switch verdict {
            case .pass: return pass
            case .fail: return fail
            case .error: return error
            case .changedCloser: return changedCloser
            case .changedFurther: return changedFurther
            }
        }

        /// "341 pairs: 339 pass, 1 fail, …" (verdicts with a zero count after the first three are left out).
        public var line: String {
            var parts: [String] = []
            for v in PairResult.Verdict.allCases {
                let n = count(v)
                if n > 0 || [.pass, .fail, .error].contains(v) { parts.append("\(n) \(v.rawValue)") }
            }
            if let skipped { parts.append("\(skipped) skipped") }
            return "\(pairs) pairs: " + parts.joined(separator: ", ")
        }
    }

    /// A pair the resizer was not asked to do: its declared policies leave the operation kind
    /// or the source container out (``ResizerPolicy/skipReason(kind:container:)``). Neither a
    /// pass nor a failure.
    public struct SkippedPair: Sendable, Hashable, Codable {
        /// `CASE/OPERATION`.
        public var pair: String
        /// Why, starting with `policy:` (left out by a declared policy) or `decode:` (an input file of `--inputs` that cannot be decoded).
        public var reason: String
    }

    public var schema = RunResults.schema
    /// Which imglab wrote the file: version and commit (``ImglabBuild/identity``); absent in files written before it was recorded.
    public var imglab: String? = ImglabBuild.identity
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
    /// The fingerprint the run inferred its contract from (``ContractStage``), every finding with
    /// its evidence and confidence; absent when the resizer declares its policy or is not a command.
    public var contract: ContractFingerprint? = nil

    /// The exit status this result means (``ExitRule``): 0 every pair passed (or changed closer
    /// to the oracle), 1 a pair failed, erred or changed further from the oracle.
    public var exitStatus: Int32 { ExitRule.status(pairs.map(\.verdict.kind)) }

    /// Counts the verdicts of `pairs`.
    public static func summarize(_ pairs: [PairResult]) -> Summary {
        Summary(pairs: pairs.count, pass: pairs.count { $0.verdict == .pass },
                fail: pairs.count { $0.verdict == .fail }, error: pairs.count { $0.verdict == .error },
                changedCloser: pairs.count { $0.verdict == .changedCloser },
                changedFurther: pairs.count { $0.verdict == .changedFurther })
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
        try Self.encoder().encode(self)
    }

    /// The encoder of ``jsonData()``: pretty-printed, keys sorted, non-finite numbers as
    /// `"inf"`, `"-inf"`, `"nan"` (a streamed run encodes each pair with it).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// Reads a results file written by ``jsonData()``, in the current operation names or those of
    /// manifest version 1 (``withCurrentOperationNames()``).
    public static func decode(_ data: Data) throws -> RunResults {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(RunResults.self, from: data).withCurrentOperationNames()
    }

    /// The same results with every pair id and operation id of manifest version 1 in its current
    /// spelling (``ManifestV1Names``: `…/fit-24x24` → `…/resize-aspectFit-24x24`); current ids
    /// are kept. (A declared ``policy`` maps its operation names when it is read.)
    public func withCurrentOperationNames() -> RunResults {
        func current(_ result: PairResult) -> PairResult {
            var r = result
            r.pair = ManifestV1Names.pairID(r.pair)
            r.operation = ManifestV1Names.operationID(r.operation)
            return r
        }
        var results = self
        results.pairs = pairs.map(current)
        results.canaries = canaries.map(current)
        results.skipped = skipped?.map { SkippedPair(pair: ManifestV1Names.pairID($0.pair), reason: $0.reason) }
        return results
    }
}
