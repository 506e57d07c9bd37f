import Foundation
import ImageCorpus

extension ContractFingerprint {
    /// A resizer config (``ResizerConfig``) for `resizer` that declares the fingerprint's design
    /// choices (kernel, light space, edge rule, size rounding) and nothing that excuses a defect,
    /// to be reviewed and committed: a run then judges the resizer against this contract.
    /// `nil` for a resizer that is not a command (the built-in and the mutants need no config).
    public func config(for resizer: any Resizer) -> String? {
        guard let command = resizer as? CommandResizer else { return nil }
        let designs = findings.filter { $0.kind == .design }.map { "\($0.aspect): \($0.value)" }
        var object: [String: Any] = [
            "name": command.name,
            "about": "Written by 'imglab fingerprint': the design choices it inferred (" + designs.joined(separator: "; ")
                + "). Review them before committing: the lab judges the resizer against this contract.",
            "timeout": command.timeout,
            "template": command.template.text,
            "policy": ["kernel": inferredPolicy.kernel?.rawValue ?? "none", "lightSpace": inferredPolicy.lightSpace.rawValue,
                       "edge": inferredPolicy.edge.rawValue, "rounding": inferredPolicy.rounding.rawValue] as [String: Any],
        ]
        if !command.templates.isEmpty { object["templates"] = command.templates.mapValues(\.text) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
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
