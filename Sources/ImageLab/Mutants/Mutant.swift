import ImageCorpus
import ImageCore

/// One deliberately buggy resizer of the catalogue: a documented real-world failure,
/// reproduced as a few lines on top of another adapter (normally ``BuiltinResizer``).
///
/// `imglab selftest` runs every mutant over the corpus and checks that the lab catches it and
/// that the diagnosis names ``bugClass``; `imglab reproduce` runs one on the cases that
/// trigger it; gates files use mutants as canaries (``GateBook/Canary``).
public struct Mutant: Sendable {
    /// Stable identifier, used in `--resizer mutant:ID`, canaries and the kill matrix, e.g. `swap-rb`.
    public var id: String
    /// The `imglab reproduce` topic it belongs to (`pink-tint`, `channel-swap`, `orientation`, …);
    /// several mutants may share one.
    public var topic: String
    /// What the bug does, in one line.
    public var title: String
    /// The real-world report it reproduces: who hit it, where, and what they saw.
    public var history: String
    /// Failure ids of `DESIGN.md` (D1–D13) and `research/resizer-anchors.md` (B1–B29).
    public var references: [String]
    /// The diagnosis class (``PairResult/Finding/bugClass``) that must name a failure it
    /// causes, or the class its error message is filed under when it makes the resizer throw.
    public var bugClass: String
    /// Whether the bug can show on this pair (the source format, orientation and operation it
    /// needs); `imglab reproduce` runs these pairs. Pairs outside it may still differ.
    public var triggers: @Sendable (LabPair) -> Bool
    /// The buggy adapter built on `base`.
    public var make: @Sendable (_ base: any Resizer) -> any Resizer
    /// Whether the bug is subtle: a departure of a code value or so on the pairs it touches
    /// (rounding, a transfer curve, one axis, the edge taps), against the gross bugs that change
    /// whole images. The selftest asks a subtle mutant to be named on ≥ 80 % of its catches
    /// (``requiredAccuracy``), a gross one on ≥ 90 %.
    public var subtle: Bool

    public init(id: String, topic: String, title: String, history: String, references: [String], bugClass: String,
                subtle: Bool = false,
                triggers: @escaping @Sendable (LabPair) -> Bool = { _ in true },
                make: @escaping @Sendable (_ base: any Resizer) -> any Resizer) {
        self.id = id
        self.topic = topic
        self.title = title
        self.history = history
        self.references = references
        self.bugClass = bugClass
        self.subtle = subtle
        self.triggers = triggers
        self.make = make
    }

    /// The least fraction of its caught pairs whose diagnosis must name ``bugClass``: 0.8 for a
    /// ``subtle`` mutant, 0.9 otherwise.
    public var requiredAccuracy: Double { Self.requiredAccuracy(subtle: subtle) }

    /// The least accuracy of a subtle (0.8) or gross (0.9) mutant.
    public static func requiredAccuracy(subtle: Bool) -> Double { subtle ? 0.8 : 0.9 }
}

/// A mutant's adapter: the base resizer's behaviour changed by one closure. The closure gets the
/// base, the operation and the decoded source, so it can break the input, the call or the output.
public struct MutantResizer: Resizer {
    public var name: String
    /// The adapter the bug is built on.
    public var base: any Resizer
    /// The buggy `apply`.
    public var body: @Sendable (_ base: any Resizer, _ operation: LabOperation, _ source: Image) throws(ResizerError) -> Image

    public init(name: String, base: any Resizer,
                body: @escaping @Sendable (_ base: any Resizer, _ operation: LabOperation, _ source: Image) throws(ResizerError) -> Image) {
        self.name = name
        self.base = base
        self.body = body
    }

    public func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
        try body(base, operation, source)
    }
}

/// Every mutant imglab carries, in kill-matrix order.
public enum MutantCatalogue {
    /// The catalogue.
    public static let all: [Mutant] = [
        .pinkTint,
        Mutant(id: "swap-rb", topic: "channel-swap", title: "red and blue swapped (BGRA bytes read as RGBA)",
               history: "The classic byte-order bug: a BGRA (little-endian premultiplied-first) buffer handed to code that reads RGBA. Red skies turn blue and skin turns blue-grey; the other half of the pink-tint reports (B2: SageThumbs-2k#9, openFrameworks#134).",
               references: ["D6", "B2"], bugClass: "channel-order",
               triggers: { $0.sourceHasColour },
               make: { ChannelSwapMutant($0) }),
        .straightAsPremultiplied,
        .premultipliedAsStraight,
        .alphaDroppedHidden,
        .alphaOverBlack,
        .blackBorder,
        .orientationIgnored,
        .mirrorMixup,
        .transposeWithoutSwap,
        .orientationTwice,
        .heifTransformIgnored,
        .heifTransformTwice,
        .heifPremultipliedAsStraight,
        .sixteenBitLowByte,
        .wrongShift,
        .paletteTransparencyIgnored,
        .srgbAveraging,
        .nearestNeighbour,
        .halfPixelOffset,
        .retinaScaleIgnored,
        .cropOffCentre,
        .sizeOvershoot,
        .contextFromSource,
        .profileDropped,
        .chunkColoursIgnored,
        .profileAppliedTwice,
        .profileKeptAfterConversion,
        .embeddedThumbnailReturned,
        .embeddedThumbnailUnoriented,
        // The subtle mutants: each a code value or so on the pairs it touches.
        .straightResampling,
        .fixedSupport,
        .powerGamma,
        .truncation,
        .eightBitIntermediate,
        .premultipliedEightBit,
        .overshootWrap,
        .halfPixelOneAxis,
        .wrapEdges,
        .transposeTransverseSwapped,
        .floatAs255,
        .adobeCMYKPlain,
    ]

    /// The mutant with this id, if any.
    public static func mutant(_ id: String) -> Mutant? { all.first { $0.id == id } }

    /// The `imglab reproduce` topics, in catalogue order, each with its mutants.
    public static var topics: [(topic: String, mutants: [Mutant])] {
        var order: [String] = []
        var byTopic: [String: [Mutant]] = [:]
        for m in all {
            if byTopic[m.topic] == nil { order.append(m.topic) }
            byTopic[m.topic, default: []].append(m)
        }
        return order.map { ($0, byTopic[$0] ?? []) }
    }
}
