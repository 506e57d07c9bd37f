import ImageCorpus

/// One way a resizer's declared policies (``ResizerPolicy``), or a contract every resizer may
/// keep, changed the judgement of a pair (``PairResult/policy``): which policy, and what it
/// changed. In results files it is its ``text``, `policy: NAME (ORIGIN): DETAIL`, the origin
/// `declared`, `inferred` (by the fingerprint) or `contract`.
public struct PolicyLabel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The declared policy that changed the judgement.
    public enum Kind: Sendable, Hashable, Comparable {
        /// The resizer does not orient: it was fed the upright pixels.
        case orientationNotApplied
        /// Only the first frame of an animation was compared.
        case firstFrameOnly
        /// It averages in sRGB: judged against an oracle averaged in sRGB (or, for an
        /// enlargement, the committed one).
        case srgbLightSpace
        /// It rounds output sizes by this rule, which gave a size other than the built-in rule's.
        case rounding(SizeRounding)
        /// A JPEG or WebP thumbnail that failed against the full decode's oracle and passed
        /// against the oracle of the file decoded at the reduced scale the ImageIO contract allows
        /// (``ScaledThumbnailOracle``): a contract, not a declaration.
        case thumbnailScaledDecode

        /// Every kind, for reading labels back from results.
        public static let all: [Kind] = [.orientationNotApplied, .firstFrameOnly, .srgbLightSpace, .thumbnailScaledDecode] + SizeRounding.allCases.map(Kind.rounding)

        /// Where the policy comes from: `declared` by the resizer, or the thumbnail `contract`.
        public var origin: String { self == .thumbnailScaledDecode ? "contract" : "declared" }

        /// The words of the label: `orientation not applied`, `rounding floor`, …
        public var name: String {
            switch self {
            case .orientationNotApplied: return "orientation not applied"
            case .firstFrameOnly: return "first frame only"
            case .srgbLightSpace: return "srgb light space"
            case .rounding(let rule): return "rounding \(rule.rawValue)"
            case .thumbnailScaledDecode: return "thumbnail scaled decode"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.name < b.name }
    }

    public var kind: Kind
    /// What the policy changed, in words.
    public var detail: String
    /// Whether the policy was inferred by the resizer's fingerprint (``ContractStage``) rather
    /// than declared; the origin then reads `inferred`.
    public var inferred = false

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// `policy: NAME (ORIGIN): DETAIL`.
    public var text: String { "policy: \(kind.name) (\(inferred ? "inferred" : kind.origin)): \(detail)" }
    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        var text = try decoder.singleValueContainer().decode(String.self)
        // Results written before WebP thumbnails were scaled named this contract after the DCT.
        if text.hasPrefix("policy: thumbnail dct scale (") {
            text = "policy: thumbnail scaled decode (" + text.dropFirst("policy: thumbnail dct scale (".count)
        }
        for kind in Kind.all {
            for origin in [kind.origin, "inferred"] where text.hasPrefix("policy: \(kind.name) (\(origin)): ") {
                self.init(kind, String(text.dropFirst("policy: \(kind.name) (\(origin)): ".count)))
                inferred = origin == "inferred"
                return
            }
        }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a policy label: \(text)"))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension RunResults {
    /// How many labels of each kind the judged pairs carry, by kind name.
    public var policyCounts: [(kind: PolicyLabel.Kind, count: Int)] {
        var counts: [PolicyLabel.Kind: Int] = [:]
        for label in pairs.flatMap({ $0.policy ?? [] }) { counts[label.kind, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
