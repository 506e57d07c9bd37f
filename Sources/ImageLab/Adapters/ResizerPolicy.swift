import ImageCorpus
/// What a resizer declares about itself, so the lab judges it against what it promises rather
/// than against the built-in resizer's choices. The gates honour every declaration, and every
/// pair whose judgement a declaration changed carries a visible label (``PairResult/policy``,
/// the terminal line, the JSON, the report page's oracle name): a policy difference is never a
/// silent pass.
///
/// - ``lightSpace``: `linear` (average in linear light, the oracle's and the built-in's
///   choice) or `srgb` (average the stored, gamma-encoded values, as libvips without `--linear`,
///   ImageMagick's `-resize` and Pillow do). An `srgb` resizer is judged against an oracle
///   averaged in sRGB (``DeclaredOracle``).
/// - ``rounding``: how it rounds the free side of an aspect-preserving size (aspectFit,
///   aspectFillWithoutCrop, maxPixelSize): the built-in rule, or `floor`, `round`, `ceil` (``SizeRounding``).
///   The declared rule gives the expected size, and the oracle is rendered at that size.
/// - ``appliesOrientation``: `false` for a resizer that ignores the EXIF orientation; it is fed
///   the upright pixels (decoded by imglab, orientation baked in, as a lossless PNG) instead of
///   the original file of every case whose orientation is not 1, so it is judged on resizing,
///   not on orientation, and the label says so.
/// - ``operations``: the operations it implements, by name (``LabOperation/names``: `orient`,
///   `resize`, `crop`, `squareThumbnail`, `roundedCorners`, `transparentBorder`,
///   `maxPixelSize`), or single resize modes (`resize:scaleToFill`, `resize:aspectFit`,
///   `resize:aspectFill`, `resize:aspectFillWithoutCrop`); others are `skipped`. The spellings
///   of manifest version 1 (`thumbnail`, `resize:stretch`, `resize:fit`, `resize:fill`,
///   `resize:fill-no-crop`) are read as these names (``ManifestV1Names/operationName(_:)``).
/// - ``containers``: the source containers it reads (`png`, `jpeg`, `gif`, `tiff`, `bmp`);
///   cases in others are `skipped`.
/// - ``firstFrameOnly``: it writes one frame of an animation (a PNG output); only frame 0 is
///   compared and the label says so.
/// - ``kernel`` and ``edge``: the resampling kernel it implements (default Lanczos 3) and what it
///   does with taps outside the image (default renormalise). A resizer that declares a kernel is
///   judged against the ``KernelOracle`` of that design (rendered from the source as decoded),
///   with gates of a code value or so; `nil` (`"kernel": "none"` in a config) judges it against the
///   box-filtered ideal ``Oracle`` with the looser families of `gates.json`.
public struct ResizerPolicy: Sendable, Hashable, Codable {
    /// The space in which a resizer averages colour values (``ImageCorpus/LightSpace``).
    public typealias LightSpace = ImageCorpus.LightSpace

    /// Every operation name of ``LabOperation`` (``OperationRecord/kind``).
    public static let allOperations = LabOperation.names
    /// The resize modes, as they can be declared one by one: `resize:` and the mode's name.
    public static let resizeModes = LabContentMode.names.map { "resize:" + $0 }
    /// Every source container of the corpus.
    public static let allContainers = ["png", "jpeg", "gif", "tiff", "bmp"]

    /// The space colour values are averaged in (default `linear`).
    public var lightSpace: LightSpace
    /// The rounding rule of output sizes (default ``SizeRounding/builtin``).
    public var rounding: SizeRounding
    /// Whether the resizer applies the EXIF orientation itself (default `true`).
    public var appliesOrientation: Bool
    /// Operation names implemented (current spellings); `nil` means all.
    public var operations: [String]?
    /// Source containers read; `nil` means all.
    public var containers: [String]?
    /// Whether only the first frame of an animation is produced (default `false`).
    public var firstFrameOnly: Bool
    /// The resampling kernel implemented (default Lanczos 3); `nil` when none is declared.
    public var kernel: DeclaredKernel?
    /// What happens to kernel taps outside the image (default renormalise).
    public var edge: EdgeRule
    /// Whether the kernel widens when shrinking (default `true`); `false` for a fixed support,
    /// which aliases (judged against the kernel oracle of that design).
    public var antialiasing: Bool
    /// Whether the policy was inferred from the resizer's fingerprint (``ContractStage``), not
    /// declared: labels then say `inferred`, and a results file's `policy` has `"inferred": true`.
    public var inferred = false
    /// Bits per sample kept between the two resampling passes (`nil`: none lost, the default);
    /// the kernel oracle rounds there as the resizer does (``KernelOracle/Design/intermediateBits``).
    public var intermediateBits: Int?
    /// The kernel used when enlarging, when it is not ``kernel`` (`nil`: the same).
    public var enlargingKernel: DeclaredKernel?
    /// How a shrink's sums are done (`nil`: exactly, the default); `libvips-reduce` judges
    /// against libvips' own fixed-point reduce (``ResampleArithmetic``).
    public var arithmetic: ResampleArithmetic?

