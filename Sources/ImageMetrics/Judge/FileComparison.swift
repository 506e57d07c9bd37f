import ImageCore
import ImageCodecs

/// Two image files judged by value (`imglab diff`, and its fuzzed pipeline): both headers are
/// read and the memory the comparison needs is checked against the budget
/// (`decode.limits.maxBytes`) before any pixel is decoded; then both are decoded at once
/// (each decoder is single-threaded) and judged (``Judge``: the canaries guard a gate, the
/// diagnosis always runs).
public struct FileComparison: Sendable {
    /// The file the actual image is compared against.
    public var expectedPath: String
    public var actualPath: String
    /// The gate; `nil`: the files pass only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double
    /// The decode options of both files; `limits.maxBytes` is the whole comparison's memory budget.
    public var decode: DecodeOptions
    /// The canaries that guard the gate (tests inject a failing result).
    public var canaries: Judge.CanaryCheck
    /// Pixels left out of the comparison (masks and regions; a mask must have the expected
    /// image's displayed size); none by default.
    public var ignored: IgnoredPixels
    /// Colours compared through the files' profiles, or stored values (``ColourMode``).
    public var colour: ColourMode
    /// Whether the `exact.over.N.nonAA` counts are computed (``Judge/antiAliasingCounts``; default true).
    public var antiAliasingCounts = true
    /// What images of different sizes get (``Judge/SizePolicy``; default align: the alignment and the overlap's metrics).
    public var sizePolicy = Judge.SizePolicy.align
    /// The resampler of ``Judge/SizePolicy/resize`` (the actual image resized to the expected's
    /// size before the judge); unused under the other policies.
    public var resizeStage: ResizeStage?
    /// Whether the files' bytes are kept for the caller (a report embeds them; default true). `false`
    /// lets them go once both are decoded, before the judging: the size of both files less at the peak.
    public var keepsFileBytes = true

    public init(expected: String, actual: String, gate: GateExpression? = nil, tolerance: Double = 0,
                decode: DecodeOptions = DecodeOptions(), canaries: Judge.CanaryCheck = .run, ignored: IgnoredPixels = IgnoredPixels(),
                colour: ColourMode = .managed) {
        self.ignored = ignored
        self.colour = colour
        self.expectedPath = expected
        self.actualPath = actual
        self.gate = gate
        self.tolerance = tolerance
        self.decode = decode
        self.canaries = canaries
    }

    /// One compared file: the decoded image and the file's bytes (``PairDecoding/Side``).
    public typealias Side = PairDecoding.Side

    /// Reads both headers, checks the budget, decodes and judges.
    /// - Throws: ``FileComparisonError``: a file that cannot be read or decoded, a pair whose
    ///   comparison needs more memory than the budget, or a mask of the wrong size.
    /// - Returns: the judgement, both sides, and the ignored pixels (`nil`: none).
    public func run() throws(FileComparisonError) -> (judgement: Judgement, expected: Side, actual: Side, ignored: PixelMask?) {
        var files: [PairDecoding.File] = []
        for path in [expectedPath, actualPath] { files.append(try PairDecoding.read(path, options: decode)) }
        var sides = try PairDecoding.decode(files, options: decode, threads: 2)
        if !keepsFileBytes {
            files.removeAll()
            for i in sides.indices { sides[i].bytes = [] }
        }
        var judge = Judge(gate: gate, tolerance: tolerance, canaries: canaries, diagnosing: .always,
                          antiAliasingCounts: antiAliasingCounts)
        judge.sizePolicy = sizePolicy
        // The report shows what was judged: the resized actual image.
        let resized = sizePolicy == .resize ? resizeStage?.prepare(sides[0].compared, sides[1].compared) : nil
        if let resized { sides[1].compared = resized.actual }
        var (judgement, mask) = try Self.judge(sides[0].compared, sides[1].compared, by: judge, ignoring: ignored, colour: colour)
        judgement.resized = resized?.resized
        return (judgement, sides[0], sides[1], mask)
    }

