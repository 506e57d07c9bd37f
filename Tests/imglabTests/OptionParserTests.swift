import Testing
@testable import imglab
@testable import CommandLineOptions

/// The option parser and the help text, both generated from the commands' declarations.
@Suite("Option parser")
struct OptionParserTests {
    static let threads = Option.integer("--threads", "N", "worker threads", default: 4, in: 1...256)
    static let resizer = Option<String?>.text("--resizer", "R", "a resizer").repeated()
    static let config = Option.parsed("--resizer-config", "FILE", "a config") { text throws(UsageError) in "config:" + text }.repeated()
    static let json = Option.flag("--json", "print JSON")
    static let output = Option<String?>.text("-o, --output", "FILE", "where to write").required()
    static let options: [any OptionDeclaration] = [threads, resizer, config, json]

    static func parse(_ argv: [String], _ options: [any OptionDeclaration] = options, exclusive: [[any OptionDeclaration]] = [],
                      positionals: Positionals = .none) throws(UsageError) -> Arguments {
        try Arguments(argv, options: options, exclusive: exclusive, positionals: positionals)
    }

    /// The message of the usage error `argv` gives, or nil when it parses.
    static func problem(_ argv: [String], _ options: [any OptionDeclaration] = options, exclusive: [[any OptionDeclaration]] = [],
                        positionals: Positionals = .none) -> String? {
        do throws(UsageError) { _ = try parse(argv, options, exclusive: exclusive, positionals: positionals); return nil } catch { return error.message }
    }

    @Test("an unknown option is a usage error naming it")
    func unknownOption() {
        #expect(Self.problem(["--bogus"]) == "unknown option --bogus")
        #expect(Self.problem(["--threads", "2", "--thread=3"]) == "unknown option --thread, did you mean --threads?")
    }

    @Test("a valued option at the end of the line is missing its value; a flag given a value is refused")
    func missingValue() {
        #expect(Self.problem(["--threads"]) == "--threads needs a value: --threads N")
        #expect(Self.problem(["--json=yes"]) == "--json takes no value")
    }

    @Test("a repeatable option keeps every occurrence, in command-line order across its options; another given twice is refused")
    func repeatedOption() throws {
        let args = try Self.parse(["--resizer", "builtin", "--resizer-config", "a.json", "--resizer=cmd:x {in} {out}", "--resizer-config=b.json"])
        #expect(try args.values(Self.resizer, Self.config).compactMap { $0 } == ["builtin", "config:a.json", "cmd:x {in} {out}", "config:b.json"])
        #expect(try args.values(Self.resizer).compactMap { $0 } == ["builtin", "cmd:x {in} {out}"])
        // An option that is not repeatable may be given once.
        #expect(Self.problem(["--threads", "2", "--threads", "7"]) == "--threads is given 2 times; give it once")
    }

    @Test("--name=value is --name value, and a value may contain '='")
    func inlineValue() throws {
        #expect(try Self.parse(["--threads=3"]).value(Self.threads) == 3)
        #expect(try Self.parse(["--resizer=cmd:a=b"]).value(Self.resizer) == "cmd:a=b")
        #expect(try Self.parse([]).value(Self.threads) == 4, "the declared default")
    }

    @Test("a value out of range names the option and the range")
    func rangeViolation() throws {
        #expect(Self.problem(["--threads", "0"]) == "--threads must be an integer in 1…256, not '0'")
        #expect(Self.problem(["--threads", "many"]) == "--threads must be an integer in 1…256, not 'many'")
        let scale = Option.number("--scale", "S", "points to pixels", default: 1, atLeast: 0.01)
        #expect(Self.problem(["--scale", "inf"], [scale]) == "--scale must be a number ≥ 0.01, not 'inf'")
        let profile = Option.choice("--profile", "P", "the profile", default: ("quick", 1), [("full", 2)])
        #expect(Self.problem(["--profile", "medium"], [profile]) == "--profile must be quick or full, not 'medium'")
        #expect(try Self.parse(["--profile", "full"], [profile]).value(profile) == 2)
        #expect(Self.problem(["--profile", "Full"], [profile]) == "--profile must be quick or full, not 'Full'", "words match exactly")
        let format = Option<Int?>.choice("--format", "NAME", "a container", [("png", 1), ("jpeg", 2)], aliases: [("jpg", 2)], ignoringCase: true)
        #expect(try Self.parse(["--format", "JPG"], [format]).value(format) == 2)
        let replay = Option.integer("--replay", "I", "an input number", default: 0, in: 0...Int.max).optional()
        #expect(Self.problem(["--replay", "-1"], [replay]) == "--replay must be an integer ≥ 0, not '-1'")
        #expect(try Self.parse([], [replay]).value(replay) == nil)
    }

    @Test("options of an exclusive group given together are refused, by name, before their values are read")
    func exclusiveGroup() {
        let problem = Self.problem(["--resizer", "a", "--resizer-config", "b"], exclusive: [[Self.resizer, Self.config]])
        #expect(problem == "give --resizer or --resizer-config, not both")
        #expect(Self.problem(["--resizer", "a", "--resizer", "b"], exclusive: [[Self.resizer, Self.config]]) == nil)
    }

    @Test("required options and positional counts are checked; --help skips every check")
    func requiredAndPositionals() throws {
        #expect(Self.problem(["in.png"], [Self.output], positionals: ResizeCommand.positionals) == "--output FILE is required")
        #expect(Self.problem(["-o", "x.png"], [Self.output], positionals: ResizeCommand.positionals) == "give exactly one input file")
        #expect(Self.problem(["stray"]) == "unexpected argument 'stray'")
        let args = try Self.parse(["--threads", "0", "stray", "--help"])
        #expect(args.wantsHelp)
        #expect(try Self.parse(["-o", "out.png", "--", "-in.png"], [Self.output], positionals: ResizeCommand.positionals).positionals == ["-in.png"])
    }

    @Test("--help lists every declared option of every command, with its placeholder")
    func helpListsEveryOption() {
        for command in Imglab.commands {
            let help = HelpText.render(command, program: "imglab")
            #expect(help.hasPrefix("USAGE: imglab \(command.name)"), "\(command.name)")
            for option in command.options {
                let entry = option.names.joined(separator: ", ") + (option.placeholder.map { " " + $0 } ?? "")
                #expect(help.contains("\n  " + entry), "\(command.name) --help lacks \(entry)")
            }
            #expect(help.contains("EXAMPLES:"), "\(command.name)")
        }
    }

    @Test("every command's declared defaults pass its own validation")
    func defaultsAreValid() throws {
        for command in Imglab.commands {
            for option in command.options where option.placeholder == nil { try option.validate(nil) }
        }
        #expect(try Self.parse([]).value(Self.json) == false)
        #expect(try Self.parse(["--json"]).value(Self.json) == true)
    }
}
