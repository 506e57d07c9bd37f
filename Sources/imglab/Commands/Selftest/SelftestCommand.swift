import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab selftest`: proves the lab catches every mutant of the catalogue and names it.
enum SelftestCommand: Command {
    static let name = "selftest"
    static let summary = "run every mutant (a catalogue of real resizer bugs) through the lab: the kill matrix"
    static let options: [any OptionDeclaration] = [SharedOptions.corpus, SharedOptions.profile, report, json, allPairs,
        mutants, SharedOptions.threads, filter]

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
        if let problem = LabExecutables.meterProblem() { throw UsageError(problem) }
        let reference = try SharedOptions.corpusFolder(args, command: name)
        let selftest = ScaleSelftest(reference: reference, filter: try args.value(filter),
                                     threads: try args.value(SharedOptions.threads))
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
