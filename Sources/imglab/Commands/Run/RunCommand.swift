import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab run`: the CI gate. Every (case, operation) pair of the corpus through a resizer
/// adapter, compared with its oracle, judged by the reviewed gates of `Corpus/gates.json`.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "run a resizer through the lab: every corpus case vs its oracle, gated; JSON, JUnit, report"
    static let exclusive: [[any OptionDeclaration]] = [[resizer, SharedOptions.resizerConfig], [inputs, shard],
        [inputs, SharedOptions.goldens], [SharedOptions.gates, DiffCommand.gate]]
    static let options: [any OptionDeclaration] = [resizer, SharedOptions.resizerConfig, SharedOptions.profile,
        SharedOptions.corpus, SharedOptions.gates, SharedOptions.filter, shard, report, json, junit,
        SharedOptions.threads, SharedOptions.goldens, inputs, ops, keepSources, require, DiffCommand.gate,
        SharedOptions.ciOutput]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let jsonPath = try args.value(json), junitPath = try args.value(junit)
        try OutputPaths.check(args, [json, junit], inputs: [])
        let profile = try args.value(SharedOptions.profile)
        let reportFolder = try OutputPaths.reportFolder(args, report, default: "Reports/\(profile.rawValue)")
        if let kept = try args.value(keepSources) { try OutputPaths.checkFolder(option: keepSources.name, kept) }
        let configured = try args.value(SharedOptions.resizerConfig), named = try args.value(resizer)
        let adapter = configured ?? named ?? BuiltinResizer()
        var lab = LabRun(profile: profile, corpus: "", resizer: adapter, inputs: try args.value(inputs),
            operations: try args.value(ops), filter: try args.value(SharedOptions.filter),
            shard: try args.value(shard) ?? (1, 1), threads: try args.value(SharedOptions.threads),
            goldens: try args.value(SharedOptions.goldens), gatesFile: try args.value(SharedOptions.gates),
            gate: try args.value(DiffCommand.gate), keepEvidence: reportFolder != nil,
            keepSources: try args.value(keepSources), requirements: try args.value(require) ?? [])
        if let problem = lab.problem { throw UsageError(problem) }
        lab.corpus = try SharedOptions.corpusFolder(args, command: name, profile: profile.corpus ?? .quick)
        RunScreen.declaredPolicy(adapter).map { print($0) }
        let tty = isatty(STDOUT_FILENO) == 1
        let files = LabRun.Files(json: jsonPath, junit: junitPath, report: reportFolder,
                                 afterWrite: try WriteFaultPoint.fromEnvironment())
        let outcome: RunSession.StreamedOutcome
        do {
            outcome = try lab.run(writing: files, status: { Console.line("imglab run: \($0)") }) { p in
                _ = profile == .scale ? p.costLine.map(Console.line) : Console.raw(p.terminalLine(onTerminal: tty))
            }
        } catch { printError("imglab run: \(error)"); return .usage }
        if tty { Console.raw("\r\u{1B}[K") }
        for w in outcome.results.warnings { printError("warning: \(w)") }
        let gatesFile = try args.value(SharedOptions.gates) ?? "\(lab.corpus)/\(GateBook.fileName)"
        for line in RunScreen.lines(outcome, gatesFile: gatesFile, report: reportFolder) { print(line) }
        let ci = CIOutput(try args.value(SharedOptions.ciOutput), environment: ProcessInfo.processInfo.environment)
        do { for line in try ci.emit(outcome, report: reportFolder) { print(line) } }
        catch { printError("imglab run: cannot write the step summary: \(error)"); return .usage }
        return outcome.tally.exitStatus == 0 ? .ok : .failure
    }

}
