import ImageCore
import Foundation
import ImageMetrics

/// What happened to one key of a folder diff.
public enum FolderDiffStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Present on both sides and different: outside the gate (without a gate: any difference), or
    /// of different displayed sizes.
    case changed
    /// Only in the actual folder.
    case new
    /// Only in the expected folder.
    case deleted
    /// A file that cannot be read or decoded, a canary that failed, or a gate metric with no value.
    case error
    /// Present on both sides, different by value, within the gate.
    case withinGate = "within-gate"
    /// Present on both sides, identical by value (or byte for byte).
    case unchanged

    /// Whether `imglab accept` would change the baseline: a file that differs or exists on one side only.
    public var isAcceptable: Bool { self != .unchanged && self != .error }

    /// Worst first: the order of the report's filters and of the terminal list.
    public var severity: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The status in the one vocabulary (``ImageMetrics/Verdict``): unchanged and within the
    /// gate pass; changed, new and deleted fail; error is an error.
    public var kind: Verdict {
        switch self {
        case .unchanged, .withinGate: return .pass
        case .changed, .new, .deleted: return .fail
        case .error: return .error
        }
    }
}

/// One key of a folder diff: its files, status, and, for a judged pair, the diagnosis and metrics.
public struct FolderDiffItem: Sendable, Hashable, Codable {
    /// The key (relative path, or relative path without extension under `--match stem`).
    public var key: String
    /// The expected file's path relative to the expected folder, when there is one.
    public var expected: String?
    /// The actual file's path relative to the actual folder, when there is one.
    public var actual: String?
    public var status: FolderDiffStatus
    /// Why the pair does not pass (the failed gate clauses, the sizes, the error), or what it is.
    public var message: String?
    /// The diagnosis's bug class, when the pair was diagnosed and a bug explains it.
    public var diagnosisClass: String?
    /// The diagnosis's confidence (0…1), when the pair was diagnosed.
    public var diagnosisConfidence: Double?
    /// The diagnosis in one sentence, when the pair was diagnosed.
    public var diagnosis: String?
    /// The gate clauses that failed, e.g. `exact.max (200) <= 1`.
    public var failedClauses: [String]
    /// Every metric with a value (``MetricCatalog``), for a pair compared by value.
    public var metrics: [String: Double]?
    /// Pixels left out of the comparison by masks and regions, for a pair compared by value.
    public var ignoredPixels: Int?
    /// The masks and regions applied to this pair (the command line's and the masks file's), when any.
    public var ignored: String?
    /// The pair's report page, relative to the report folder, when one was written.
    public var page: String?

    public init(key: String, expected: String?, actual: String?, status: FolderDiffStatus, message: String? = nil) {
        self.key = key
        self.expected = expected
        self.actual = actual
        self.status = status
        self.message = message
        self.failedClauses = []
    }
}

/// The counts of a folder diff.
public struct FolderDiffSummary: Sendable, Hashable, Codable {
    public var keys: Int
    public var changed: Int
    public var new: Int
    public var deleted: Int
    public var error: Int
    public var withinGate: Int
    public var unchanged: Int

    /// Counts the items' statuses.
    public init(_ items: [FolderDiffItem]) {
        keys = items.count
        changed = items.count { $0.status == .changed }
        new = items.count { $0.status == .new }
        deleted = items.count { $0.status == .deleted }
        error = items.count { $0.status == .error }
        withinGate = items.count { $0.status == .withinGate }
        unchanged = items.count { $0.status == .unchanged }
    }

    /// One line: `200 files: 18 changed, 5 new, 5 deleted, 0 error, 0 within the gate, 172 unchanged`.
    public var line: String {
        "\(keys) files: \(changed) changed, \(new) new, \(deleted) deleted, \(error) error, \(withinGate) within the gate, \(unchanged) unchanged"
    }
}

/// A folder diff's settings and items: the `--json` object (schema `imglab-folder-diff/1`), the
/// JUnit file and the report's index are made from it.
public struct FolderDiffResults: Sendable, Hashable, Codable {
    public static let schemaVersion = "imglab-folder-diff/1"
    public var schema = FolderDiffResults.schemaVersion
    /// Which imglab wrote the file: version and commit (``ImglabBuild/identity``); absent in files written before it was recorded.
    public var imglab: String? = ImglabBuild.identity
    /// The folders as given.
    public var expected: String
    public var actual: String
    public var match: FolderPairing.Match
    /// The gate's text, when one was given.
    public var gate: String?
    /// The masks and regions, described, when any.
    public var ignored: String?
    /// The canaries' failures, when the gate's canaries ran (empty: every canary passed).
    public var canaryFailures: [String]?
    public var summary: FolderDiffSummary
    /// 0, 1 or 2 (``ExitRule``; ``FolderDiff/Outcome/exitStatus``).
    public var exitStatus: Int32
    /// Every key, sorted.
    public var items: [FolderDiffItem]
    /// The comparison's and diagnosis's definition versions.
    public var comparisonVersion = Comparison.version
    public var diagnosisVersion = Diagnosis.version

    public init(expected: String, actual: String, match: FolderPairing.Match, gate: String?, ignored: String? = nil,
                canaryFailures: [String]? = nil, items: [FolderDiffItem]) {
        self.expected = expected
        self.actual = actual
        self.match = match
        self.gate = gate
        self.ignored = ignored
        self.canaryFailures = canaryFailures
        self.items = items
        summary = FolderDiffSummary(items)
        exitStatus = canaryFailures?.isEmpty == false ? ExitRule.couldNotJudge : ExitRule.status(items.map(\.status.kind))
    }

    /// The results in `bytes` (a `--json` file), or `nil` when they are not a folder diff's.
    public static func decode(_ bytes: [UInt8]) -> FolderDiffResults? {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let results = try? decoder.decode(FolderDiffResults.self, from: Data(bytes)), results.schema == schemaVersion else { return nil }
        return results
    }

    /// The JSON text: keys sorted, pretty-printed, infinities and NaN as `inf`, `-inf`, `nan`
    /// (`{}` only if Foundation cannot encode it).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
