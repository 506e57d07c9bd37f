import ImageMetrics

/// The outcome of one (case, operation) pair: the verdict and its evidence. One element of
/// ``RunResults/pairs``.
public struct PairResult: Sendable, Hashable, Codable {
    /// `pass`: every frame within the family's gate. `fail`: a frame outside it (or the wrong
    /// size or frame count), with the diagnosis. `error`: no judgement possible (the resizer threw,
    /// a file could not be read, no family takes the pair, a gate metric has no value).
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        case pass, fail, error
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
    /// the oracle (…)`, or `no golden`. Informational: the verdict is the oracle gate's.
    public var golden: String?
    /// How the resizer's declared policies (``ResizerPolicy``) changed this pair's judgement,
    /// one label each (`policy: srgb light space: …`); absent when they did not.
    public var policy: [String]?

    /// The metrics every result carries besides the gate's own.
    public static let headlineMetrics = ["exact.max", "visible.max", "visible.mean", "alpha.max", "deltaE00.p99",
                                         "deltaE00.max", "psnr", "ssim", "ssimulacra2"]
}
