/// Resolves the `--resizer` argument of `imglab run`, `bless` and friends into an adapter.
///
/// Grammar: `builtin` (``BuiltinResizer``); `mutant:ID` or a bare mutant id such as `swap-rb`
/// (the mutant of ``MutantCatalogue`` built on the built-in resizer).
public enum ResizerChoice {
    /// The words `--help` lists.
    public static var accepted: String {
        "builtin, mutant:ID (" + MutantCatalogue.all.map(\.id).joined(separator: ", ") + ")"
    }

    /// The adapter `text` names, or `nil` when it names none (the caller reports ``accepted``).
    public static func resolve(_ text: String) -> (any Resizer)? {
        if text == "builtin" { return BuiltinResizer() }
        let id = text.hasPrefix("mutant:") ? String(text.dropFirst("mutant:".count)) : text
        return MutantCatalogue.mutant(id).map { $0.make(BuiltinResizer()) }
    }
}
