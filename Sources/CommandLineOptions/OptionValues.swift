import Foundation

// The kinds of option value: flags, text, integers in a range, numbers with a minimum, choice
// lists and values parsed by the declaring command, each with its validation and usage error.

/// Spellings from one declaration string: `"-o, --output"` → `["-o", "--output"]`.
fileprivate func spellings(_ names: String) -> [String] {
    names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
}

/// The value text of a valued option (never `nil` once parsed; the empty string otherwise).
fileprivate func valueText(_ given: String?) -> String { given ?? "" }

extension Option where Value == Bool {
    /// A flag: `true` when given.
    public static func flag(_ names: String, _ help: String) -> Option {
        Option(names: spellings(names), placeholder: nil, help: help, fallback: false) { _ throws(UsageError) in true }
    }
}

extension Option where Value == String? {
    /// A text value, `nil` when not given (`default` only describes what the command then does).
    public static func text(_ names: String, _ placeholder: String, _ help: String,
        default described: String? = nil) -> Option {
        Option(names: spellings(names), placeholder: placeholder, help: help,
            notes: described.map { ["default: " + $0] } ?? [],
               fallback: nil) { given throws(UsageError) in valueText(given) }
    }
}

extension Option where Value == String {
    /// A text value with a default.
    public static func text(_ names: String, _ placeholder: String, _ help: String, default value: String) -> Option {
        Option(names: spellings(names), placeholder: placeholder, help: help, notes: ["default: " + value],
               fallback: value) { given throws(UsageError) in valueText(given) }
    }
}

extension Option where Value == Int {
    /// An integer in `range`, `value` when not given; `shownAs` describes a default that is not a constant.
    public static func integer(_ names: String, _ placeholder: String, _ help: String, default value: Int,
        shownAs: String? = nil,
                        in range: ClosedRange<Int>) -> Option {
        let spelled = spellings(names)
        let bounds = range.upperBound == Int.max ? "≥ \(range.lowerBound)"
            : "\(range.lowerBound)…\(range.upperBound)"
        return Option(names: spelled, placeholder: placeholder, help: help, notes: [bounds,
            "default: " + (shownAs ?? "\(value)")],
                      fallback: value) { given throws(UsageError) in
            guard let v = Int(valueText(given)), range.contains(v) else {
                throw UsageError("\(spelled.last ?? "") must be an integer "
                    + "\(range.upperBound == Int.max ? "" : "in ")\(bounds), not '\(valueText(given))'")
            }
            return v
        }
    }
}

extension Option where Value == Int {
    /// A number of bytes in `range`: digits with an optional binary suffix K, M, G or T
    /// (KiB, MiB, GiB, TiB; `B`/`iB` after it allowed), `value` when not given.
    public static func byteCount(_ names: String, _ placeholder: String, _ help: String, default value: Int,
        in range: ClosedRange<Int>) -> Option {
        let spelled = spellings(names)
        let bounds = "\(ByteCountText.text(range.lowerBound))…\(ByteCountText.text(range.upperBound))"
        return Option(names: spelled, placeholder: placeholder, help: help, notes: [bounds,
            "default: " + ByteCountText.text(value)],
                      fallback: value) { given throws(UsageError) in
            guard let v = ByteCountText.parse(valueText(given)), range.contains(v) else {
                throw UsageError("\(spelled.last ?? "") must be a size in \(bounds) (e.g. 512M, 2G), not "
                    + "'\(valueText(given))'")
            }
            return v
        }
    }
}

/// Byte counts as people type them: `1073741824`, `1G`, `512MiB`, `64k`.
public enum ByteCountText {
    /// The byte count `text` names, or `nil` when it is not digits with an optional K/M/G/T suffix
    /// or overflows.
    public static func parse(_ text: String) -> Int? {
        var t = text.trimmingCharacters(in: .whitespaces).uppercased()
        if t.hasSuffix("IB") { t.removeLast(2) } else if t.hasSuffix("B") { t.removeLast() }
        let shifts: [Character: Int] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var shift = 0
        if let last = t.last, let s = shifts[last] { shift = s; t.removeLast() }
        guard !t.isEmpty, t.allSatisfy(\.isASCII), t.allSatisfy(\.isNumber), let n = Int(t) else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : v
    }

    /// `n` in the largest binary unit that divides it: `1G`, `512M`, `1000`.
    public static func text(_ n: Int) -> String {
        for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10,
            "K")] where n >= 1 << shift && n % (1 << shift) == 0 {
            return "\(n >> shift)\(unit)"
        }
        return "\(n)"
    }
}

