import Foundation
import ImageCorpus

extension ContractFingerprint {
    /// A resizer config (``ResizerConfig``) for `resizer` that declares the fingerprint's design
    /// choices (kernel, light space, edge rule, size rounding) and nothing that excuses a defect,
    /// to be reviewed and committed: a run then judges the resizer against this contract.
    /// `nil` for a resizer that is not a command (the built-in and the mutants need no config) or
    /// when no resampling design could be inferred.
    public func config(for resizer: any Resizer) -> String? {
        guard let command = resizer as? CommandResizer, finding("kernel")?.kind != .unknown else { return nil }
        var object: [String: Any] = [
            "name": command.name,
            "about": "Written by 'imglab fingerprint': the design choices it inferred (" + designChoices.joined(separator: "; ")
                + "). Review them before committing: the lab judges the resizer against this contract.",
            "timeout": command.timeout,
            "template": command.template.text,
            "policy": policyObject,
        ]
        if !command.templates.isEmpty { object["templates"] = command.templates.mapValues(\.text) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The inferred design choices as a config's `policy` object.
    var policyObject: [String: Any] {
        let p = inferredPolicy
        var object: [String: Any] = ["kernel": p.kernel?.rawValue ?? "none", "lightSpace": p.lightSpace.rawValue,
                                     "edge": p.edge.rawValue, "rounding": p.rounding.rawValue]
        if !p.antialiasing { object["antialiasing"] = false }
        if let bits = p.intermediateBits { object["intermediateBits"] = bits }
        if let k = p.enlargingKernel { object["enlargingKernel"] = k.rawValue }
        if let a = p.arithmetic { object["arithmetic"] = a.rawValue }
        if p.firstFrameOnly { object["firstFrameOnly"] = true }
        return object
    }

    /// The fingerprint as JSON (schema `imglab-fingerprint/1`), keys sorted.
    public func jsonData() throws -> Data {
        struct Document: Encodable {
            var schema = "imglab-fingerprint/1"
            var fingerprint: ContractFingerprint
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(fingerprint: self))
    }
}
