import ImageLab

/// What `imglab fingerprint` prints: the contract table (one line per finding: property, what
/// the resizer does, its kind and confidence, the evidence), the calibration images that failed,
/// and the policy a run would judge the resizer against.
public enum FingerprintScreen {
    public static func lines(_ f: ContractFingerprint) -> [String] {
        var lines = ["imglab fingerprint: \(f.resizer)", ""]
        let width = max(16, (f.findings.map(\.aspect.count).max() ?? 0) + 2)
        for finding in f.findings {
            let kind = finding.kind.label
            lines.append("  " + finding.aspect.padding(toLength: width, withPad: " ", startingAt: 0)
                + kind.padding(toLength: 8, withPad: " ", startingAt: 0) + finding.value
                + " (confidence \(Int((finding.confidence * 100).rounded())) %)")
            lines.append(String(repeating: " ", count: width + 10) + finding.evidence)
        }
        if !f.failures.isEmpty {
            lines += ["", "calibration images the resizer failed on:"] + f.failures.map { "  " + $0 }
        }
        let p = f.inferredPolicy
        guard f.finding("kernel")?.kind != .unknown else {
            return lines + ["", "contract: not inferred (no output of the shrink or the enlargement could be compared); no config written"]
        }
        lines += ["", "contract: kernel \(p.kernel?.rawValue ?? "none"), \(p.lightSpace.rawValue) light, \(p.edge.rawValue) edges, "
                  + "sizes rounded \(p.rounding.rawValue); defects: "
                  + (f.findings.filter { $0.kind == .defect }.map(\.aspect).joined(separator: ", ").nonEmpty ?? "none")]
        return lines
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
