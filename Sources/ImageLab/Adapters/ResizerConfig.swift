import ImageCorpus
import Foundation

/// A resizer config file (`--resizer-config FILE`, or `config:FILE` in `--resizer`): an external
/// resizer's command templates and declared policies, one JSON object:
///
/// ```json
/// {
///   "name": "vipsthumbnail",
///   "about": "libvips 8 vipsthumbnail, default options",
///   "programs": { "vips": ["vipsthumbnail"] },
///   "template": "{vips} {in} --size {width}x{height}! -o {out}",
///   "templates": { "crop": "vips crop {in} {out} {x} {y} {width} {height}" },
///   "timeout": 30,
///   "policy": { "lightSpace": "srgb", "rounding": "round", "appliesOrientation": true,
///               "operations": ["orient", "resize", "crop", "maxPixelSize"],
///               "containers": ["png", "jpeg", "gif", "tiff"], "firstFrameOnly": true }
/// }
/// ```
///
/// - `name` (required): the adapter's name in results and the league table.
/// - `template` and/or `templates` (by operation name, or `resize:MODE` for one resize mode,
///   the names of ``LabOperation``; the spellings of manifest version 1 such as `thumbnail` or
///   `resize:fit` are read as the current names): ``CommandTemplate``s; the most specific one is
///   used (`resize:aspectFit`, then `resize`, then `template`). Without `policy.operations`, the
///   keys of `templates` are the declared operations (or every operation when `template` is
///   given).
/// - `programs`: placeholder → candidate program names, the first found on `PATH` (or an
///   absolute path that exists) is substituted; when none is, the config cannot be used and
///   the error says which programs were looked for (the league skips it with that message).
/// - `{dir}` is the config file's folder (for scripts shipped beside it).
/// - `timeout`: seconds per call (default 30).
/// - `policy`: ``ResizerPolicy``; every field optional, defaults are the built-in's. When
///   `operations` is absent, the kinds with a template are declared.
public struct ResizerConfig: Sendable, Hashable, Codable {
    public var name: String
    public var about: String?
    public var programs: [String: [String]]?
    public var template: String?
    public var templates: [String: String]?
    public var timeout: Double?
    public var policy: PolicyFields?

    /// The `policy` object as written (every field optional).
    public struct PolicyFields: Sendable, Hashable, Codable {
        public var lightSpace: ResizerPolicy.LightSpace?
        public var rounding: SizeRounding?
        public var appliesOrientation: Bool?
        public var operations: [String]?
        public var containers: [String]?
        public var firstFrameOnly: Bool?
        /// A ``DeclaredKernel`` name (`lanczos3`, `mitchell`, `catmull-rom`, `triangle`, `box`,
        /// `nearest`) or `none`.
        public var kernel: String?
        public var edge: EdgeRule?
        /// Whether the kernel widens when shrinking.
        public var antialiasing: Bool?
        /// Bits per sample kept between the two passes.
        public var intermediateBits: Int?
        /// A ``DeclaredKernel`` name for enlargements, when they use another kernel.
        public var enlargingKernel: String?
        /// A ``ResampleArithmetic`` name: `exact` or `libvips-reduce`.
        public var arithmetic: String?
    }

