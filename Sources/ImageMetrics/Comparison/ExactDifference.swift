/// The exact difference: per-channel maxima and a histogram of per-pixel |Δ|.
public struct ExactDifference: Sendable, Hashable, Codable {
    /// Largest |Δ| of R, G, B, A (colour only where visible in either image), 8-bit units.
    public var maxPerChannel: [Double]
    /// Pixels with any difference.
    public var differingPixels: Int
    /// Pixels whose |Δ| exceeds ``tolerance``.
    public var overTolerance: Int
    /// The tolerance, 8-bit units.
    public var tolerance: Double
    /// Bucket upper edges (8-bit units); bucket 0 counts |Δ| = 0, bucket i counts edge[i−1] < |Δ| ≤ edge[i].
    public var bucketEdges: [Double]
    /// Pixels per bucket.
    public var histogram: [Int]
}

