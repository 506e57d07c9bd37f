/// Mean signed difference per channel where the expected pixel falls in one alpha band.
public struct BandBias: Sendable, Hashable, Codable {
    /// `opaque` (α = 1), `translucent` (0 < α < 1) or `transparent` (α = 0).
    public var band: String
    /// Pixels in the band.
    public var pixels: Int
    /// Mean (actual − expected) of R, G, B, A in 8-bit code units (straight colour).
    public var mean: [Double]
}