extension Option where Value == Double {
    /// A finite number ≥ `minimum` (and ≤ `maximum` when given), `value` when not given.
    public static func number(_ names: String, _ placeholder: String, _ help: String, default value: Double,
        atLeast minimum: Double,
                       atMost maximum: Double? = nil) -> Option {
        let spelled = spellings(names)
        let bounds = maximum.map { String(format: "%g…%g", minimum, $0) } ?? String(format: "≥ %g", minimum)
        return Option(names: spelled, placeholder: placeholder, help: help, notes: [bounds,
            String(format: "default: %g", value)],
                      fallback: value) { given throws(UsageError) in
            guard let v = Double(valueText(given)), v.isFinite, v >= minimum, v <= (maximum ?? .infinity) else {
                throw UsageError("\(spelled.last ?? "") must be a number \(maximum == nil ? "" : "in ")\(bounds), not "
                    + "'\(valueText(given))'")
            }
            return v
        }
    }
}

extension Option {
    /// One of a list of words: `first` (the default) or one of `others`, each word paired with
    /// its value; `aliases` are accepted too. Words match exactly.
    public static func choice(_ names: String, _ placeholder: String, _ help: String, default first: (String, Value),
                       _ others: [(String, Value)], aliases: [(String, Value)] = []) -> Option {
        choice(names, placeholder, help, [first] + others, aliases: aliases, fallback: first.1, defaultWord: first.0)
    }

    /// One of a list of words, each paired with its value; `nil` when not given. Words match
    /// exactly unless `ignoringCase`.
    public static func choice<Wrapped>(_ names: String, _ placeholder: String, _ help: String, _ choices: [(String, Wrapped)],
                                aliases: [(String,
                                    Wrapped)] = [], ignoringCase: Bool = false) -> Option where Value == Wrapped? {
        choice(names, placeholder, help, choices.map { ($0.0, Optional($0.1)) }, aliases: aliases.map { ($0.0,
            Optional($0.1)) },
               fallback: nil, defaultWord: nil, ignoringCase: ignoringCase)
    }

    private static func choice(_ names: String, _ placeholder: String, _ help: String, _ choices: [(String, Value)],
                               aliases: [(String, Value)], fallback: Value, defaultWord: String?,
                               ignoringCase: Bool = false) -> Option {
        let spelled = spellings(names)
        let words = choices.map(\.0)
        let listed = words.count < 2 ? words.joined()
            : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        let table = choices + aliases
        return Option(names: spelled, placeholder: placeholder, help: help,
                      notes: [words.joined(separator: ", ")] + (defaultWord.map { ["default: " + $0] } ?? [])
                          + (aliases.isEmpty ? [] : ["also " + aliases.map(\.0).joined(separator: ", ")]),
                      fallback: fallback) { given throws(UsageError) in
            let word = ignoringCase ? valueText(given).lowercased() : valueText(given)
            guard let match = table.first(where: { (ignoringCase ? $0.0.lowercased() : $0.0) == word }) else {
                throw UsageError("\(spelled.last ?? "") must be \(listed), not '\(valueText(given))'")
            }
            return match.1
        }
    }

    /// A value made by `parse`, which throws the usage error; `nil` when not given.
    public static func parsed<Wrapped>(_ names: String, _ placeholder: String, _ help: String,
            _ parse: @escaping @Sendable (String) throws(UsageError) -> Wrapped) -> Option where Value == Wrapped? {
        Option(names: spellings(names), placeholder: placeholder, help: help,
            fallback: nil) { given throws(UsageError) in
            try parse(valueText(given))
        }
    }
}

extension Option {
    /// A comma-separated list of known words (`--pipeline decode,info`), each paired with its
    /// value, in the order given and without repeats; `all` (when given) takes every choice;
    /// `nil` when the option is not given. An unknown word is a usage error listing the known ones.
    public static func list<Element: Sendable>(_ names: String, _ placeholder: String, _ help: String,
                                               _ choices: [(String, Element)], all: String? = nil) -> Option
        where Value == [Element]? {
        let spelled = spellings(names), known = choices.map(\.0).joined(separator: ", ") + (all.map { " or " + $0 } ?? "")
        return Option(names: spelled, placeholder: placeholder, help: help, fallback: nil) { given throws(UsageError) in
            let text = valueText(given)
            if let all, text == all { return choices.map(\.1) }
            var chosen: [(String, Element)] = []
            for word in text.split(separator: ",", omittingEmptySubsequences: false).map({
                $0.trimmingCharacters(in: .whitespaces)
            }) {
                guard let match = choices.first(where: { $0.0 == word }) else {
                    throw UsageError("\(spelled.last ?? ""): unknown '\(word)'; known: \(known)")
                }
                if !chosen.contains(where: { $0.0 == word }) { chosen.append(match) }
            }
            return chosen.map(\.1)
        }
    }
}
