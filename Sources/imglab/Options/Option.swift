import Foundation

/// What the parser and the help text know of one option, whatever its value type.
protocol OptionDeclaration: Sendable {
    /// Every spelling, short first (`-o`, `--output`); the last is the option's name in messages.
    var names: [String] { get }
    /// Older spellings, read as the option and named in its help line.
    var aliases: [String] { get }
    /// The value's placeholder in help and messages (`N`, `FILE`); `nil` for a flag.
    var placeholder: String? { get }
    /// The help line: the declared text, then the accepted values and the default.
    var helpLine: String { get }
    /// Whether every occurrence is kept (`--resizer A --resizer B`), not only the last.
    var repeatable: Bool { get }
    /// Whether the command cannot run without it.
    var isRequired: Bool { get }
    /// Throws the usage error the value would give, so a bad value stops the command before it works.
    func validate(_ text: String?) throws(UsageError)
}

extension OptionDeclaration {
    /// The name messages use: the long spelling.
    var name: String { names.last ?? "" }
}

/// One command-line option declared once: its spellings, placeholder, help line, default and
/// validation. The parser (``Arguments``), the OPTIONS section of `--help` (``HelpText``) and the
/// usage errors all come from this value.
struct Option<Value: Sendable>: OptionDeclaration {
    var names: [String]
    var aliases: [String] = []
    var placeholder: String?
    /// The declared help text, without the generated notes.
    var help: String
    /// Generated notes: the accepted values (a range, a choice list) and the default.
    var notes: [String] = []
    var repeatable = false
    var isRequired = false
    /// The value when the option is not given.
    var fallback: Value
    /// Turns the given text (`nil` for a flag) into the value, or throws the usage error.
    var convert: @Sendable (String?) throws(UsageError) -> Value

    var helpLine: String { notes.isEmpty ? help : help + " (" + notes.joined(separator: "; ") + ")" }

    func validate(_ text: String?) throws(UsageError) { _ = try convert(text) }

    /// The same option, kept at every occurrence.
    func repeated() -> Option { var o = self; o.repeatable = true; return o }

    /// The same option without a default: `nil` when not given.
    func optional() -> Option<Value?> {
        let convert = self.convert
        return Option<Value?>(names: names, aliases: aliases, placeholder: placeholder, help: help, notes: notes.filter { !$0.hasPrefix("default: ") },
                              repeatable: repeatable, isRequired: isRequired, fallback: nil) { given throws(UsageError) in try convert(given) }
    }

    /// The same option, also read under these spellings.
    func alsoSpelled(_ spellings: String...) -> Option {
        var o = self
        o.aliases += spellings
        o.notes.append("also " + spellings.joined(separator: ", "))
        return o
    }

    /// The same option, required.
    func required() -> Option { var o = self; o.isRequired = true; return o }
}

/// Spellings from one declaration string: `"-o, --output"` → `["-o", "--output"]`.
private func spellings(_ names: String) -> [String] {
    names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
}

/// The value text of a valued option (never `nil` once parsed; the empty string otherwise).
private func valueText(_ given: String?) -> String { given ?? "" }

extension Option where Value == Bool {
    /// A flag: `true` when given.
    static func flag(_ names: String, _ help: String) -> Option {
        Option(names: spellings(names), placeholder: nil, help: help, fallback: false) { _ throws(UsageError) in true }
    }
}

extension Option where Value == String? {
    /// A text value, `nil` when not given (`default` only describes what the command then does).
    static func text(_ names: String, _ placeholder: String, _ help: String, default described: String? = nil) -> Option {
        Option(names: spellings(names), placeholder: placeholder, help: help, notes: described.map { ["default: " + $0] } ?? [],
               fallback: nil) { given throws(UsageError) in valueText(given) }
    }
}

extension Option where Value == String {
    /// A text value with a default.
    static func text(_ names: String, _ placeholder: String, _ help: String, default value: String) -> Option {
        Option(names: spellings(names), placeholder: placeholder, help: help, notes: ["default: " + value],
               fallback: value) { given throws(UsageError) in valueText(given) }
    }
}

