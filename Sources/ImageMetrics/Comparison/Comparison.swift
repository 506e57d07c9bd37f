import Foundation
import ImageCore
import ImageCodecs

/// One side of a comparison: the decoded image and how to name it.
public struct ComparedImage: Sendable {
    public var image: Image
    /// File name or label (shown escaped in HTML).
    public var name: String
    /// The container it came from, when known.
    public var container: ContainerFormat?

    public init(image: Image, name: String, container: ContainerFormat? = nil) {
        self.image = image
        self.name = name
        self.container = container
    }
}

/// Choices for a comparison.
public struct ComparisonOptions: Sendable, Hashable {
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code units (default 0).
    public var tolerance: Double
    /// Whether to run the diagnosis (default true).
    public var diagnose: Bool
    /// Whether to compute the structural metrics (SSIM family, SSIMULACRA 2; default true).
    public var structural: Bool
    /// The largest visible and alpha |Δ| that counts as rounding, in 8-bit code units: no
    /// diagnosis is attempted when no difference exceeds it (default 1: two 8-bit files; 1/257
    /// when both sides are exact to a 16-bit code, as a 16-bit output against a kernel-exact oracle).
    public var roundingFloor: Double
    /// The largest straight-colour |Δ| in translucent pixels that counts as rounding, or `nil`
    /// when such differences are never evidence by themselves (two stored files: dividing a
    /// rounded colour by a small α magnifies its rounding). Against a kernel-exact oracle a
    /// straight output's colour is exact to its own rounding, so a larger difference is evidence.
    public var straightColourFloor: Double?
    /// The largest alpha |Δ| that counts as rounding, when it is not ``roundingFloor``: against a
    /// kernel-exact oracle an 8-bit output's alpha is exact to half a code (its own rounding),
    /// so a larger difference is evidence.
    public var alphaFloor: Double?
    /// Pixels to leave out (``IgnoredPixels/resolved(width:height:)``, displayed coordinates): the
    /// actual image takes the expected image's values there before anything is measured, so they
    /// count as equal in every metric and the diagnosis; `ignored.pixels` counts them. Used only
    /// when its size is the compared size; `nil` (the default): none.
    public var ignored: PixelMask?
    /// Whether to count the differing pixels that are not anti-aliasing (the `exact.over.N.nonAA`
    /// metrics, pixelmatch's detector; default true). `false` leaves them without a value, for a
    /// caller that shows, keeps and gates on none of them.
    public var antiAliasingCounts: Bool

    public init(tolerance: Double = 0, diagnose: Bool = true, structural: Bool = true, roundingFloor: Double = 1,
                straightColourFloor: Double? = nil, alphaFloor: Double? = nil, ignored: PixelMask? = nil,
                antiAliasingCounts: Bool = true) {
        self.ignored = ignored
        self.antiAliasingCounts = antiAliasingCounts
        self.tolerance = tolerance
        self.diagnose = diagnose
        self.structural = structural
        self.roundingFloor = roundingFloor
        self.straightColourFloor = straightColourFloor
        self.alphaFloor = alphaFloor
    }
}

/// Everything `imglab diff` knows about two images: every metric with its definition version,
/// the three alpha views, bias by alpha band, colour cast, the metadata differences and the
/// diagnosis. A pure value, built by ``init(expected:actual:options:)``; encodes to JSON.
///
/// Compare-by-value rule: both images are read as displayed (orientation applied) through
/// ``ValueImage``, so formats and bit depths do not matter, only values do; alpha is kept when
/// either file has it. Pixel metrics need equal displayed sizes; otherwise they are missing
/// and the diagnosis looks for an orientation or a 2×/½× scale that maps one size onto the other.
public struct Comparison: Sendable, Hashable, Codable {
    /// Version of this result's layout.
    public static let version = "imglab-comparison/1"
    public var version = Comparison.version
    public var expected: ImageSummary
    public var actual: ImageSummary
    /// Whether the displayed sizes are equal.
    public var sameSize: Bool
    /// Whether every compared value is equal.
    public var identical: Bool
    /// How the pixels were compared, e.g. "RGBA values at 16-bit precision".
    public var comparedAs: String
    /// Conversions and caveats worth knowing (orientation applied, float clamping, …).
    public var notes: [String]
    /// Every metric of ``MetricCatalog``, by name.
    public var metrics: [String: MetricValue]
    public var exact: ExactDifference?
    public var bias: [BandBias]
    public var alphaViews: AlphaViews?
    public var colourCast: ColourCast?
    public var metadataDifferences: [MetadataDifference]
    public var diagnosis: Diagnosis

