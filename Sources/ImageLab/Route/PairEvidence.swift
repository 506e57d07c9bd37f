import ImageMetrics

/// What the report page of a pair shows: the judged frame's judgement and its two sides,
/// plus the source and the golden the output was measured against.
public struct PairEvidence: Sendable {
    /// The judged frame's judgement (the first failing frame's, diagnosed; else frame 0's).
    public var judgement: Judgement
    /// The judged frame's comparison.
    public var comparison: Comparison {
        get { judgement.comparison }
        set { judgement.comparison = newValue }
    }
    /// The oracle frame.
    public var expected: ComparedImage
    /// The resizer's output frame.
    public var actual: ComparedImage
    /// The oracle frame's PNG file (embedded in the report as is).
    public var expectedFile: [UInt8]?
    /// The decoded source file (as stored; the report shows it as displayed), with its file bytes.
    public var source: ComparedImage?
    public var sourceFile: [UInt8]?
    /// The golden named by ``PairResult/goldenHash``, when the run had a golden store.
    public var golden: ComparedImage?
}
