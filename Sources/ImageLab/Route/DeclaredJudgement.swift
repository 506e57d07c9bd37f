import ImageCorpus
import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// How a resizer's declared policies (``ResizerPolicy``) shape the judgement of one pair: what
/// it is fed, which oracle it is compared with, how many frames count, and the labels that
/// say so in the results. For the built-in policies it changes nothing: the corpus file, the
/// committed oracle, every frame, no label.
struct DeclaredJudgement {
    /// The decoded source handed to the resizer (upright when it declares it does not orient).
    var input: Image
    /// The file holding ``input``: the corpus file, or `nil` when the pixels were changed.
    var inputFile: String?
    /// One label per policy that changed the judgement.
    var labels: [PolicyLabel] = []
    /// `[width, height]` of the expected output.
    var expectedSize: [Int]
    /// Frames to compare.
    var frames: Int
    private var rendered: [Bitmap]?
    /// The kernel-exact oracle's description, when it judges the pair.
    private var kernelOracle: String?
    /// Its placement and design, for the counterfactuals.
    private var kernelPlan: (placement: OraclePlacement, design: KernelOracle.Design)?
    private var oracleFiles: [String]
    private var corpus: URL

    init(_ pair: LabPair, source: Image, operation: LabOperation, policy: ResizerPolicy, corpus: URL) throws(PairStageError) {
        let entry = pair.entry
        self.corpus = corpus
        oracleFiles = entry.oracle
        input = source
        inputFile = corpus.appendingPathComponent(pair.record.file).path
        expectedSize = [entry.outputWidth, entry.outputHeight]
        frames = entry.oracle.count
        if !policy.appliesOrientation && source.orientation != .up {
            input = source.oriented()
            inputFile = nil
            labels.append(PolicyLabel(.orientationNotApplied, "fed the upright pixels as PNG instead of the file with EXIF orientation \(pair.record.orientation)"))
        }
        if policy.firstFrameOnly && frames > 1 {
            labels.append(PolicyLabel(.firstFrameOnly, "frame 0 of \(frames) compared"))
            frames = 1
        }
        // A JPEG or WebP thumbnail the contract lets a resizer decode at a reduced scale starts
        // from another image than the full decode: the box oracle judges it, kernel or not.
        let scaledDecode = ScaledDecode.mayApply(to: operation, container: pair.record.container, width: source.width,
                                                 height: source.height, orientation: source.orientation,
                                                 frames: source.animation?.frames.count ?? 1)
        if let kernel = policy.kernel, !scaledDecode {
            try renderKernelOracle(pair, source: source, operation: operation, policy: policy, kernel: kernel)
            return
        }
        guard policy.lightSpace != .linear || policy.rounding != .builtin else { return }
        let display = source.displaySize
        let plan: (placement: OraclePlacement, render: Bool, enlargingKept: Bool)
        do { plan = try DeclaredOracle.plan(operation, width: display.width, height: display.height,
                                                         lightSpace: policy.lightSpace, rounding: policy.rounding) } catch {
            throw PairStageError(reason: "declared-policy oracle of \(pair.id): \(error)")
        }
        if plan.enlargingKept {
            labels.append(PolicyLabel(.srgbLightSpace, "an enlargement, judged against the committed linear-light oracle (the averaging space matters little below one source pixel)"))
        }
        guard plan.render else { return }
        if policy.lightSpace == .srgb { labels.append(PolicyLabel(.srgbLightSpace, "judged against the oracle averaged in sRGB")) }
        if plan.placement.width != entry.outputWidth || plan.placement.height != entry.outputHeight {
            labels.append(PolicyLabel(.rounding(policy.rounding), "expected \(plan.placement.width)×\(plan.placement.height), built-in rule \(entry.outputWidth)×\(entry.outputHeight)"))
            expectedSize = [plan.placement.width, plan.placement.height]
        }
        guard let orient = pair.record.operations.first(where: { $0.operation.kind == "orient" }) else {
            throw PairStageError(reason: "\(pair.record.id) has no orient oracle to render the declared-policy oracle from")
        }
        var bitmaps: [Bitmap] = []
        for k in 0..<frames {
            guard k < orient.oracle.count else { throw PairStageError(reason: "\(pair.record.id): no orient oracle of frame \(k)") }
            let path = corpus.appendingPathComponent(orient.oracle[k]).path
            do {
                let ideal = try ImageCodecs.decode(contentsOf: path)
                bitmaps.append(try DeclaredOracle.render(source: ideal.bitmap, placement: plan.placement, lightSpace: policy.lightSpace))
            } catch {
                throw PairStageError(reason: "declared-policy oracle of \(pair.id) from \(orient.oracle[k]): \(error)")
            }
        }
        rendered = bitmaps
    }