    /// Reads and checks the config at `path` and builds its adapter.
    /// - Throws: ``ResizerConfigError`` (unreadable, not JSON, a bad template or policy, a
    ///   program not installed).
    public static func load(_ path: String) throws(ResizerConfigError) -> CommandResizer {
        guard let data = FileManager.default.contents(atPath: path) else { throw ResizerConfigError(path: path, reason: "cannot read the file") }
        let config: ResizerConfig
        do { config = try JSONDecoder().decode(ResizerConfig.self, from: data) } catch {
            throw ResizerConfigError(path: path, reason: "not a resizer config: \(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try config.resizer(folder: folder, path: path)
    }

    /// The adapter this config describes; `folder` is `{dir}`.
    public func resizer(folder: String, path: String = "(config)") throws(ResizerConfigError) -> CommandResizer {
        var fixed = ["dir": folder]
        for (placeholder, candidates) in (programs ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let found = candidates.lazy.compactMap({ Self.locate($0) }).first else {
                throw ResizerConfigError(path: path, reason: "not installed: none of \(candidates.joined(separator: ", ")) is on PATH", missingProgram: true)
            }
            fixed[placeholder] = found
        }
        func read(_ text: String) throws(ResizerConfigError) -> CommandTemplate {
            do { return try CommandTemplate(text, fixed: fixed) } catch { throw ResizerConfigError(path: path, reason: error.description) }
        }
        var perKind: [String: CommandTemplate] = [:]
        for (written, text) in (templates ?? [:]).sorted(by: { $0.key < $1.key }) {
            let kind = ManifestV1Names.operationName(written)
            guard ResizerPolicy.allOperations.contains(kind) || ResizerPolicy.resizeModes.contains(kind) else {
                throw ResizerConfigError(path: path, reason: "templates: unknown operation '\(written)' (keys: \((ResizerPolicy.allOperations + ResizerPolicy.resizeModes).joined(separator: ", ")))")
            }
            guard perKind[kind] == nil else {
                throw ResizerConfigError(path: path, reason: "templates: '\(written)' and another key both name \(kind)")
            }
            perKind[kind] = try read(text)
        }
        let fallback: CommandTemplate
        if let template { fallback = try read(template) } else {
            guard let first = perKind.sorted(by: { $0.key < $1.key }).first?.value else {
                throw ResizerConfigError(path: path, reason: "no template: give 'template' or 'templates'")
            }
            fallback = first
        }
        let p = policy
        let declared = p?.operations ?? (template == nil ? (ResizerPolicy.allOperations + ResizerPolicy.resizeModes).filter { perKind[$0] != nil } : nil)
        var kernel: DeclaredKernel? = .lanczos3
        if let name = p?.kernel {
            guard name == "none" || DeclaredKernel(rawValue: name) != nil else {
                throw ResizerConfigError(path: path, reason: "policy: unknown kernel '\(name)' (kernels: \(DeclaredKernel.allCases.map(\.rawValue).joined(separator: ", ")), none)")
            }
            kernel = DeclaredKernel(rawValue: name)
        }
        var enlarging: DeclaredKernel?
        if let name = p?.enlargingKernel {
            guard let k = DeclaredKernel(rawValue: name) else {
                throw ResizerConfigError(path: path, reason: "policy: unknown enlargingKernel '\(name)' (kernels: \(DeclaredKernel.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            enlarging = k
        }
        var arithmetic: ResampleArithmetic?
        if let name = p?.arithmetic {
            guard let a = ResampleArithmetic(rawValue: name) else {
                throw ResizerConfigError(path: path, reason: "policy: unknown arithmetic '\(name)' (\(ResampleArithmetic.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            arithmetic = a
        }
        let resolved = ResizerPolicy(lightSpace: p?.lightSpace ?? .linear, rounding: p?.rounding ?? .builtin,
                                     appliesOrientation: p?.appliesOrientation ?? true, operations: declared,
                                     containers: p?.containers, firstFrameOnly: p?.firstFrameOnly ?? false,
                                     kernel: kernel, edge: p?.edge ?? .renormalize, antialiasing: p?.antialiasing ?? true,
                                     intermediateBits: p?.intermediateBits, enlargingKernel: enlarging, arithmetic: arithmetic)
        if let problem = resolved.validationProblem() { throw ResizerConfigError(path: path, reason: "policy: \(problem)") }
        let seconds = timeout ?? 30
        guard seconds > 0, seconds.isFinite else { throw ResizerConfigError(path: path, reason: "timeout must be a positive number of seconds") }
        var resizer = CommandResizer(name: name, template: fallback, templates: perKind, policy: resolved, timeout: seconds)
        resizer.declaresPolicy = policy != nil
        resizer.config = (self, folder)
        return resizer
    }

    /// The full path of `program`: itself when it contains a `/` and is executable, else the
    /// first executable of that name in `PATH`.
    public static func locate(_ program: String) -> String? {
        let fm = FileManager.default
        if program.contains("/") { return fm.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + program
            if fm.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A resizer config that cannot be used.
public struct ResizerConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The config file.
    public var path: String
    /// What is wrong.
    public var reason: String
    /// Whether the reason is a program that is not installed (the league skips such a resizer).
    public var missingProgram: Bool = false

    public var description: String { "\(path): \(reason)" }
}
