import Foundation
import ImageCodecs
import ImageCore
import ImageCorpus

/// What a resizer does, inferred from its outputs on the calibration images
/// (``CalibrationImages``): the resampling design fitted among every kernel, transfer curve,
/// support, edge rule and pixel-centre convention (``DesignFit``), then alpha, channel order,
/// orientation, 16-bit samples and size rounding. Each finding carries its evidence and a
/// confidence; the design choices make the policy a run judges the resizer against
/// (``inferredPolicy``), while the defects stay defects.
public struct ContractFingerprint: Sendable, Hashable, Codable {
    /// One inferred property of the resizer.
    public struct Finding: Sendable, Codable, Hashable {
        /// What kind of finding: a design choice (judged against, reported once), a defect (always
        /// fails), as a correct resizer does, or not found out.
        public enum Kind: String, Sendable, Codable, Hashable {
            case design, defect, correct, unknown
        }
        /// The property (`kernel`, `light space`, `alpha`, …).
        public var aspect: String
        /// What the resizer does, in words (`lanczos3`, `sRGB-encoded values`).
        public var value: String
        public var kind: Kind
        /// 0…1: how much better the finding explains the outputs than the next explanation.
        public var confidence: Double
        /// The measurement behind it.
        public var evidence: String
    }

    /// The resizer's name.
    public var resizer: String
    /// The findings, in the order of ``CalibrationImages``.
    public var findings: [Finding]
    /// The design choices as a policy (kernel, light space, edge rule, size rounding); the other
    /// keys as the resizer declares them.
    public var inferredPolicy: ResizerPolicy
    /// The policy the resizer came with (the built-in's for a plain `cmd:`).
    public var declaredPolicy: ResizerPolicy
    /// The calibration images the resizer failed on, with its message.
    public var failures: [String]

    /// The finding of `aspect`, if made.
    public func finding(_ aspect: String) -> Finding? { findings.first { $0.aspect == aspect } }

    /// Whether any output could be judged: a finding other than the account of the calls is known.
    public var inferredAnything: Bool { findings.contains { $0.kind != .unknown && $0.aspect != "calls" } }

    /// Runs every calibration image through `resizer` (each written as a PNG file in a temporary
    /// folder the run removes, so a command-line resizer reads a real file) and infers its contract.
    public static func infer(_ resizer: any Resizer) -> ContractFingerprint {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-fingerprint-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var failures: [String] = []
        var calls = 0, declined = 0
        func run(_ name: String, _ source: Image, _ operation: LabOperation, as container: ContainerFormat = .png) -> Image? {
            let file = folder + "/\(name).\(container == .jpeg ? "jpg" : container.rawValue)"
            var options = EncodeOptions()
            options.writeOrientation = true
            options.jpegQuality = 100
            options.jpegSubsampling = .s444
            let written = (try? ImageCodecs.encode(source, as: container, options: options))
                .flatMap { bytes in (try? ImageCodecs.writeAtomically(bytes, to: file)).map { file } }
            calls += 1
            do { return try resizer.apply(operation, to: source, file: written) } catch {
                if case .unsupported = error { declined += 1 }
                failures.append("\(name): \(error)")
                return nil
            }
        }
        let shrink = run("shrink", CalibrationImages.shrink.source, CalibrationImages.shrink.operation)
        let enlarge = run("enlarge", CalibrationImages.enlarge.source, CalibrationImages.enlarge.operation)
        let alpha = run("alpha", CalibrationImages.alpha.source, CalibrationImages.alpha.operation)
        let oriented = [ContainerFormat.png, .jpeg].map { container in
            (container, run("oriented-\(container.rawValue)", CalibrationImages.oriented.source, CalibrationImages.oriented.operation, as: container))
        }
        let deep = [(CalibrationImages.deep.operation, run("deep", CalibrationImages.deep.source, CalibrationImages.deep.operation)),
                    (LabOperation.orient, run("deep-orient", CalibrationImages.deep.source, .orient))]
        let animated = run("animation", CalibrationImages.animation.source, CalibrationImages.animation.operation)
        let aspects = CalibrationImages.aspect.enumerated().map { i, probe in
            run("aspect-\(i)", probe.source, probe.operation)
        }

        var findings: [Finding] = []
        let ranked = DesignFit.rank(shrink: shrink, enlarge: enlarge)
        var policy = resizer.policy
        if let best = ranked.first {
            findings += ResamplingFindings.findings(best: best, ranked: ranked)
            policy.kernel = best.design.kernel
            policy.lightSpace = best.design.lightSpace
            policy.edge = best.design.edge
            policy.antialiasing = best.design.widensWhenShrinking
            policy.intermediateBits = best.design.intermediateBits
            policy.enlargingKernel = best.design.enlargingKernel
            policy.arithmetic = best.design.arithmetic == .exact ? nil : best.design.arithmetic
            findings.append(ResamplingFindings.channelOrder(shrink: shrink, best: best.candidate))
        } else {
            findings.append(Finding(aspect: "kernel", value: "not found out", kind: .unknown, confidence: 0,
                                    evidence: "no output of the shrink or the enlargement could be compared"))
        }
        let design = ranked.first?.candidate ?? DesignFit.Candidate(design: KernelOracle.Design(kernel: .lanczos3), centres: .aligned)
        let swapped = findings.contains { $0.aspect == "channel order" && $0.kind == .defect }
        if ranked.first != nil {
            findings.append(ProbeFindings.valueRange([(CalibrationImages.shrink, shrink), (CalibrationImages.enlarge, enlarge)],
                                                     best: design, swapped: swapped))
        }
        findings.append(ProbeFindings.alpha(alpha, design: design, swapped: swapped))
        let tags = CalibrationImages.everyOrientation.enumerated().map { i, probe in
            (probe, run("orientation-\(i)", probe.source, probe.operation))
        }
        let orientation = ProbeFindings.everyTag(ProbeFindings.orientation(byContainer: oriented, swapped: swapped), tags, swapped: swapped)
        findings.append(resizer.policy.appliesOrientation ? orientation : ProbeFindings.fedUpright(orientation))
        findings.append(ProbeFindings.deepSamples(deep, swapped: swapped))
        let animation = ProbeFindings.animation(animated)
        findings.append(animation)
        if animation.kind == .design { policy.firstFrameOnly = true }
        findings.append(ProbeFindings.calls(calls, failures: failures, declined: declined))
        let rounding = ProbeFindings.sizeRounding(aspects)
        findings.append(rounding.finding)
        if let rule = rounding.rule { policy.rounding = rule }
        return ContractFingerprint(resizer: resizer.name, findings: findings, inferredPolicy: policy, declaredPolicy: resizer.policy,
                                   failures: failures)
    }
}
