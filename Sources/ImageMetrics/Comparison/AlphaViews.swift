/// The three separate views of alpha (DESIGN.md, "Alpha has three views"), in 8-bit code units.
public struct AlphaViews: Sendable, Hashable, Codable {
    /// 1. Visible error: both images composited over black and over white, the worse counts.
    public struct Visible: Sendable, Hashable, Codable {
        /// Largest per-pixel |Δ| of R, G, B after compositing.
        public var max: Double
        /// Mean per-pixel largest |Δ|.
        public var mean: Double
        /// Pixels with a visible difference.
        public var pixels: Int
        /// The background that gave the worse error (`black`, `white`; `none` for opaque images).
        public var background: String
    }
    /// 2. Alpha-channel error.
    public struct Alpha: Sendable, Hashable, Codable {
        public var max: Double
        public var mean: Double
    }
    /// 3. Colour in translucent pixels (straight colour, expected 0 < α < 1), and the colour
    /// hidden under α = 0 in both images, which is reported but is not a visible error.
    public struct Colour: Sendable, Hashable, Codable {
        /// Translucent pixels in the expected image.
        public var translucentPixels: Int
        public var translucentMax: Double
        public var translucentMean: Double
        /// Pixels transparent in both images whose colour changed ("hidden colour changed").
        public var hiddenChanged: Int
        public var hiddenMax: Double
    }
    public var visible: Visible
    public var alpha: Alpha
    public var colour: Colour
}

