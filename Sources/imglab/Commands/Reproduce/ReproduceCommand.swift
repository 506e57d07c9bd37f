import CommandLineOptions
import ImageReports
import Foundation
import ImageLab

/// `imglab reproduce BUG`: one documented resizer bug, reproduced by the catalogue's mutant on
/// the corpus pairs that trigger it, shown beside the correct output, measured and named.
enum ReproduceCommand: Command {
    static let name = "reproduce"
    static let summary = "reproduce a documented resizer bug (pink-tint, channel-swap, …) beside the correct output"
    static let positionals = Positionals(synopsis: "BUG", count: 0...Int.max, problem: "")
    static let list = Option.flag("--list", "every topic with its mutants, title, history and D/B references")
    static let report = SharedOptions.report("DIR/index.html, the bug beside the correct output",
        default: "Reports/reproduce-BUG")
    static let json = SharedOptions.json("write the results (schema imglab-reproduce/1, keys sorted) to FILE")
    static let pairs = Option.integer("--pairs", "N", "pairs to show in all; each mutant gets at least "
        + "3", default: 12, in: 1...200)
    static let options: [any OptionDeclaration] = [list, report, SharedOptions.corpus, json, pairs,
        SharedOptions.threads]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        try OutputPaths.check(args, [json], inputs: [])
        if try args.value(list) {
            guard args.positionals.isEmpty else { throw UsageError("--list takes no BUG") }
            print(MutantCatalogue.listing)
            return .ok
        }
        guard args.positionals.count == 1, let topic = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "which bug? one of \(known)" : "one BUG at a time, not "
                + "\(args.positionals.joined(separator: " ")); known: \(known)")
        }
        guard Reproduction.topics.contains(topic) else {
            throw UsageError("unknown bug '\(topic)'; known: \(known) ('imglab reproduce --list' tells their stories)")
        }
        let corpus = try SharedOptions.corpusFolder(args, command: name)
        guard let reproduction = Reproduction(topic: topic, corpus: corpus, limit: try args.value(pairs),
            threads: try args.value(SharedOptions.threads)) else {
            throw UsageError("unknown bug '\(topic)'; known: \(known) ('imglab reproduce --list' tells their stories)")
        }
        let report = try OutputPaths.reportFolder(args, Self.report, default: "Reports/reproduce-\(topic)")
        let jsonPath = try args.value(json)

        let started = Date()
        let outcome: Reproduction.Outcome
        do { outcome = try reproduction.run() } catch {
            printError("imglab reproduce: \(error)")
            return .usage
        }
        let r = outcome.results
        do { try ResultFiles.write(outcome, json: jsonPath, report: report) } catch {
            printError("imglab reproduce: cannot write the report or the results: \(error)")
            return .usage
        }
        print(ReproduceReport.summary(r))
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        print("report: \(report.map(ReportFolder.page) ?? "none")  (\(seconds) s)")
        return r.reproduced ? .ok : .failure
    }

    static var known: String { Reproduction.topics.joined(separator: ", ") }
}
