import CommandLineOptions
import ImageReports

/// `imglab report RESULTS.json --out DIR`: a report made again from a results file, without
/// comparing (``ReportRebuild``).
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "make the HTML report of a run or folder diff again from its results file, without comparing"
    static let positionals = Positionals(synopsis: "RESULTS.json", count: 1...1,
        problem: "give one results file: a run's results.json or --json, or a folder diff's")
    static let out = SharedOptions.report("DIR/index.html, DIR/results.json, the pages and thumbnails carried; "
        + "the results' own folder rebuilds it in place", default: nil).alsoSpelled("--out")
    static let options: [any OptionDeclaration] = [out]
    static let help = Help(about: """
        Writes DIR/index.html and DIR/results.json (a run's DIR/junit.xml too, without times) from the
        results of 'imglab run' or of a folder diff, comparing nothing: pages and thumbnails are carried from
        the results' own report folder (rebuilt there, the same files), missing thumbnails made from the image
        folders, missing pages listed without a link. After an upgrade, 'imglab merge', or on CI's results.
        """, exitStatus: "  0 written, 2 bad usage, unreadable results, or a folder that cannot be written",
        examples: ["imglab report Reports/quick/results.json --out Reports/quick     rebuild in place",
                   "imglab diff baseline/ shots/ --json diff.json && imglab report diff.json --out report"],
        docs: "docs/diff.md#rebuilding-a-report")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        guard let folder = try args.value(out), folder != "none" else { throw UsageError("--out DIR is required") }
        try OutputPaths.checkFolder(option: out.name, folder)
        let outcome: ReportRebuild.Outcome
        do { outcome = try ReportRebuild(results: args.positionals[0], out: folder).run() } catch {
            printError("imglab report: \(error)")
            return .usage
        }
        print(outcome.screen)
        return .ok
    }
}
