import ImageCorpus
/// What `imglab reproduce` needs to know about a topic beyond its mutants (``Mutant``): which
/// numbers expose the bug, which scenes show it best, and how an error it makes the resizer
/// throw is recognised. Keyed by ``Mutant/topic``; a topic missing here gets ``fallback``.
public struct TopicEvidence: Sendable, Hashable {
    /// The ``Mutant/topic``.
    public var topic: String
    /// The metrics that expose the bug, most telling first. The error text and the output size
    /// are always checked before these (a thrown error or a wrong size is the whole story).
    public var metrics: [ExposingMetric]
    /// Corpus scenes (``CaseRecord/scene``) that show the bug best, best first; the sample
    /// prefers them, then ``colourfulScenes``.
    public var scenes: [String]
    /// Text that marks an error message as this bug (e.g. Quartz's own error text), besides
    /// the mutant's ``Mutant/bugClass``.
    public var errorSignatures: [String]
    /// Whether the bug is invisible on a gray source (an R↔B swap of gray is gray), so the
    /// sample takes colour sources only.
    public var requiresColour: Bool

    public init(topic: String, metrics: [ExposingMetric], scenes: [String] = [], errorSignatures: [String] = [], requiresColour: Bool = false) {
        self.topic = topic
        self.metrics = metrics
        self.scenes = scenes
        self.errorSignatures = errorSignatures
        self.requiresColour = requiresColour
    }

    /// Whether the pair's source carries colour: not stored as gray and not reduced to gray
    /// (``CaseRecord/reduction``).
    public static func hasColour(_ pair: LabPair) -> Bool {
        pair.record.pixelFormat.colorModel != "kCGColorSpaceModelMonochrome" && !pair.record.reduction.hasPrefix("gray")
    }

    /// Scenes in order of how much colour (and so how many kinds of error) they show.
    public static let colourfulScenes = ["colorPatches", "landscape", "softAlpha", "orientation", "stepEdges",
                                         "thinStrokes", "zonePlate", "stencil", "checkerAndGray", "constant"]

    /// The evidence for a topic: the catalogue's entry, or ``fallback``.
    public static func of(_ topic: String) -> TopicEvidence {
        catalogue.first { $0.topic == topic } ?? fallback(topic)
    }

    /// For a topic without an entry: the visible error, colour difference and structure.
    public static func fallback(_ topic: String) -> TopicEvidence {
        TopicEvidence(topic: topic, metrics: [.metric("visible.max"), .metric("deltaE00.p99"), .metric("ssim")])
    }

    /// One entry per reproduce topic (the reproduce names of ``MutantCatalogue``).
    public static let catalogue: [TopicEvidence] = [
        // Alpha or padding byte read as red: red rises everywhere → +a* (pink/magenta).
        TopicEvidence(topic: "pink-tint", metrics: [.colourCast, .metric("deltaE00.p99")], scenes: ["colorPatches", "landscape", "softAlpha"]),
        // R↔B: the cast follows the scene's colours; ΔE00 shows it on any colourful scene.
        TopicEvidence(topic: "channel-swap", metrics: [.colourCast, .metric("deltaE00.p99")], scenes: ["colorPatches", "landscape"],
                      requiresColour: true),
        // Straight resampled as premultiplied (or the reverse): colour wrong where 0 < α < 1.
        TopicEvidence(topic: "premultiply", metrics: [.metric("translucent.max"), .metric("visible.max")], scenes: ["softAlpha", "stencil"]),
        TopicEvidence(topic: "alpha-dropped", metrics: [.metric("alpha.max"), .metric("visible.max")], scenes: ["softAlpha", "stencil"]),
        // Transparent border drawn black: the border's alpha and its visible colour.
        TopicEvidence(topic: "black-border", metrics: [.metric("alpha.max"), .metric("visible.max")], scenes: ["colorPatches", "landscape"]),
        TopicEvidence(topic: "orientation", metrics: [.metric("ssim"), .metric("visible.mean")], scenes: ["orientation", "landscape"]),
        // Low byte of 16: noise of up to 255 code values (large exact.max, low PSNR).
        TopicEvidence(topic: "16-bit", metrics: [.metric("exact.max"), .metric("psnr")], scenes: ["landscape", "colorPatches", "softAlpha"]),
        TopicEvidence(topic: "palette-transparency", metrics: [.metric("alpha.max"), .metric("visible.max")], scenes: ["softAlpha", "stencil"]),
        // Averaging sRGB-encoded values darkens fine detail: negative ΔL* on the checker.
        TopicEvidence(topic: "gamma", metrics: [.metric("cast.L"), .metric("deltaE00.p99")], scenes: ["checkerAndGray", "zonePlate", "thinStrokes"]),
        TopicEvidence(topic: "jaggies", metrics: [.metric("ssim"), .metric("visible.max")], scenes: ["zonePlate", "thinStrokes", "checkerAndGray"]),
        TopicEvidence(topic: "half-pixel", metrics: [.metric("visible.mean"), .metric("ssim")], scenes: ["stepEdges", "thinStrokes", "orientation"]),
        TopicEvidence(topic: "retina", metrics: [.metric("visible.mean")], scenes: ["colorPatches", "orientation"]),
        TopicEvidence(topic: "crop-anchor", metrics: [.metric("visible.mean"), .metric("ssim")], scenes: ["orientation", "landscape"]),
        TopicEvidence(topic: "size-rounding", metrics: [.metric("visible.mean")], scenes: ["colorPatches", "landscape"]),
        // Truncation: under a code on opaque pixels; alpha and translucent colour show it.
        TopicEvidence(topic: "rounding", metrics: [.metric("alpha.max"), .metric("translucent.max"), .metric("visible.mean")],
                      scenes: ["softAlpha", "halo", "stencil"]),
        // Unclamped overshoot wraps: a full-scale jump at the pixels next to sharp edges.
        TopicEvidence(topic: "overshoot", metrics: [.metric("visible.max"), .metric("alpha.max")], scenes: ["stepEdges", "stencil", "thinStrokes"]),
        // Wrap-around edges: the border pixels take the opposite side's colour.
        TopicEvidence(topic: "edges", metrics: [.metric("visible.max"), .metric("deltaE00.p99")], scenes: ["colorPatches", "landscape", "orientation"]),
        // Float samples read as 0…255: everything near black.
        TopicEvidence(topic: "value-range", metrics: [.metric("visible.mean"), .metric("alpha.max")], scenes: ["landscape", "softAlpha"]),
        // Adobe CMYK read as plain: the negative image.
        TopicEvidence(topic: "cmyk", metrics: [.metric("deltaE00.p99"), .metric("visible.mean")], scenes: ["colorPatches"], requiresColour: true),
        // The context built from the source's own bitmap info: Quartz's error, no output.
        TopicEvidence(topic: "bitmap-context", metrics: [.metric("visible.max")], scenes: ["colorPatches", "landscape"],
                      errorSignatures: [BitmapContextFailure.quartzText]),
    ]
}
