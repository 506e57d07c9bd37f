import Foundation
import ImageCorpus

extension ContractFingerprint {
    /// A resizer config (``ResizerConfig``) for `resizer` that declares the fingerprint's design
    /// choices (kernel, light space, edge rule, antialiasing, precision, size rounding) and nothing
    /// that excuses a defect, to be reviewed and committed: a run then judges the resizer against
    /// this contract. A resizer read from a config keeps everything else that config says
    /// (programs, templates, operations, containers, orientation feeding); its `{dir}` is rewritten
    /// relative to the folder of `path`, where the new config will live.
    /// `nil` for a resizer that is not a command (the built-in and the mutants need no config) or
    /// when no resampling design could be inferred.
    public func config(for resizer: any Resizer, writtenTo path: String) -> String? {
        guard let command = resizer as? CommandResizer, finding("kernel")?.kind != .unknown else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var config = command.config?.file ?? ResizerConfig(name: command.name, template: command.template.text, timeout: command.timeout)
        let origin = command.config?.folder ?? folder
        let marker = "Contract inferred by 'imglab fingerprint' ("
        let inferred = marker + designChoices.joined(separator: "; ") + "): review it before committing; the lab judges the resizer against it."
        // A config written before says what was inferred then: that sentence is replaced, not repeated.
        let kept = config.about.map { about in about.range(of: marker).map { String(about[..<$0.lowerBound]) } ?? about + " " }
        config.about = (kept ?? "") + inferred
        let dir = Self.path(of: origin, from: folder)
        let moved: (String) -> String = { dir == "." ? $0 : $0.replacingOccurrences(of: "{dir}", with: "{dir}/" + dir) }
        config.template = config.template.map(moved)
        config.templates = config.templates?.mapValues(moved)
        config.policy = declaring(config.policy ?? ResizerConfig.PolicyFields())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(config) else { return nil }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `fields` with the inferred design choices written over its design keys; what the user
    /// declared about feeding (operations, containers, orientation) stays.
    func declaring(_ fields: ResizerConfig.PolicyFields) -> ResizerConfig.PolicyFields {
        let p = inferredPolicy
        var f = fields
        f.kernel = p.kernel?.rawValue ?? "none"
        f.lightSpace = p.lightSpace
        f.edge = p.edge
        f.rounding = p.rounding
        f.antialiasing = p.antialiasing ? nil : false
        f.intermediateBits = p.intermediateBits
        f.enlargingKernel = p.enlargingKernel?.rawValue
        f.arithmetic = p.arithmetic?.rawValue
        f.firstFrameOnly = p.firstFrameOnly || fields.firstFrameOnly == true ? true : nil
        return f
    }

    /// `target` as a path relative to `base` (both folders; `.` when they are the same).
    static func path(of target: String, from base: String) -> String {
        let t = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        let common = zip(t, b).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: b.count - common) + t.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
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