extension Option where Value == Int {
    /// An integer in `range`, `value` when not given; `shownAs` describes a default that is not a constant.
    static func integer(_ names: String, _ placeholder: String, _ help: String, default value: Int, shownAs: String? = nil,
                        in range: ClosedRange<Int>) -> Option {
        let spelled = spellings(names)
        let bounds = range.upperBound == Int.max ? "≥ \(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
        return Option(names: spelled, placeholder: placeholder, help: help, notes: [bounds, "default: " + (shownAs ?? "\(value)")],
                      fallback: value) { given throws(UsageError) in
            guard let v = Int(valueText(given)), range.contains(v) else {
                throw UsageError("\(spelled.last ?? "") must be an integer \(range.upperBound == Int.max ? "" : "in ")\(bounds), not '\(valueText(given))'")
            }
            return v
        }
    }
}

extension Option where Value == Double {
    /// A finite number ≥ `minimum`, `value` when not given.
    static func number(_ names: String, _ placeholder: String, _ help: String, default value: Double, atLeast minimum: Double) -> Option {
        let spelled = spellings(names)
        return Option(names: spelled, placeholder: placeholder, help: help, notes: [String(format: "≥ %g", minimum), String(format: "default: %g", value)],
                      fallback: value) { given throws(UsageError) in
            guard let v = Double(valueText(given)), v.isFinite, v >= minimum else {
                throw UsageError("\(spelled.last ?? "") must be a number \(String(format: "≥ %g", minimum)), not '\(valueText(given))'")
            }
            return v
        }
    }
}

extension Option {
    /// One of a list of words: `first` (the default) or one of `others`, each word paired with
    /// its value; `aliases` are accepted but not listed.
    static func choice(_ names: String, _ placeholder: String, _ help: String, default first: (String, Value),
                       _ others: [(String, Value)], aliases: [(String, Value)] = []) -> Option {
        choice(names, placeholder, help, [first] + others, aliases: aliases, fallback: first.1, defaultWord: first.0)
    }

    /// One of a list of words, each paired with its value; `nil` when not given.
    static func choice<Wrapped>(_ names: String, _ placeholder: String, _ help: String, _ choices: [(String, Wrapped)],
                                aliases: [(String, Wrapped)] = []) -> Option where Value == Wrapped? {
        choice(names, placeholder, help, choices.map { ($0.0, Optional($0.1)) }, aliases: aliases.map { ($0.0, Optional($0.1)) },
               fallback: nil, defaultWord: nil)
    }

    private static func choice(_ names: String, _ placeholder: String, _ help: String, _ choices: [(String, Value)],
                               aliases: [(String, Value)], fallback: Value, defaultWord: String?) -> Option {
        let spelled = spellings(names)
        let words = choices.map(\.0)
        let listed = words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        let table = choices + aliases
        return Option(names: spelled, placeholder: placeholder, help: help,
                      notes: [words.joined(separator: ", ")] + (defaultWord.map { ["default: " + $0] } ?? [])
                          + (aliases.isEmpty ? [] : ["also " + aliases.map(\.0).joined(separator: ", ")]),
                      fallback: fallback) { given throws(UsageError) in
            guard let match = table.first(where: { $0.0.lowercased() == valueText(given).lowercased() }) else {
                throw UsageError("\(spelled.last ?? "") must be \(listed), not '\(valueText(given))'")
            }
            return match.1
        }
    }

    /// A value made by `parse`, which throws the usage error; `nil` when not given.
    static func parsed<Wrapped>(_ names: String, _ placeholder: String, _ help: String,
                                _ parse: @escaping @Sendable (String) throws(UsageError) -> Wrapped) -> Option where Value == Wrapped? {
        Option(names: spellings(names), placeholder: placeholder, help: help, fallback: nil) { given throws(UsageError) in
            try parse(valueText(given))
        }
    }
}
