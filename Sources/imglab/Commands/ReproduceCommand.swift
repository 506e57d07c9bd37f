import ImageReports
import Foundation
import ImageCodecs
import ImageLab

/// `imglab reproduce BUG`: one documented resizer bug, reproduced by the catalogue's mutant on
/// the corpus pairs that trigger it, shown beside the correct output, measured and named.
enum ReproduceCommand: Command {
    static let name = "reproduce"
    static let summary = "reproduce a documented resizer bug (pink-tint, channel-swap, …) beside the correct output; HTML report"
    static var help: String {
        """
        USAGE: imglab reproduce BUG [--report DIR] [--corpus DIR] [--json FILE] [--pairs N] [--threads N]
               imglab reproduce --list

        Reproduces one documented resizer bug and shows the evidence. imglab carries a catalogue
        of deliberately buggy resizers ("mutants"), each a few lines on top of the built-in one and
        each reproducing a real-world report (D1–D13 of DESIGN.md, B1–B29 of the resizer anchors).
        BUG names a topic of that catalogue; its mutants run on every corpus pair that triggers
        them, judged against the analytic oracle with the gates of CORPUS/gates.json as 'imglab
        run' does, and a handful of those pairs are shown (at most N in all: pairs where the lab
        caught the bug first, then a fixed choice that prefers colourful scenes and spans
        encodings and operations) beside the built-in resizer's output (the correct one).

        The terminal gets a short summary: per mutant, the pairs run, how many the lab caught (the
        gate failed or the resizer threw) and named, the diagnoses; per pair shown, the diagnosis
        and the number that exposes the bug. The report is ONE self-contained HTML file (no network): the history of the bug, then
        per pair the oracle, the correct and the buggy output side by side, with slider, blend,
        toggle, heat map and pixel-exact zoom; the exposing number beside the correct output's
        (for a colour cast: Δa*, Δb*, the hue angle and the direction in words, e.g.
        "pink/magenta"); the gate's failed clauses; the diagnosis (class, confidence, words).

        The bug reproduces when every mutant of the topic is caught on at least one pair and
        named (diagnosed as its class, or for a resizer that throws, its error text recognised) on
        at least 90 % of the pairs that catch it, the 'imglab selftest' rule, without exceptions.

        BUGS: \(Reproduction.topics.joined(separator: ", "))

        OPTIONS:
          --list          every topic with its mutants, title, history and D/B references
          --report DIR    where the report goes: DIR/index.html (default: Reports/reproduce-BUG;
                          'none' to skip it, as CI does)
          --corpus DIR    the corpus folder (default: Corpus); generate it with 'imglab corpus'
          --json FILE     write the results (schema imglab-reproduce/1, keys sorted) atomically
          --pairs N       pairs to show in all, 1…200 (default 12); each mutant gets at least 3
          --threads N     worker threads (default: the number of cores); results do not depend on it

        EXIT STATUS:
          0  the bug reproduced: caught and named
          1  it did NOT reproduce: the lab missed it or named something else (news: look at
             the report)
          2  bad usage (an unknown BUG lists the known ones), or the corpus cannot be read

        EXAMPLES:
          imglab reproduce --list
          imglab reproduce channel-swap                 red and blue swapped; Reports/reproduce-channel-swap/
          imglab reproduce pink-tint --report /tmp/pink
          imglab reproduce orientation --pairs 24 --json orientation.json
        """
    }

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--report", "--corpus", "--json", "--pairs", "--threads"], flags: ["--list"])
        if args.flag("--help") { print(help); return .ok }
        if args.flag("--list") {
            guard args.positionals.isEmpty else { throw UsageError("--list takes no BUG") }
            print(list())
            return .ok
        }
        guard args.positionals.count == 1, let topic = args.positionals.first else {
            throw UsageError(args.positionals.isEmpty ? "which bug? one of \(known)" : "one BUG at a time, not \(args.positionals.joined(separator: " ")); known: \(known)")
        }
        let limit = try args.int("--pairs", default: 12, in: 1...200)
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
        let corpus = args.value("--corpus") ?? "Corpus"
        guard let reproduction = Reproduction(topic: topic, corpus: corpus, limit: limit, threads: threads) else {
            throw UsageError("unknown bug '\(topic)'; known: \(known) ('imglab reproduce --list' tells their stories)")
        }
        let reportArg = args.value("--report") ?? "Reports/reproduce-\(topic)"
        let report: String? = reportArg == "none" ? nil : reportArg + "/index.html"