    /// The value of a metric, if defined.
    public func value(_ name: String) -> Double? { metrics[name]?.value }

    /// Compares `actual` against `expected`. `source`: the pixel format of the image both were
    /// made from, when the caller knows it (the lab); the diagnosis then leaves out candidates
    /// that cannot apply to it (CMYK inversion on a grey or RGB source, value-range errors on an
    /// 8-bit one). `counterfactuals`: predictions of the actual image under bug hypotheses from a
    /// caller that knows the source, tested by the diagnosis beside its own candidates
    /// (``Counterfactual``); none by default.
    public init(expected e: ComparedImage, actual a: ComparedImage, options: ComparisonOptions = ComparisonOptions(),
                source: PixelFormat? = nil, counterfactuals: [Counterfactual] = []) {
        var timer = StageTimer()
        timer.mark("decoded (before values)")
        expected = ImageSummary(name: e.name, container: e.container, image: e.image)
        actual = ImageSummary(name: a.name, container: a.container, image: a.image)
        metadataDifferences = MetadataDifference.between(expected, actual)
        let withAlpha = e.image.format.hasAlpha || a.image.format.hasAlpha
        let ev = ValueImage(e.image, withAlpha: withAlpha)
        var av = ValueImage(a.image, withAlpha: withAlpha)
        let deep = max(ev.sourceBitsPerComponent, av.sourceBitsPerComponent) > 8
        comparedAs = "\(withAlpha ? "RGBA" : "RGB") values at \(deep ? "16" : "8")-bit precision"
        var notes: [String] = []
        if e.image.orientation != .up || a.image.orientation != .up {
            // Named by where it was read: a HEIF's comes from irot/imir, not EXIF (1…8 in EXIF's numbering either way).
            func stated(_ image: Image) -> String {
                "\(image.orientation.exifValue)" + (image.metadata.orientationSource.map { " from \($0.rawValue)" } ?? "")
            }
            notes.append("orientation applied: compared as displayed (expected orientation \(stated(e.image)), actual \(stated(a.image)))")
        }
        if let n = ev.precisionNote ?? av.precisionNote { notes.append(n) }
        if e.image.frameCount > 1 || a.image.frameCount > 1 { notes.append("animations: the first frame is compared") }
        sameSize = ev.width == av.width && ev.height == av.height
        var ignoredPixels: Int?
        if let mask = options.ignored, sameSize, mask.width == ev.width, mask.height == ev.height {
            av.takeValues(of: ev, under: mask)
            ignoredPixels = mask.count
            notes.append("\(mask.count) pixels ignored (masks and regions): compared as equal")
        }
        identical = sameSize && ev.sameSamples(as: av)
        timer.mark("values (8-bit codes or 16-bit samples)")
        let context = DiagnosisContext(expected: e.image.format, actual: a.image.format, source: source,
                                       expectedBits: ev.sourceBitsPerComponent, actualBits: av.sourceBitsPerComponent,
                                       expectedTranslucent: ev.hasTranslucency)

        var metrics: [String: MetricValue] = [:]
        func set(_ name: String, _ value: Double?, missing: String? = nil) {
            guard let d = MetricCatalog.definition(named: name) else { return }
            metrics[name] = MetricValue(value: value, unit: d.unit, version: d.version, missingReason: value == nil ? missing : nil)
        }
        bias = []
        guard sameSize else {
            notes.append("sizes differ: \(ev.width)×\(ev.height) displayed vs \(av.width)×\(av.height); pixel metrics need equal sizes")
            for d in MetricCatalog.all where d.name != "hidden.delta" && d.name != "ignored.pixels" && !d.name.hasPrefix("cost.") && !d.name.hasPrefix("floor.") {
                set(d.name, nil, missing: "sizes differ")
            }
            diagnosis = options.diagnose ? Diagnoser.diagnose(expected: ev, actual: av, context: context, counterfactuals: counterfactuals) : .none("not run")
            if source == nil { diagnosis = diagnosis.statedAgainstTags(expected: e.image.orientation, actual: a.image.orientation) }
            set("diagnosis.confidence", diagnosis.confidence)
            self.notes = notes
            self.metrics = metrics
            return
        }

        set("size.min", Double(min(ev.width, ev.height)))
        if let ignoredPixels { set("ignored.pixels", Double(ignoredPixels)) }
        let stats = PixelStatistics.measure(ev, av, tolerance: options.tolerance)
        timer.mark("pixel pass (exact, PSNR, ΔE00)")
        let pixels = Double(stats.pixels)
        exact = ExactDifference(maxPerChannel: withAlpha ? stats.maxAbs : Array(stats.maxAbs.prefix(3)),
                                differingPixels: stats.differing, overTolerance: stats.overTolerance,
                                tolerance: options.tolerance, bucketEdges: PixelStatistics.bucketEdges, histogram: stats.buckets)
        set("exact.max", stats.maxAbs.max() ?? 0)
        for (i, c) in ["r", "g", "b", "a"].enumerated() { set("exact.max.\(c)", stats.maxAbs[i]) }
        set("exact.pixels", Double(stats.differing))
        set("exact.count", Double(stats.overTolerance))
        for (i, edge) in PixelStatistics.bucketEdges.dropLast().enumerated() {
            set("exact.over.\(Int(edge))", Double(stats.buckets[(i + 1)...].reduce(0, +)))
        }
        // Pixels over 1 code value are few when two renderings agree, and only they are examined.
        let overOne = stats.buckets[2...].reduce(0, +)
        if options.antiAliasingCounts {
            let nonAA = overOne == 0 ? AntiAliasing.edges.map { _ in 0 }
                : AntiAliasing.nonAntiAliasedCounts(ev, av, edges: AntiAliasing.edges)
            for (edge, count) in zip(AntiAliasing.edges, nonAA) { set("exact.over.\(Int(edge)).nonAA", Double(count)) }
        } else {
            for edge in AntiAliasing.edges {
                set("exact.over.\(Int(edge)).nonAA", nil, missing: "not computed: no gate, report or results file asked for it")
            }
        }
        timer.mark("anti-aliasing counts")
        for (band, name) in ["opaque", "translucent", "transparent"].enumerated() {
            let n = stats.bandPixels[band]
            let means = stats.biasSums[band].map { n > 0 ? $0 / Double(n) : 0 }
            if n > 0 { bias.append(BandBias(band: name, pixels: n, mean: means)) }
            for (i, c) in ["r", "g", "b", "a"].enumerated() {
                set("bias.\(name).\(c)", n > 0 ? means[i] : nil, missing: "no \(name) pixels")
            }
        }
        // Visible: the worse background per metric.
        let bgNames = withAlpha ? ["black", "white"] : ["none"]
        let worstVisible = stats.visible.indices.max { stats.visible[$0].sumAbs < stats.visible[$1].sumAbs } ?? 0
        let vis = stats.visible[worstVisible]
        set("visible.max", stats.visible.map(\.maxAbs).max() ?? 0)
        set("visible.mean", vis.sumAbs / pixels)
        set("visible.pixels", Double(stats.visible.map(\.differing).max() ?? 0))
        set("alpha.max", withAlpha ? stats.alphaMax : 0)
        set("alpha.mean", withAlpha ? stats.alphaSum / pixels : 0)
        let translucentPixels = stats.bandPixels[1]
        // The largest difference over no translucent pixel is 0: no translucent colour differs.
        set("translucent.max", translucentPixels > 0 ? stats.translucentMax : 0)
        set("translucent.mean", stats.translucentSamples > 0 ? stats.translucentSum / Double(stats.translucentSamples) : nil, missing: "no translucent pixels (expected translucent, actual not transparent)")
        set("hidden.pixels", Double(stats.hiddenChanged))
        alphaViews = AlphaViews(
            visible: .init(max: stats.visible.map(\.maxAbs).max() ?? 0, mean: vis.sumAbs / pixels,
                           pixels: stats.visible.map(\.differing).max() ?? 0, background: bgNames[worstVisible]),
            alpha: .init(max: withAlpha ? stats.alphaMax : 0, mean: withAlpha ? stats.alphaSum / pixels : 0),
            colour: .init(translucentPixels: translucentPixels, translucentMax: stats.translucentMax,
                          translucentMean: stats.translucentSamples > 0 ? stats.translucentSum / Double(stats.translucentSamples) : 0,
                          hiddenChanged: stats.hiddenChanged, hiddenMax: stats.hiddenMax))

        func psnr(_ mse: Double) -> Double { mse == 0 ? .infinity : 10 * log10(255 * 255 / mse) }
        set("psnr", stats.visible.map { psnr(($0.squared[0] + $0.squared[1] + $0.squared[2]) / (3 * pixels)) }.min())
        for (i, c) in ["r", "g", "b"].enumerated() { set("psnr.\(c)", stats.visible.map { psnr($0.squared[i] / pixels) }.min()) }
        set("psnr.y", stats.visible.map { psnr($0.squaredY / pixels) }.min())

        let worstColour = stats.visible.indices.max { stats.visible[$0].sumDE < stats.visible[$1].sumDE } ?? 0
        let col = stats.visible[worstColour]
        set("deltaE00.mean", col.sumDE / pixels)
        set("deltaE00.p95", PixelStatistics.percentile(col.histogram, fraction: 0.95, pixels: stats.pixels))
        set("deltaE00.p99", PixelStatistics.percentile(col.histogram, fraction: 0.99, pixels: stats.pixels))
        set("deltaE00.max", col.maxDE)
        let cast = ColourCast(dL: col.sumDL / pixels, da: col.sumDA / pixels, db: col.sumDB / pixels)
        colourCast = cast
        set("cast.L", cast.dL); set("cast.a", cast.da); set("cast.b", cast.db)

        if options.structural {
            let backgrounds: [Double] = withAlpha ? [0, 1] : [0]
            var y: Double?, rgb: Double?, wang: Double?, ms: Double?
            for bg in backgrounds {
                // Y′, R, G, B in one pass; the luma result is MS-SSIM's first level.
                let planes = VisiblePlane.ssimMeans(ev, av, background: bg)
                let level1 = planes?[0]
                if let s = level1?.ssim { y = min(y ?? .infinity, s) }
                if let p = planes { rgb = min(rgb ?? .infinity, (p[1].ssim + p[2].ssim + p[3].ssim) / 3) }
                let ye = VisiblePlane.source(ev, channel: 3, background: bg), ya = VisiblePlane.source(av, channel: 3, background: bg)
                let downsampled = SSIM.downsampledScores(ye, ya, level1: level1)
                if let s = downsampled.wang { wang = min(wang ?? .infinity, s) }
                if let s = downsampled.multiScale { ms = min(ms ?? .infinity, s) }
            }
            set("ssim", y, missing: "needs at least 11×11 pixels")
            set("ssim.rgb", rgb, missing: "needs at least 11×11 pixels")
            set("ssim.wang", wang, missing: "needs at least 11×11 pixels after downsampling")
            set("msssim", ms, missing: "needs min(width, height) ≥ 176")
            timer.mark("SSIM family")
            let s2 = SSIMULACRA2.score(original: .init(image: ev, hasAlpha: e.image.format.hasAlpha),
                                       distorted: .init(image: av, hasAlpha: a.image.format.hasAlpha))
            set("ssimulacra2", s2, missing: "needs at least 8×8 pixels")
            timer.mark("SSIMULACRA 2")
        } else {
            for n in ["ssim", "ssim.rgb", "ssim.wang", "msssim", "ssimulacra2"] { set(n, nil, missing: "structural metrics not requested") }
        }

        if identical {
            diagnosis = .none("identical: nothing to explain")
        } else if !options.diagnose {
            diagnosis = .none("not run")
        } else if let floor = options.straightColourFloor, stats.translucentMax > floor,
                  (stats.visible.map(\.maxAbs).max() ?? 0) <= options.roundingFloor, stats.maxAbs[3] <= options.alphaFloor ?? options.roundingFloor,
                  a.image.format.isPremultiplied, !e.image.format.isPremultiplied {
            // Only the straight colour of translucent pixels differs, by more than a straight
            // output rounds it, and the actual stores premultiplied alpha: its colour was rounded
            // after multiplying by α, which a division by a small α magnifies.
            diagnosis = Diagnosis(bugClass: "premultiplication", candidate: "storage.premultiplied", name: "stored premultiplied where straight alpha is expected",
                                  references: ["D2"], confidence: 0.5, explained: nil,
                                  summary: String(format: "premultiplication: the output stores premultiplied alpha, so translucent colours lose precision (straight colour off by up to %.3g codes, composited within %.3g)",
                                                  stats.translucentMax, options.roundingFloor),
                                  ranking: [], sampledPixels: 0)
        } else if let source, source.bitsPerComponent == 16, !source.isFloat, a.image.format.bitsPerComponent <= 8,
                  e.image.format.bitsPerComponent >= 16, (stats.visible.map(\.maxAbs).max() ?? 0) <= 1,
                  stats.maxAbs[3] <= 1 {
            // A 16-bit source, a 16-bit expectation judged to 16-bit precision, an 8-bit output
            // within one code of it: the samples were cut to 8 bits, and that is all.
            diagnosis = Diagnosis(bugClass: "16-bit", candidate: "storage.8bit-output", name: "16-bit samples written in 8 bits",
                                  references: ["B9", "D4"], confidence: 1, explained: nil,
                                  summary: String(format: "16-bit: the source has 16-bit samples and the output 8 (every difference within one 8-bit code: %.3g)",
                                                  stats.visible.map(\.maxAbs).max() ?? 0),
                                  ranking: [], sampledPixels: 0)
        } else if (stats.visible.map(\.maxAbs).max() ?? 0) <= options.roundingFloor && stats.maxAbs[3] <= options.alphaFloor ?? options.roundingFloor
                    && stats.translucentMax <= (options.straightColourFloor ?? .infinity) {
            diagnosis = .none(options.roundingFloor == 1 ? "no diagnosis: every difference is within 1 code value (rounding, 8↔16-bit conversion)"
                              : "no diagnosis: every difference is within 1/257 code value (16-bit rounding)")
        } else {
            diagnosis = Self.valueDiagnosis(ev, av, of: e.image, a.image, context: context, counterfactuals: counterfactuals)
            timer.mark("diagnosis")
        }
        set("diagnosis.confidence", diagnosis.confidence)
        timer.mark("diagnosis statements")
        self.notes = notes
        self.metrics = metrics
    }

    /// The diagnosis of the values `ev`, `av` of the images `e`, `a` (equal sizes, not
    /// identical): the catalogue and `counterfactuals` tried, what no candidate explains noted,
    /// and, when no source is known (`imglab diff`), stated against the files' orientation tags.
    static func valueDiagnosis(_ ev: ValueImage, _ av: ValueImage, of e: Image, _ a: Image, context: DiagnosisContext,
                               counterfactuals: [Counterfactual]) -> Diagnosis {
        var diagnosis = Diagnoser.diagnose(expected: ev, actual: av, context: context, counterfactuals: counterfactuals)
        diagnosis.noteUnexplained(expected: ev, actual: av, expectedMetadata: e.metadata, actualMetadata: a.metadata)
        return context.source == nil ? diagnosis.statedAgainstTags(expected: e.orientation, actual: a.orientation) : diagnosis
    }
}