    /// The judge stage of two decoded images a user gives (two files, a folder diff's pair, an
    /// `expectImage` call): the colour stage (``ColourStage``: both converted to sRGB when their
    /// profiles differ, in `colour` mode ``ColourMode/managed``), the masks and regions resolved
    /// against the expected image's displayed size, then ``Judge`` (with the profile mistakes as
    /// counterfactuals of the diagnosis).
    /// - Throws: ``FileComparisonError/ignored(_:)`` for a mask of the wrong size.
    /// - Returns: the judgement and the ignored pixels (`nil`: none).
    public static func judge(_ expected: ComparedImage, _ actual: ComparedImage, by judge: Judge,
                             ignoring ignored: IgnoredPixels, colour: ColourMode = .managed) throws(FileComparisonError) -> (Judgement, PixelMask?) {
        let shown = expected.image.displaySize
        var masked = judge
        do { masked.ignored = try ignored.resolved(width: shown.width, height: shown.height) } catch { throw .ignored(error) }
        let staged = ColourStage(mode: colour).prepare(expected, actual)
        var judgement = masked.judge(expected: staged.expected, actual: staged.actual, counterfactuals: staged.counterfactuals)
        judgement.colour = staged.handling
        if !staged.handling.converted.isEmpty && !judgement.passed && judgement.diagnosed,
           (judgement.comparison.value("deltaE00.p95") ?? .infinity) > Self.justNoticeable {
            let words = "the files state different colours: \(staged.handling.expected) and \(staged.handling.actual)"
            judgement.comparison.diagnosis = Self.storedValuesReading(of: judgement.comparison.diagnosis, expected.image, actual.image,
                                                                      ignoring: masked.ignored, because: words)
        }
        // The screen and the report describe the files, not their sRGB renderings.
        if !staged.handling.converted.isEmpty {
            let c = judgement.comparison
            let e = ImageSummary(name: c.expected.name, container: expected.container, image: expected.image)
            let a = ImageSummary(name: c.actual.name, container: actual.container, image: actual.image)
            judgement.comparison.expected = e
            judgement.comparison.actual = a
            judgement.comparison.metadataDifferences = MetadataDifference.between(e, a)
        }
        return (judgement, masked.ignored)
    }

    /// ΔE00 of a just-noticeable colour difference: a pair whose colours as displayed differ by
    /// no more at its 95th percentile shows the same colours, whatever its stored values.
    static let justNoticeable = 1.0

    /// The diagnosis of a pair whose colour statements differ and whose displayed colours differ
    /// visibly (ΔE00 p95 above ``justNoticeable``), read on the stored values too: a
    /// tool that edits the values and records a new statement beside them (ImageMagick's
    /// `-gamma` writes gAMA) changed the values by a named class, which the colour-managed
    /// comparison sees through the new statement's conversion. The stored values' diagnosis
    /// replaces the colour-managed one when it names a class and explains at least as much,
    /// unless the managed one names a profile mistake (``ColourStage``) explaining 90 % or more;
    /// its summary says it reads the stored values.
    /// `because` says why the stored values are read too, for the summary.
    static func storedValuesReading(of managed: Diagnosis, _ expected: Image, _ actual: Image, ignoring ignored: PixelMask?,
                                    because: String) -> Diagnosis {
        if managed.candidate?.hasPrefix(ColourStage.mistakePrefix) == true, (managed.explained ?? 0) >= 0.9 { return managed }
        var stored = Self.storedValuesDiagnosis(expected, actual, ignored: ignored)
        guard stored.bugClass != nil, managed.bugClass == nil || (stored.explained ?? 0) >= (managed.explained ?? 0) else { return managed }
        stored.summary = "in the stored values (\(because)): " + stored.summary
        return stored
    }

