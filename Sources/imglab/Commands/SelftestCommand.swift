import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab selftest`: proves the lab catches every mutant of the catalogue and names it.
enum SelftestCommand: Command {
    static let name = "selftest"
    static let summary = "run every mutant (a catalogue of real resizer bugs) through the lab: the kill matrix"
    static let report = SharedOptions.report("the report folder: PATH/index.html, the kill matrix and each mutant's "
        + "history and misses (not with --profile scale, which prints its kill matrix)", default: "Reports/selftest")
    static let json = SharedOptions.json("write the kill matrix (schema imglab-selftest/1) to FILE (not with --profile "
        + "scale, which prints its kill matrix)")
    static let allPairs = Option.flag("--all-pairs", "run every mutant on every pair, not only its triggers; slower "
        + "(not with --profile scale, which runs its four mutants on every pair)")
    static let mutants = Option.parsed("--mutant", "IDS", "run only these mutants, by comma-separated ids; 'imglab "
        + "reproduce --list' tells their stories (not with --profile scale, which runs its four performance "
        + "mutants)") { text throws(UsageError) in
        var chosen: [Mutant] = []
        for id in text.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            guard let m = MutantCatalogue.mutant(id) else {
                throw UsageError("--mutant: unknown mutant '\(id)' (known: "
                    + "\(MutantCatalogue.all.map(\.id).joined(separator: ", ")))")
            }
            chosen.append(m)
        }
        return chosen
    }
    static let filter = Option<String?>.text("--filter", "PATTERN", "with --profile scale, only the pairs whose id "
        + "CASE/OPERATION matches: a glob (* and ?) or, without wildcards, a substring; several separated by commas "
        + "(the quick profile runs each mutant on every pair it triggers, so it takes no filter)",
                                             default: "every pair")
    static let options: [any OptionDeclaration] = [SharedOptions.corpus, SharedOptions.profile, report, json, allPairs,
        mutants, SharedOptions.threads, filter]
    static let help = Help(about: """
        A harness earns trust by catching real bugs. Runs the built-in resizer over every pair (canaries
        first), then each mutant of the catalogue (the built-in resizer with one documented bug: pink tint,
        R↔B swap, premultiplication, orientation, 16-bit, sRGB averaging, …) over the pairs its triggers
        name, and prints the kill matrix: per mutant and gate family, named / caught / run. It passes when
        every mutant is caught and named on ≥ 90 % of its catches and the built-in resizer passes every pair.
        --profile quick runs the mutant catalogue over the committed corpus; --profile scale runs the
        performance mutants (right pixels, wrong cost) over the scale profile, each measured in a child
        process against the decode floor (see 'imglab run --profile scale').
        """, exitStatus: """
          0  every mutant caught and named (≥ 90 %), the built-in resizer passes every pair
          1  a mutant escaped, was misnamed too often, or the built-in resizer failed a pair
          2  usage error, or the run failed (corpus or gates unreadable, a canary passed)
        """, examples: ["imglab selftest                               the CI check, report in Reports/selftest/",
                        "imglab selftest --mutant argb-as-rgba,swap-rb --report none",
                        "imglab selftest --all-pairs --json /tmp/kill.json",
                        "imglab selftest --profile scale               the performance mutants: each must fail a scale "
                            + "pair, named by its cost"],
        docs: "docs/selftest-and-mutants.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        if try SharedOptions.profile(args, accepting: [.quick, .scale]) == .scale { return try runScale(args) }
        if args.has(filter) { throw UsageError("--filter needs --profile scale") }
        try OutputPaths.check(args, [json], inputs: [])
        let reportFolder = try OutputPaths.reportFolder(args, report, default: "Reports/selftest")
        let selftest = Selftest(corpus: try SharedOptions.corpusFolder(args, command: name),
                                mutants: try args.value(mutants) ?? MutantCatalogue.all,
                                allPairs: try args.value(allPairs), threads: try args.value(SharedOptions.threads))
        let started = Date()
        let matrix: KillMatrix
        do { matrix = try selftest.run { p in Console.line("[\(p.done)/\(p.total)] \(p.line)") } } catch {
            printError("imglab selftest: \(error)")
            return .usage
        }
        let seconds = Date().timeIntervalSince(started)
        for w in matrix.builtin.warnings { printError("warning: \(w)") }
        do { try ResultFiles.write(matrix, json: try args.value(json), report: reportFolder) } catch {
            printError("imglab selftest: cannot write the results: \(error)")
            return .usage
        }
        for line in SelftestScreen.lines(matrix, seconds: seconds, report: reportFolder) { print(line) }
        return matrix.passed ? .ok : .failure
    }

    /// `--profile scale`: the built-in and each performance mutant over the scale profile.
    static func runScale(_ args: Arguments) throws(UsageError) -> ExitStatus {
        if args.has(allPairs) || args.has(mutants) || args.has(json) || args.has(report) {
            throw UsageError("--profile scale takes none of --all-pairs, --mutant, --json, --report (it prints its "
                + "kill matrix)")
        }
        try Executable.requireMeter()
        let reference = try SharedOptions.corpusFolder(args, command: name)
        let selftest = ScaleSelftest(reference: reference, imglab: Executable.path, meter: Executable.meter,
                                     filter: try args.value(filter), threads: try args.value(SharedOptions.threads))
        let started = Date()
        let rows: [ScaleSelftest.Row]
        do { rows = try selftest.run { Console.line("imglab selftest: \($0)") } } catch {
            printError("imglab selftest: \(error)")
            return .usage
        }
        for line in SelftestScreen.scaleLines(rows, seconds: Date().timeIntervalSince(started)) { print(line) }
        return rows.allSatisfy(\.ok) ? .ok : .failure
    }
}
