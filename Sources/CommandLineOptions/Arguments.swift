/// A command line parsed against a command's declared options and positionals.
///
/// Accepts `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` to end options. Every
/// given value is validated by its declaration before the command runs; a repeatable option keeps
/// every occurrence in command-line order; any other given twice is a usage error.
public struct Arguments {
    /// The arguments that are not options, in order.
    public private(set) var positionals: [String] = []
    /// Whether `-h` or `--help` was given (nothing is validated then).
    public private(set) var wantsHelp = false
    /// Each option occurrence in command-line order: the option's name and its value (`nil` for a flag).
    private var given: [(name: String, value: String?)] = []

    /// Parses `argv` (the arguments after the verb).
    /// - Throws: ``UsageError`` for an unknown option, a missing or unwanted value, an option that
    ///   is not repeatable given twice (under any of its spellings), options of an
    ///   `exclusive` group given together, a value its declaration rejects, a missing required
    ///   option, or positionals the command does not take.
    public init(_ argv: [String], options: [any OptionDeclaration], exclusive: [[any OptionDeclaration]] = [],
         positionals expected: Positionals) throws(UsageError) {
        var spelled: [String: any OptionDeclaration] = [:]
        for option in options { for name in option.names + option.aliases { spelled[name] = option } }
        var i = 0, endOfOptions = false
        while i < argv.count {
            let arg = argv[i]
            i += 1
            if endOfOptions || !arg.hasPrefix("-") || arg == "-" { positionals.append(arg); continue }
            if arg == "--" { endOfOptions = true; continue }
            let parts = arg.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]), inline = parts.count > 1 ? String(parts[1]) : nil
            if name == "--help" || name == "-h" { wantsHelp = true; continue }
            guard let option = spelled[name] else {
                let near = EditDistance.nearest(to: name, among: Array(spelled.keys))
                throw UsageError("unknown option \(name)" + (near.map { ", did you mean \($0)?" } ?? ""))
            }
            if option.placeholder == nil {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                given.append((option.name, nil))
            } else if let inline {
                given.append((option.name, inline))
            } else {
                guard i < argv.count else { throw UsageError("\(name) needs a value: \(name) "
                    + "\(option.placeholder ?? "")") }
                given.append((option.name, argv[i]))
                i += 1
            }
        }
        guard !wantsHelp else { return }
        for group in exclusive where group.filter({ has($0) }).count > 1 {
            throw UsageError("give " + group.map(\.name).joined(separator: " or ") + ", not both")
        }
        for option in options {
            let values = given.filter { $0.name == option.name }.map(\.value)
            if !option.repeatable && values.count > 1 { throw UsageError("\(option.name) is given \(values.count) "
                + "times; give it once") }
            if option.isRequired && values.isEmpty { throw UsageError("\(option.name) \(option.placeholder ?? "") is "
                + "required") }
            for value in option.repeatable ? values : values.suffix(1) { try option.validate(value) }
        }
        try expected.check(positionals)
    }

    /// The option's value: the last occurrence, or its default when not given.
    public func value<V>(_ option: Option<V>) throws(UsageError) -> V {
        guard let last = given.last(where: { $0.name == option.name }) else { return option.fallback }
        return try option.convert(last.value)
    }

    /// Every occurrence of these options (of one value type), in command-line order.
    public func values<V>(_ options: Option<V>...) throws(UsageError) -> [V] {
        var result: [V] = []
        for occurrence in given {
            guard let option = options.first(where: { $0.name == occurrence.name }) else { continue }
            result.append(try option.convert(occurrence.value))
        }
        return result
    }

    /// Whether the option was given at all.
    public func has(_ option: any OptionDeclaration) -> Bool { given.contains { $0.name == option.name } }
}

/// The positional arguments a command takes: how they read in the usage line, how many, and
/// what to say when the count is wrong.
public struct Positionals: Sendable {
    /// As in the usage line: `FILE...`, `EXPECTED ACTUAL`, or empty.
    public var synopsis: String
    /// How many the command takes.
    public var count: ClosedRange<Int>
    /// The usage error when there are too few or too many.
    public var problem: String

    /// Positionals read as `synopsis`, `count` of them, `problem` said when the count is wrong.
    public init(synopsis: String, count: ClosedRange<Int>, problem: String) {
        self.synopsis = synopsis
        self.count = count
        self.problem = problem
    }

    /// No positional arguments.
    public static let none = Positionals(synopsis: "", count: 0...0, problem: "")

    /// A usage error when `positionals` does not fit.
    public func check(_ positionals: [String]) throws(UsageError) {
        guard !count.contains(positionals.count) else { return }
        if count == 0...0, let first = positionals.first { throw UsageError("unexpected argument '\(first)'") }
        throw UsageError(problem)
    }
}

/// A mistake in how a command was called: printed on one line with where its help is, exit status 2.
public struct UsageError: Error {
    public var message: String
    /// Whether the message ends by pointing at the command's `--help` (a mistake in the command
    /// line), or not (the run itself failed, e.g. a corpus that cannot be written).
    public var pointsToHelp: Bool
    public init(_ message: String, pointsToHelp: Bool = true) {
        self.message = message
        self.pointsToHelp = pointsToHelp
    }
}
