import CommandLineOptions
import Foundation
import ImageReports

/// `imglab diff EXPECTED ACTUAL`: compares two images (or two folders of them) by value, names
/// the likely bug, and gates, reports or prints the result (``DiffRequest``).
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "compare two images by value: metrics, alpha views, metadata diff, diagnosis, gate, report"
    static let positionals = Positionals(synopsis: "EXPECTED ACTUAL", count: 2...2, problem: "give exactly two files "
        + "or two folders: EXPECTED ACTUAL")
    static let options: [any OptionDeclaration] = [gate, json, report, tolerance, colour, SharedOptions.maxPixels,
        match, junit, ciOutput, SharedOptions.threads, mask, ignore, masks, sizePolicy, SharedOptions.maxMemory]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        var request = DiffRequest(expected: args.positionals[0], actual: args.positionals[1],
                                  gate: try args.value(gate), keepsResults: args.has(json))
        request.tolerance = try args.value(tolerance)
        request.colour = try args.value(colour)
        request.decode.limits.maxPixels = try args.value(SharedOptions.maxPixels)
        request.decode.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        request.ignored = try ignored(args)
        request.masks = try args.value(masks)
        request.sizePolicy = try args.value(sizePolicy)
        request.match = args.has(match) ? try args.value(match) : nil
        request.junitPath = try args.value(junit)
        request.threads = try args.value(SharedOptions.threads)
        request.ci = CIOutput(try args.value(ciOutput), environment: ProcessInfo.processInfo.environment)
        let folders: Bool
        do { folders = try request.comparesFolders() } catch { throw UsageError(error.description) }
        let jsonPath = try args.value(json)
        try OutputPaths.check(args, [json, junit], inputs: args.positionals)
        request.reportFolder = try OutputPaths.reportFolder(args, report, default: "none")
        let terminal = isatty(STDERR_FILENO) == 1
        let outcome: DiffRequest.Outcome
        do {
            outcome = try request.run { p in FileHandle.standardError.write(Data(p.line(onTerminal: terminal).utf8)) }
        } catch {
            if case .folderOptions = error { throw UsageError(error.description) }
            printError("imglab diff: \(error)")
            return .usage
        }
        if terminal && folders { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if !OutputPaths.writeText(outcome.json, to: jsonPath, command: name) { return .usage }
        if jsonPath != "-" { print(outcome.screen) }
        for line in outcome.annotations { jsonPath == "-" ? printError(line) : print(line) }
        for note in jsonPath == "-" ? outcome.notesWithoutScreen : outcome.notes { printError("imglab diff: \(note)") }
        return ExitStatus(rawValue: outcome.exitStatus) ?? .usage
    }
}