    /// Declared policies; `operations` may use the spellings of manifest version 1, which are
    /// stored as the current names.
    public init(lightSpace: LightSpace = .linear, rounding: SizeRounding = .builtin, appliesOrientation: Bool = true,
                operations: [String]? = nil, containers: [String]? = nil, firstFrameOnly: Bool = false,
                kernel: DeclaredKernel? = .lanczos3, edge: EdgeRule = .renormalize, antialiasing: Bool = true,
                intermediateBits: Int? = nil, enlargingKernel: DeclaredKernel? = nil, arithmetic: ResampleArithmetic? = nil) {
        self.enlargingKernel = enlargingKernel
        self.arithmetic = arithmetic == .exact ? nil : arithmetic
        self.kernel = kernel
        self.edge = edge
        self.antialiasing = antialiasing
        self.intermediateBits = intermediateBits
        self.lightSpace = lightSpace
        self.rounding = rounding
        self.appliesOrientation = appliesOrientation
        self.operations = operations?.map(ManifestV1Names.operationName)
        self.containers = containers
        self.firstFrameOnly = firstFrameOnly
    }

    /// Reads the policies as ``init(lightSpace:rounding:appliesOrientation:operations:containers:firstFrameOnly:)``
    /// takes them (results files of either spelling).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(lightSpace: try c.decode(LightSpace.self, forKey: .lightSpace), rounding: try c.decode(SizeRounding.self, forKey: .rounding),
                  appliesOrientation: try c.decode(Bool.self, forKey: .appliesOrientation),
                  operations: try c.decodeIfPresent([String].self, forKey: .operations),
                  containers: try c.decodeIfPresent([String].self, forKey: .containers),
                  firstFrameOnly: try c.decode(Bool.self, forKey: .firstFrameOnly),
                  kernel: try c.decodeIfPresent(DeclaredKernel.self, forKey: .kernel),
                  edge: try c.decodeIfPresent(EdgeRule.self, forKey: .edge) ?? .renormalize,
                  antialiasing: try c.decodeIfPresent(Bool.self, forKey: .antialiasing) ?? true,
                  intermediateBits: try c.decodeIfPresent(Int.self, forKey: .intermediateBits),
                  enlargingKernel: try c.decodeIfPresent(DeclaredKernel.self, forKey: .enlargingKernel),
                  arithmetic: try c.decodeIfPresent(ResampleArithmetic.self, forKey: .arithmetic))
        inferred = try c.decodeIfPresent(Bool.self, forKey: .inferred) ?? false
    }

    /// The built-in resizer's policies: the ones the committed oracle and gates assume.
    public static let builtin = ResizerPolicy()

    /// The names under which `operation` can be declared: its name and, for a resize,
    /// `resize:MODE` (`resize:aspectFit`, `resize:aspectFillWithoutCrop`, …), most specific first.
    public static func operationKeys(_ operation: OperationRecord) -> [String] {
        operation.kind == "resize" ? ["resize:" + (operation.mode ?? ""), "resize"] : [operation.kind]
    }

    /// Why the lab does not run this pair through the resizer (`skipped`), or `nil` when it does.
    public func skipReason(operation: OperationRecord, container: String) -> String? {
        let keys = Self.operationKeys(operation)
        if let operations, !keys.contains(where: operations.contains) {
            return "policy: operation '\(keys[0])' not declared (declared: \(operations.joined(separator: ", ")))"
        }
        if let containers, !containers.contains(container) {
            return "policy: container '\(container)' not read (declared: \(containers.joined(separator: ", ")))"
        }
        return nil
    }

    /// A one-line summary for tables and reports, e.g. `srgb light, rounding floor, no orientation`.
    public var summary: String {
        var parts = ["\(lightSpace.rawValue) light", "rounding \(rounding.rawValue)",
                     kernel.map { "kernel \($0.rawValue), \(edge.rawValue) edges" } ?? "no kernel declared"]
        if !antialiasing { parts.append("no antialiasing") }
        if let intermediateBits { parts.append("\(intermediateBits)-bit intermediate") }
        if let enlargingKernel { parts.append("kernel \(enlargingKernel.rawValue) when enlarging") }
        if let arithmetic { parts.append("\(arithmetic.rawValue) arithmetic") }
        parts.append(appliesOrientation ? "applies orientation" : "no orientation (fed upright)")
        if firstFrameOnly { parts.append("first frame only") }
        if let operations { parts.append("operations: " + operations.joined(separator: ",")) }
        if let containers { parts.append("reads: " + containers.joined(separator: ",")) }
        return parts.joined(separator: "; ")
    }

    /// Checks the declared names.
    /// - Returns: the first problem, or `nil`.
    public func validationProblem() -> String? {
        if let bits = intermediateBits, !(1...16).contains(bits) { return "intermediateBits \(bits) is not 1…16" }
        for k in operations ?? [] where !Self.allOperations.contains(k) && !Self.resizeModes.contains(k) {
            return "unknown operation '\(k)' (kinds: \((Self.allOperations + Self.resizeModes).joined(separator: ", ")))"
        }
        for c in containers ?? [] where !Self.allContainers.contains(c) {
            return "unknown container '\(c)' (containers: \(Self.allContainers.joined(separator: ", ")))"
        }
        return nil
    }
}
