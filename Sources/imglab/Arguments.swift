/// A command line split into options, flags and positional arguments.
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, and `--` to end options.
struct Arguments {
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `argv` (without the command name). `valued` lists the options that take a value;
    /// `known` lists the flags. Unknown options are a ``UsageError``.
    init(_ argv: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        var endOfOptions = false
        while i < argv.count {
            let arg = argv[i]
            i += 1
            if endOfOptions || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" { endOfOptions = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if valued.contains(name) {
                if let inline { values[name, default: []].append(inline); continue }
                guard i < argv.count else { throw UsageError("\(name) needs a value") }
                values[name, default: []].append(argv[i])
                i += 1
            } else if known.contains(name) || name == "--help" || name == "-h" {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name == "-h" ? "--help" : name)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of an option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// An integer option, validated against a range.
    func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError("\(name) must be an integer in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return v
    }
}

/// A mistake in how a command was called: printed with the command's usage, exit status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Exit statuses of every imglab command.
enum ExitStatus: Int32 {
    /// Success.
    case ok = 0
    /// The command ran and found a failure (a file could not be decoded, a gate failed).
    case failure = 1
    /// The command line was wrong.
    case usage = 2
}