    /// The diagnosis `shown` of an output that states its colours other than sRGB's, compared as
    /// shown in sRGB with the sRGB image `expected`, read on the output's stored values too (as
    /// ``storedValuesReading(of:_:_:ignoring:because:)`` does): `expected` encoded into the
    /// output's statement (Little CMS) against the values the output stores. A bug in the
    /// output's values (a byte order, a depth) is named in the values it changed. `shown` as it
    /// is when the output states sRGB's colours or cannot be encoded into.
    public static func storedValuesReading(of shown: Diagnosis, expected: Image, output: Image) -> Diagnosis {
        // At 16 bits, so that a value bug that needs the expected samples' low bits (a depth) can be named.
        let f = output.format
        let deep = PixelFormat(colorModel: f.colorModel, bitsPerComponent: 16, alphaInfo: f.hasAlpha ? .last : .none)
        guard let profile = SRGBRendering.statedProfile(output),
              let encoded = try? SRGBRendering.encode(expected.bitmap, into: profile, as: f.isFloat ? f : deep) else { return shown }
        var stored = output
        stored.metadata = output.metadata.statingColours(by: nil)
        let origin = StatedColours(output.metadata, gray: output.format.colorModel == .gray).origin
        return storedValuesReading(of: shown, Image(bitmap: encoded, orientation: expected.orientation), stored, ignoring: nil,
                                   because: "the output states its colours by its \(origin); the expected image encoded into them")
    }

    /// The diagnosis of two images' stored values alone, as ``Comparison`` makes it but with no
    /// metric computed (a tenth of a 4K comparison's cost).
    static func storedValuesDiagnosis(_ e: Image, _ a: Image, ignored: PixelMask?) -> Diagnosis {
        var timer = StageTimer()
        defer { timer.mark("stored-values diagnosis (colour statements differ)") }
        let withAlpha = e.format.hasAlpha || a.format.hasAlpha
        let ev = ValueImage(e, withAlpha: withAlpha)
        var av = ValueImage(a, withAlpha: withAlpha)
        guard ev.width == av.width && ev.height == av.height else { return .none("sizes differ") }
        if let ignored, ignored.width == ev.width, ignored.height == ev.height { av.takeValues(of: ev, under: ignored) }
        guard !ev.sameSamples(as: av) else { return .none("identical: nothing to explain") }
        let context = DiagnosisContext(expected: e.format, actual: a.format, source: nil, expectedBits: ev.sourceBitsPerComponent,
                                       actualBits: av.sourceBitsPerComponent, expectedTranslucent: ev.hasTranslucency)
        return Comparison.valueDiagnosis(ev, av, of: e, a, context: context, counterfactuals: [])
    }

    /// Whether two images are identical by value as displayed (``Comparison/identical``'s rule:
    /// the same displayed size and the same straight 16-bit samples): the same first frame,
    /// format and orientation, or the same values. Cheaper than a ``Comparison``: no metric.
    public static func identicalByValue(_ e: Image, _ a: Image) -> Bool {
        if e.orientation == a.orientation && e.bitmap == a.bitmap { return true }
        let withAlpha = e.format.hasAlpha || a.format.hasAlpha
        let ev = ValueImage(e, withAlpha: withAlpha), av = ValueImage(a, withAlpha: withAlpha)
        return ev.width == av.width && ev.height == av.height && ev.sameSamples(as: av)
    }
}

/// Why ``FileComparison`` could not compare two files (exit status 2).
public enum FileComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file that cannot be read or decoded (within the limits).
    case unreadable(String, DecodeError)
    /// Comparing the files needs `needed` bytes, more than the `budget` (`--max-memory`).
    case overBudget(needed: Int, budget: Int, sizes: [String])
    /// Masks or regions that cannot be used (a mask of the wrong size).
    case ignored(IgnoredPixelsError)

    public var description: String {
        switch self {
        case .unreadable(let path, let error): return "\(path): \(error)"
        case .ignored(let error): return error.description
        case .overBudget(let needed, let budget, let sizes):
            return "comparing \(sizes.joined(separator: " and ")) images needs about \(needed >> 20) MiB, over the memory budget of \(budget >> 20) MiB; raise it with --max-memory"
        }
    }
}
