import ImageCorpus
import ImageMetrics

/// The outcome of one (case, operation) pair: the verdict and its evidence. One element of
/// ``RunResults/pairs``.
public struct PairResult: Sendable, Hashable, Codable {
    /// `pass`: every frame within the family's gate (and, when the pair has goldens, the output
    /// equals one of them). `fail`: a frame outside the gate (or the wrong size or frame count),
    /// with the diagnosis; a gate failure is always `fail`, whatever the goldens say.
    /// `changed-closer`: within the gate, not equal to any golden, and not further from the
    /// oracle than every golden (bless it to accept it). `changed-further`: within the gate but
    /// further from the oracle (`visible.mean`) than every accepted golden: a regression.
    /// `error`: no judgement possible (the resizer threw, a file could not be read, no family
    /// takes the pair, a gate metric has no value, the goldens cannot be compared).
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        case pass, fail, error
        case changedCloser = "changed-closer"
        case changedFurther = "changed-further"

        /// The verdict in the one vocabulary (``ImageMetrics/Verdict``): `changed-closer` passes
        /// (bless it to accept it), `changed-further` fails (a regression).
        public var kind: ImageMetrics.Verdict {
            switch self {
            case .pass, .changedCloser: return .pass
            case .fail, .changedFurther: return .fail
            case .error: return .error
            }
        }

        /// Order in reports, worst first: fail, changed-further, error, changed-closer, pass.
        public var severity: Int {
            switch self {
            case .fail: return 0
            case .changedFurther: return 1
            case .error: return 2
            case .changedCloser: return 3
            case .pass: return 4
            }
        }
    }

    /// The diagnosis of a failure, as ``Diagnosis`` names it.
    public struct Finding: Sendable, Hashable, Codable {
        /// Bug class id, e.g. `channel-order`; absent when nothing explains the difference.
        public var bugClass: String?
        /// Human name of the candidate, e.g. `R and B swapped`.
        public var name: String?
        /// Confidence 0…1.
        public var confidence: Double
        /// One sentence with the evidence.
        public var summary: String

        public init(bugClass: String?, name: String?, confidence: Double, summary: String) {
            self.bugClass = bugClass
            self.name = name
            self.confidence = confidence
            self.summary = summary
        }

        /// What a diagnosis names.
        public init(_ diagnosis: Diagnosis) {
            self.init(bugClass: diagnosis.bugClass, name: diagnosis.name, confidence: diagnosis.confidence, summary: diagnosis.summary)
        }
    }

    /// `CASE/OPERATION`.
    public var pair: String
    public var caseID: String
    public var operation: String
    /// Encoding id and container of the source.
    public var encoding: String
    public var container: String
    /// EXIF orientation of the source, 1…8.
    public var orientation: Int
    /// The gate family, when one took the pair.
    public var family: String?
    public var verdict: Verdict
    /// The gate's outcome on the judged frame (the first failing frame, else the last).
    public var gate: GateResult?
    /// Frames compared.
    public var frames: Int
    /// Expected and actual output size, pixels (`[width, height]`).
    public var expectedSize: [Int]
    public var actualSize: [Int]?
    /// Headline metrics and every metric the gate uses, worst over the frames (largest
    /// distance, smallest similarity), by ``MetricCatalog`` name; metrics without a value are absent.
    public var metrics: [String: Double]
    /// Present on `fail`.
    public var diagnosis: Finding?
    /// Why a pair failed or erred, in words.
    public var message: String?
    /// The regression check against the blessed goldens of the pair, when the run had a golden
    /// store: `matches golden HASH`, `changed, closer to the oracle (…)`, `changed, further from
    /// the oracle (…)`, or `no golden`. It decides `changed-closer` / `changed-further` when
    /// the gate passed.
    public var golden: String?
    /// The golden the output was measured against: the one it equals, else the accepted golden
    /// nearest to the oracle (16 hex digits, ``GoldenStore/pixelHash(_:)``).
    public var goldenHash: String?
    /// How the resizer's declared policies (``ResizerPolicy``) changed this pair's judgement,
    /// one label each (in JSON its text, `policy: srgb light space (declared): …`); absent when they did not.
    public var policy: [PolicyLabel]?
    /// The scale profile's measured costs (resizer, floor, cost gate); absent in other profiles.
    public var cost: ScaleCost? = nil
    /// Wall-clock time the pair took (resizer, comparison, judgement): the JUnit file's `time`.
    /// Not in the results' JSON, nor in equality: results hold only what the same inputs always give.
    public var elapsed = WallTime(seconds: 0)

    private enum CodingKeys: String, CodingKey {
        case pair, caseID, operation, encoding, container, orientation, family, verdict, gate, frames, expectedSize, actualSize,
             metrics, diagnosis, message, golden, goldenHash, policy, cost
    }

    /// The metrics every result carries besides the gate's own.
    public static let headlineMetrics = ["exact.max", "visible.max", "visible.mean", "alpha.max", "deltaE00.p99",
                                         "deltaE00.max", "psnr", "ssim", "ssimulacra2"]
}

extension PairResult {
    /// A pair's result before any stage ran: its identity and expected size, verdict `error`
    /// with no message (a stage that finds nothing leaves it to become `pass`).
    init(opening pair: LabPair, frames: Int? = nil) {
        let record = pair.record, entry = pair.entry
        self.init(pair: pair.id, caseID: record.id, operation: entry.id, encoding: record.encoding, container: record.container,
                  orientation: record.orientation, family: nil, verdict: .error, gate: nil, frames: frames ?? entry.oracle.count,
                  expectedSize: [entry.outputWidth, entry.outputHeight], actualSize: nil, metrics: [:], diagnosis: nil, message: nil)
    }
}

/// A measured wall-clock duration carried beside a result without being part of it: any two are
/// equal, so results compare by what they say, not by how long they took.
public struct WallTime: Sendable, Hashable {
    /// Seconds.
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
    public static func == (a: WallTime, b: WallTime) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}
