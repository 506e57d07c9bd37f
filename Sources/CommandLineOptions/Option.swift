import Foundation

/// What the parser and the help text know of one option, whatever its value type.
public protocol OptionDeclaration: Sendable {
    /// Every spelling, short first (`-o`, `--output`); the last is the option's name in messages.
    var names: [String] { get }
    /// Older spellings, read as the option and named in its help line.
    var aliases: [String] { get }
    /// The value's placeholder in help and messages (`N`, `FILE`); `nil` for a flag.
    var placeholder: String? { get }
    /// The help line: the declared text, then the accepted values and the default.
    var helpLine: String { get }
    /// What the option means in one phrase, the same in every command that takes it (the row of
    /// the docs' option table, ``OptionTable``).
    var meaning: String { get }
    /// Whether every occurrence is kept (`--resizer A --resizer B`), not only the last.
    var repeatable: Bool { get }
    /// Whether the command cannot run without it.
    var isRequired: Bool { get }
    /// Throws the usage error the value would give, so a bad value stops the command before it works.
    func validate(_ text: String?) throws(UsageError)
}

extension OptionDeclaration {
    /// The name messages use: the long spelling.
    public var name: String { names.last ?? "" }
}

/// One command-line option declared once: its spellings, placeholder, help line, default and
/// validation. The parser (``Arguments``), the OPTIONS section of `--help` (imglab's `HelpText`) and the
/// usage errors all come from this value.
public struct Option<Value: Sendable>: OptionDeclaration {
    public var names: [String]
    public var aliases: [String] = []
    public var placeholder: String?
    /// The declared help text, without the generated notes.
    public var help: String
    /// Generated notes: the accepted values (a range, a choice list) and the default.
    public var notes: [String] = []
    public var repeatable = false
    public var isRequired = false
    /// The meaning declared with ``meaning(_:)``; `nil`: the help text's first clause.
    public var declaredMeaning: String? = nil
    /// The value when the option is not given.
    public var fallback: Value
    /// Turns the given text (`nil` for a flag) into the value, or throws the usage error.
    public var convert: @Sendable (String?) throws(UsageError) -> Value

    public var helpLine: String { notes.isEmpty ? help : help + " (" + notes.joined(separator: "; ") + ")" }

    public func validate(_ text: String?) throws(UsageError) { _ = try convert(text) }

    /// The declared meaning, else the help text up to its first `;`, `:` or parenthesis.
    public var meaning: String {
        if let declaredMeaning { return declaredMeaning }
        let stops = ["; ", ": ", " (", ", e.g."].compactMap { help.range(of: $0)?.lowerBound }
        return String(help[..<(stops.min() ?? help.endIndex)])
    }

    /// The same option with `text` as its one meaning across commands (when each command words
    /// its help line differently).
    public func meaning(_ text: String) -> Option { var o = self; o.declaredMeaning = text; return o }

    /// The same option, kept at every occurrence.
    public func repeated() -> Option { var o = self; o.repeatable = true; return o }

    /// The same option without a default: `nil` when not given.
    public func optional() -> Option<Value?> {
        let convert = self.convert
        let notes = self.notes.filter { !$0.hasPrefix("default: ") }
        return Option<Value?>(names: names, aliases: aliases, placeholder: placeholder, help: help, notes: notes,
                              repeatable: repeatable, isRequired: isRequired, declaredMeaning: declaredMeaning,
                              fallback: nil) { given throws(UsageError) in try convert(given) }
    }

    /// The same option, also read under these spellings.
    public func alsoSpelled(_ spellings: String...) -> Option {
        var o = self
        o.aliases += spellings
        o.notes.append("also " + spellings.joined(separator: ", "))
        return o
    }

    /// The same option, required.
    public func required() -> Option { var o = self; o.isRequired = true; return o }
}
