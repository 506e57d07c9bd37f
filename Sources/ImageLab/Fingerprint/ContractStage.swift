import Foundation

/// The first stage of a run for a resizer that declares no policy (a plain `cmd:`, or a config
/// without a `policy` object): its contract is fingerprinted (``ContractFingerprint``) and the
/// design choices it shows become the policy it is judged against, so sRGB averaging, another
/// kernel or an 8-bit intermediate are reported once, not as a hundred failures. Defects are
/// never adopted (pixel centres, a power curve, wrap-around edges, orientation, alpha, channel
/// order, 16 bits): those pairs fail and are diagnosed. What the user requires stays required.
public enum ContractStage {
    /// A property of the built-in design a user can require of the resizer whatever its
    /// fingerprint shows (`--require`): the pairs it costs then fail and are named.
    public enum Requirement: String, Sendable, Hashable, CaseIterable {
        /// Average in linear light (an sRGB-averaging resizer fails where fine detail darkens).
        case linearLight = "linear-light"
        /// Widen the kernel when shrinking (a fixed support fails where it aliases).
        case antialiasing
        /// Keep full precision between the passes (no n-bit intermediate).
        case fullPrecision = "full-precision"
        /// Resize every frame of an animation.
        case everyFrame = "every-frame"
        /// All of the built-in design: no fingerprint; judged as the built-in resizer is.
        case builtinDesign = "builtin-design"

        /// The requirements of a comma-separated list of their names, or `nil` when a name is unknown or none is given.
        public static func parseList(_ text: String) -> Set<Requirement>? {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let list = names.compactMap(Requirement.init(rawValue:))
            return list.count == names.count && !list.isEmpty ? Set(list) : nil
        }

        /// Why `text` is not a list of requirements, in one line.
        public static func listProblem(_ text: String) -> String {
            "takes a comma-separated list of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'"
        }
    }

    /// `resizer` with the policy it is judged against, and the fingerprint behind it (`nil` when
    /// the resizer declares its policy, is not a command, or the built-in design is required).
    public static func prepare(_ resizer: any Resizer, requiring: Set<Requirement> = [])
        -> (resizer: any Resizer, fingerprint: ContractFingerprint?) {
        guard var command = resizer as? CommandResizer, !command.declaresPolicy, !requiring.contains(.builtinDesign) else {
            return (resizer, nil)
        }
        let fingerprint = ContractFingerprint.infer(command)
        command.policy = fingerprint.contractPolicy(requiring: requiring)
        return (command, fingerprint)
    }

    /// `phrases` joined by semicolons, or `none`.
    static func listed(_ phrases: [String]) -> String { phrases.isEmpty ? "none" : phrases.joined(separator: "; ") }

    /// What a run says before its pairs: the contract inferred, the design choices it excuses and
    /// the defects it found, and how to see more or require more.
    public static func summary(_ fingerprint: ContractFingerprint, judgedBy policy: ResizerPolicy) -> String {
        guard fingerprint.finding("kernel")?.kind != .unknown else {
            return "\(fingerprint.resizer) declares no policy and its contract could not be inferred (no calibration output "
                + "could be compared); judged against the built-in design. 'imglab fingerprint' shows why."
        }
        return "\(fingerprint.resizer) declares no policy; its fingerprint gives the contract it is judged against: \(policy.summary)."
            + "\n  design choices (reported here once): " + listed(fingerprint.designChoices)
            + "\n  defects found (their pairs fail): " + listed(fingerprint.defects)
            + "\n  evidence: imglab fingerprint --resizer …; to require the built-in design: --require linear-light,antialiasing,"
            + "full-precision,every-frame or builtin-design"
    }
}


extension ContractFingerprint {
    /// The policy a run judges the resizer against: the inferred design choices (kernel, light
    /// space, edge rule unless it wraps, antialiasing, intermediate precision or a library's arithmetic, size rounding,
    /// first frame only), less what `requiring` keeps as the built-in design. When no resampling
    /// design could be inferred, the resizer's own policy.
    public func contractPolicy(requiring: Set<ContractStage.Requirement> = []) -> ResizerPolicy {
        guard finding("kernel")?.kind != .unknown else { return declaredPolicy }
        var p = inferredPolicy
        p.inferred = true
        if p.edge == .wrap { p.edge = .renormalize }
        if requiring.contains(.linearLight) { p.lightSpace = .linear }
        if requiring.contains(.antialiasing) { p.antialiasing = true }
        if requiring.contains(.fullPrecision) { p.intermediateBits = nil; p.arithmetic = nil }
        if requiring.contains(.everyFrame) { p.firstFrameOnly = false }
        return p
    }

    /// The design choices found, one phrase each (`kernel lanczos3`, `light space: sRGB-encoded values …`).
    public var designChoices: [String] { findings.filter { $0.kind == .design }.map { "\($0.aspect): \($0.value)" } }

    /// The defects found, one phrase each.
    public var defects: [String] { findings.filter { $0.kind == .defect }.map { "\($0.aspect): \($0.value)" } }
}
