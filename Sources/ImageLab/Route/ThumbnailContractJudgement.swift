import ImageCore
import ImageCorpus
import ImageMetrics

/// The second chance of a JPEG or still WebP thumbnail (``ScaledDecode``): the ImageIO contract
/// lets a resizer start a `maxPixelSize` thumbnail from the file decoded at 1/d (in the DCT
/// domain, or by libwebp's rescaler), an image averaged in gamma-encoded values. A resizer that keeps the
/// contract can fail against the full decode's oracle by that difference alone, so a pair that
/// failed is judged again against the oracle rendered from the file decoded at 1/d
/// (``ScaledThumbnailOracle``): the kernel-exact oracle of the kernel a resizer declares, by the
/// kernel families, else the box oracle by the family that judged it. A pass there is a pass,
/// labelled ``PolicyLabel/Kind/thumbnailScaledDecode`` with both findings.
enum ThumbnailContractJudgement {
    /// A pass against the contract's oracle.
    struct Pass {
        var judgement: Judgement
        var expected: ComparedImage
        /// The index of the gate family that judged it.
        var family: Int
        var label: PolicyLabel
    }

    /// The pass of `actual` against the contract's oracle, or `nil` when the contract gives the
    /// pair no reduced scale, the oracle cannot be rendered, or the output fails there too.
    static func judge(_ pair: LabPair, file: [UInt8], source: Image, operation: LabOperation, actual: ComparedImage,
                      policy: ResizerPolicy, gates: GateBook, canaries: [Canaries.Failure], fullDecodeFailure: Judgement) -> Pass? {
        let display = source.displaySize
        guard let placement = try? OracleGeometry.placement(of: operation, width: display.width, height: display.height) else { return nil }
        let design: KernelOracle.Design, oracleKind: GateBook.OracleKind
        if let kernel = policy.kernel {
            design = KernelOracle.Design(kernel: kernel, lightSpace: policy.lightSpace, edge: policy.edge)
            oracleKind = .kernel
        } else {
            design = KernelOracle.Design(kernel: .box)
            oracleKind = .box
        }
        guard let familyIndex = gates.family(of: pair, oracle: oracleKind),
              let rendered = try? ScaledThumbnailOracle.render(file: file, operation: operation, placement: placement, design: design) else { return nil }
        let what = oracleKind == .kernel ? "kernel-exact oracle (\(design.kernel.rawValue), \(design.lightSpace.rawValue) light)" : "box oracle"
        let how = pair.record.container == "webp" ? "by libwebp's rescaler" : "in the DCT domain"
        let expected = ComparedImage(image: rendered.image, name: "\(what) of \(pair.record.file) decoded at 1/\(rendered.denominator) (the thumbnail contract's scale)",
                                     container: .png)
        let stage = FrameJudgement(family: gates.file.families[familyIndex].name, gate: gates.gates[familyIndex],
                                   canaries: canaries, kernelJudged: oracleKind == .kernel)
        let judgement = stage.judge(expected: expected, actual: actual, source: source.format, diagnosing: .never)
        guard judgement.passed else { return nil }
        let label = PolicyLabel(.thumbnailScaledDecode, "passes against the \(what) of the file decoded at 1/\(rendered.denominator) \(how), as the ImageIO thumbnail contract allows; against the full decode's oracle: \(fullDecodeFailure.failedClauses.joined(separator: "; "))")
        return Pass(judgement: judgement, expected: expected, family: familyIndex, label: label)
    }
}