        let started = Date()
        let outcome: Reproduction.Outcome
        do { outcome = try reproduction.run() } catch {
            printError("imglab reproduce: \(error)")
            return .usage
        }
        let r = outcome.results
        do {
            if let report {
                let folder = URL(fileURLWithPath: report).deletingLastPathComponent().path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try ImageCodecs.writeAtomically(Array(ReproduceReport.html(outcome).utf8), to: report)
            }
            if let path = args.value("--json") { try ImageCodecs.writeAtomically([UInt8](try r.jsonData()), to: path) }
        } catch {
            printError("imglab reproduce: cannot write the report or the results: \(error)")
            return .usage
        }
        print(summary(r))
        print("report: \(report ?? "none")  (\(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
        return r.reproduced ? .ok : .failure
    }

    static var known: String { Reproduction.topics.joined(separator: ", ") }

    /// The terminal summary: per mutant its tally and per pair the exposing number, then the verdict.
    static func summary(_ r: ReproduceResults) -> String {
        let run = r.mutants.reduce(0) { $0 + $1.pairs }
        var lines = ["imglab reproduce \(r.topic): \(r.mutants.count) mutant\(r.mutants.count == 1 ? "" : "s") on the \(run) pairs of \(r.corpus) that trigger them; \(r.pairs.count) shown"]
        for m in r.mutants {
            lines.append("")
            lines.append("\(m.id) — \(m.title) [\(m.references.joined(separator: ", "))]")
            guard m.pairs > 0 else {
                lines.append("  no pair of \(r.corpus) triggers it: nothing to reproduce on this corpus")
                continue
            }
            lines.append("  caught \(m.caught)/\(m.pairs), named \(m.bugClass) on \(m.named)" + (m.diagnoses.isEmpty ? "" : " (diagnoses: \(m.diagnoses.joined(separator: ", ")))"))
            let width = r.pairs.filter { $0.mutant == m.id }.map(\.pair.count).max() ?? 0
            for p in r.pairs where p.mutant == m.id {
                let state = p.caught ? (p.named ? "named " : "caught") : "MISSED"
                let named = p.namedAs.map { $0 + (p.buggy.diagnosis.map { String(format: " %.2f", $0.confidence) } ?? "") } ?? "—"
                let exposing = p.exposing.map { "\($0.metric.label) \($0.text)" } ?? "nothing differs"
                lines.append("  \(state) \(p.pair.padding(toLength: width, withPad: " ", startingAt: 0))  \(named.padding(toLength: 20, withPad: " ", startingAt: 0)) \(exposing)")
            }
        }
        lines.append("")
        lines.append(ReproduceReport.headline(r))
        if !r.reproduced { lines.append("This is news: the lab no longer catches or names this bug. Look at the report.") }
        return lines.joined(separator: "\n")
    }

    /// `--list`: every topic, its mutants, their titles, histories and references.
    static func list() -> String {
        let topics = MutantCatalogue.topics
        var lines = ["\(topics.count) bug\(topics.count == 1 ? "" : "s") to reproduce, \(MutantCatalogue.all.count) mutant\(MutantCatalogue.all.count == 1 ? "" : "s") ('imglab reproduce BUG'):"]
        for (topic, mutants) in topics {
            lines.append("")
            lines.append(topic)
            for m in mutants {
                lines.append("  \(m.id) — \(m.title)  [\(m.references.joined(separator: ", ")); diagnosed as \(m.bugClass)]")
                lines += wrap(m.history, width: 96).map { "    " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Greedy word wrap.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
