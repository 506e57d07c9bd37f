import Foundation
import ImageCorpus
/// Resolves the `--resizer` argument of `imglab run`, `league`, `bless` and friends into an adapter.
///
/// Grammar: `builtin` (``BuiltinResizer``); `mutant:ID` or a bare mutant id such as `swap-rb`
/// (the mutant of ``MutantCatalogue`` built on the built-in resizer); `cmd:TEMPLATE` (a
/// ``CommandResizer`` running the shell command `TEMPLATE`, see ``CommandTemplate``, with the
/// built-in's policies, every operation declared); `config:FILE` (a ``ResizerConfig`` file:
/// templates and declared policies); `config:NAME` or a bare `NAME` of a config built into imglab
/// (``BundledResizers``: vipsthumbnail, imagemagick, pillow, imglab-cli) when no file has that path.
public enum ResizerChoice {
    /// The words `--help` lists.
    public static var accepted: String {
        "builtin, mutant:ID (" + MutantCatalogue.all.map(\.id).joined(separator: ", ") + "), cmd:TEMPLATE, config:FILE, or a bundled config: "
            + BundledResizers.configNames.joined(separator: ", ")
    }

    /// The built-in or mutant adapter `text` names, or `nil` when it names none (the caller
    /// reports ``accepted``). `cmd:` and `config:` need ``adapter(_:)``, which can say what is wrong.
    public static func resolve(_ text: String) -> (any Resizer)? {
        if text == "builtin" { return BuiltinResizer() }
        if text.hasPrefix("cmd:") || text.hasPrefix("config:") { return try? adapter(text) }
        let id = text.hasPrefix("mutant:") ? String(text.dropFirst("mutant:".count)) : text
        return MutantCatalogue.mutant(id).map { $0.make(BuiltinResizer()) }
    }

    /// The adapter `text` names.
    /// - Throws: ``ResizerConfigError`` for a bad template or config file, or a name that is
    ///   none of ``accepted`` (`path` is then the argument).
    public static func adapter(_ text: String) throws(ResizerConfigError) -> any Resizer {
        if text.hasPrefix("cmd:") {
            let body = String(text.dropFirst("cmd:".count))
            let template: CommandTemplate
            do { template = try CommandTemplate(body) } catch { throw ResizerConfigError(path: "--resizer", reason: error.description) }
            let program = body.split(separator: " ").first.map { $0.filter { $0 != "'" && $0 != "\"" } } ?? "sh"
            return CommandResizer(name: "cmd(\(program))", template: template)
        }
        if text.hasPrefix("config:") {
            let path = String(text.dropFirst("config:".count))
            if !FileManager.default.fileExists(atPath: path), let bundled = try BundledResizers.configPath(path) { return try ResizerConfig.load(bundled) }
            return try ResizerConfig.load(path)
        }
        if let bundled = try BundledResizers.configPath(text) { return try ResizerConfig.load(bundled) }
        guard let resizer = resolve(text) else {
            throw ResizerConfigError(path: "--resizer", reason: "must be one of \(accepted), not '\(text)'")
        }
        return resizer
    }
}