    /// The kernel-exact oracle of every frame (``KernelOracle``) for a resizer that declares a
    /// kernel, at the size its rounding rule gives, from the source as decoded.
    private mutating func renderKernelOracle(_ pair: LabPair, source: Image, operation: LabOperation, policy: ResizerPolicy,
                                             kernel: DeclaredKernel) throws(PairStageError) {
        let display = source.displaySize
        let placement: OraclePlacement
        do {
            placement = try DeclaredOracle.plan(operation, width: display.width, height: display.height,
                                                lightSpace: policy.lightSpace, rounding: policy.rounding).placement
        } catch { throw PairStageError(reason: "kernel-exact oracle of \(pair.id): \(error)") }
        if policy.lightSpace == .srgb { labels.append(PolicyLabel(.srgbLightSpace, "judged against the kernel-exact oracle averaged in sRGB")) }
        if placement.width != pair.entry.outputWidth || placement.height != pair.entry.outputHeight {
            labels.append(PolicyLabel(.rounding(policy.rounding), "expected \(placement.width)×\(placement.height), built-in rule \(pair.entry.outputWidth)×\(pair.entry.outputHeight)"))
            expectedSize = [placement.width, placement.height]
        }
        var design = KernelOracle.Design(kernel: kernel, lightSpace: policy.lightSpace, edge: policy.edge)
        design.widensWhenShrinking = policy.antialiasing
        design.enlargingKernel = policy.enlargingKernel
        design.arithmetic = policy.arithmetic ?? .exact
        // A deeper source keeps its own depth between the passes (Pillow's I;16 mode); a float one loses nothing.
        let depth = source.bitmap.format
        design.intermediateBits = depth.isFloat ? nil : policy.intermediateBits.map { max($0, depth.bitsPerComponent) }
        var bitmaps: [Bitmap] = []
        for k in 0..<frames {
            do {
                bitmaps.append(try KernelOracle.render(source: source, frame: k, placement: placement, design: design).bitmap16())
            } catch { throw PairStageError(reason: "kernel-exact oracle of \(pair.id), frame \(k): \(error)") }
        }
        rendered = bitmaps
        kernelPlan = (placement, design)
        let precision = (policy.antialiasing ? "" : ", no antialiasing") + (policy.intermediateBits.map { ", \($0)-bit intermediate" } ?? "")
            + (policy.enlargingKernel.map { ", \($0.rawValue) when enlarging" } ?? "")
            + (policy.arithmetic.map { ", \($0.rawValue) arithmetic" } ?? "")
        kernelOracle = "kernel-exact oracle (\(kernel.rawValue), \(policy.lightSpace.rawValue) light, \(policy.edge.rawValue) edges\(precision)) rendered from \(pair.record.file) as decoded"
    }

    /// Whether the expected images are rendered for the declared policies (no committed oracle file).
    var rendersOracle: Bool { rendered != nil }

    /// The exact predictions under bug hypotheses (``KernelCounterfactuals``) of frame `k` of
    /// `source`, for an output stored as `output` (its depth chooses the storage hypotheses) that
    /// states its colours other than sRGB's or not, when the kernel-exact oracle judges the pair;
    /// `nil` otherwise.
    func kernelCounterfactuals(source: Image, frame k: Int, output: PixelFormat, outputStatesColours: Bool) -> [Counterfactual]? {
        kernelPlan.map {
            KernelCounterfactuals.counterfactuals(source: source, frame: k, placement: $0.placement, design: $0.design, output: output,
                                                  outputStatesColours: outputStatesColours)
        }
    }

    /// Which oracle judges the pair: `kernel` (``KernelOracle``) or `box` (the committed ideal
    /// oracle, or its declared-policy rendering); gate families are chosen for it.
    var oracleKind: GateBook.OracleKind { kernelOracle == nil ? .box : .kernel }

    /// The expected image of frame `k`.
    func oracle(frame k: Int) throws(PairStageError) -> Image {
        if let rendered { return Image(bitmap: rendered[k]) }
        do { return try ImageCodecs.decode(contentsOf: corpus.appendingPathComponent(oracleFiles[k]).path) } catch {
            throw PairStageError(reason: "cannot decode the oracle \(oracleFiles[k]): \(error)")
        }
    }

    /// The name the report gives the expected side.
    func oracleName(frame k: Int) -> String {
        if let kernelOracle { return kernelOracle + (frames > 1 ? ", frame \(k)" : "") }
        return rendered == nil ? "oracle: \(oracleFiles[k])" : "declared-policy oracle (\(labels.filter { $0.kind != .orientationNotApplied && $0.kind != .firstFrameOnly }.map(\.text).joined(separator: "; "))) rendered from \(oracleFiles[k])'s case"
    }
}

