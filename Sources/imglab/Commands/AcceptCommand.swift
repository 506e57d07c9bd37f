import CommandLineOptions
import ImageReports

/// `imglab accept BASELINE ACTUAL NAME...`: chosen actual files become the baseline, the previous
/// baseline kept in the folder's history (``BaselineAcceptance``).
enum AcceptCommand: Command {
    static let name = "accept"
    static let summary = "make chosen actual files the new baseline of a folder, keeping the old in its history"
    static let positionals = Positionals(synopsis: "BASELINE [ACTUAL NAME...]", count: 0...Int.max,
        problem: "give BASELINE ACTUAL NAME..., --from RESULTS.json, or BASELINE with --undo ID or --history")
    static let options: [any OptionDeclaration] = [from, match, undo, history]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let p = args.positionals, fault = try WriteFaultPoint.fromEnvironment()
        let undoing = try args.value(undo), results = try args.value(from), m = try args.value(match)
        if args.has(history) || undoing != nil, p.count != 1 {
            throw UsageError("--history and --undo take BASELINE alone")
        }
        if results != nil, !p.isEmpty { throw UsageError("--from takes the folders from RESULTS.json: give none") }
        if !args.has(history), undoing == nil, results == nil, p.count < 3 { throw UsageError(positionals.problem) }
        let outcome: BaselineAcceptance.Outcome
        do throws(AcceptError) {
            if args.has(history) {
                let entries = try BaselineHistory(baseline: p[0]).entries()
                let lines = entries.map(\.line).joined(separator: "\n")
                print(entries.isEmpty ? "imglab accept: \(p[0]) has no history" : lines)
                return .ok
            } else if let id = undoing {
                outcome = try BaselineAcceptance.undo(p[0], entry: id == "last" ? nil : id, afterWrite: fault)
            } else if let results {
                outcome = try BaselineAcceptance(resultsFile: results, afterWrite: fault).run()
            } else {
                outcome = try BaselineAcceptance(baseline: p[0], actual: p[1], match: m, names: Array(p[2...]),
                                                 afterWrite: fault).run()
            }
        } catch {
            printError("imglab accept: \(error)")
            if case .write = error { return .failure }
            return .usage
        }
        print(screen(outcome))
        return .ok
    }

    static func screen(_ o: BaselineAcceptance.Outcome) -> String {
        var lines = o.finished.map { "imglab accept: finished entry \($0), which a killed run had left part-way" }
        if let entry = o.entry {
            lines.append("imglab accept: recorded \(entry.line)")
            lines += entry.files.map { "  \($0.verb.padding(toLength: 9, withPad: " ", startingAt: 0)) \($0.path)" }
            lines.append("undo with: imglab accept '\(o.baseline)' --undo \(entry.id)")
        } else {
            lines.append("imglab accept: nothing to change")
        }
        if !o.alreadyAccepted.isEmpty {
            lines.append("already the baseline: " + o.alreadyAccepted.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
