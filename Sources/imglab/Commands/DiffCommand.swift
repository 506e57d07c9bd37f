import CommandLineOptions
import Foundation
import ImageCodecs
import ImageMetrics
import ImageReports

/// `imglab diff EXPECTED ACTUAL`: compares two images by value, names the likely bug, and
/// gates, reports or prints the result.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "compare two images by value: metrics, alpha views, metadata diff, diagnosis, gate, HTML "
        + "report"
    static let positionals = Positionals(synopsis: "EXPECTED ACTUAL", count: 2...2, problem: "give exactly two files "
        + "or two folders: EXPECTED ACTUAL")
    static let gate = Option.parsed("--gate", "EXPR", "pass/fail on metrics, with lower and upper bounds, e.g. "
        + "'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1' or '0.99 <= ssim <= 1', with <= < >= > == != && || ! "
        + "and parentheses; canary pairs run first, and a metric that cannot tell them apart exits "
        + "2") { text throws(UsageError) in
        do { return try GateExpression(text) } catch { throw UsageError("\(error)") }
    }
    static let json = SharedOptions.json("write one JSON object to FILE: every metric with its unit and definition "
        + "version, diagnosis.class, diagnosis.confidence, the gate and the canaries (two folders: schema "
        + "imglab-folder-diff/1)")
    static let report = SharedOptions.report("the HTML report, self-contained (images embedded, no network): for two "
        + "files ONE file at PATH, for two folders the folder PATH with index.html and a page per changed pair; side "
        + "by side, slider, blend, toggle, heat map, pixel-exact zoom, metric table, metadata diff, diagnosis; written "
        + "atomically", default: nil)
    static let tolerance = Option.number("--tolerance", "N", "|Δ| in 8-bit code values above which a pixel counts in "
        + "exact.count", default: 0, atLeast: 0)
    static let maxPixels = InfoCommand.maxPixels
    static let match = Option.choice("--match", "HOW", "two folders: pair files by relative path, or by relative path "
        + "without extension (a.png with a.jpg)",
                                     default: ("path", FolderPairing.Match.path), [("stem", .stem)])
    static let junit = SharedOptions.junit("two folders: JUnit XML, one test case per file (changed, new and deleted "
        + "files fail)")
    static let mask = Option<String?>.text("--mask", "FILE", "ignore the pixels of this image (the compared size, as "
        + "displayed) where α > 0, or, without alpha, where it is not black; ignored pixels count as equal, are "
        + "counted in ignored.pixels and drawn hatched")
    static let ignore = Option.parsed("--ignore", "X,Y,W,H", "ignore this rectangle of displayed pixels (repeatable), "
        + "as --mask") { text throws(UsageError) in
        do { return try IgnoredPixels.Region(parsing: text) } catch { throw UsageError("\(error)") }
    }.repeated()
    static let options: [any OptionDeclaration] = [gate, json, report, tolerance, maxPixels, match, junit,
        SharedOptions.threads, mask, ignore,
                                                   SharedOptions.maxMemory]

    /// The masks and regions of the command line, the mask decoded.
    static func ignored(_ args: Arguments) throws(UsageError) -> IgnoredPixels {
        do { return try IgnoredPixels(regions: try args.values(ignore).compactMap { $0 },
            maskFile: try args.value(mask)) } catch {
            throw UsageError("\(error)")
        }
    }
    /// The METRICS section of `--help`: each metric's name, unit and summary.
    static var metricLines: String {
        MetricCatalog.all.map { m in
            let unit = m.unit.isEmpty ? "" : "[\(m.unit)] "
            return "  " + m.name.padding(toLength: 22, withPad: " ", startingAt: 0) + unit + m.summary
        }.joined(separator: "\n")
    }

    static var help: Help {
        Help(about: """
            Compares ACTUAL against EXPECTED (any PNG, JPEG, GIF, TIFF, BMP) as they are displayed:
            orientation applied, every pixel format read by value. Prints one screen: sizes, pixel
            formats in Quartz terms, metadata differences, headline metrics, the three alpha views
            (visible error over black and white, alpha error, colour in translucent pixels) and the
            diagnosis: each known bug (channel order, alpha first/last, premultiplication, the wrong
            orientations, sRGB vs linear averaging, scale, shifts, …) is applied to EXPECTED and the one
            that explains the difference is named with a confidence.

            TWO FOLDERS (imglab diff EXPECTED_DIR ACTUAL_DIR): every image under each folder (recursively,
            any container, recognised by content) is paired by relative path (--match stem: without
            extension, a.png with a.jpg); each pair present on both sides is judged as two files are
            (the gate, the diagnosis of each failing pair), in parallel, with a progress line on standard
            error. Files are changed, within the gate, unchanged, new or deleted. --report DIR writes
            DIR/index.html (filters, thumbnails) and a page per changed pair; --json FILE writes one object
            (schema imglab-folder-diff/1); --junit FILE writes one test case per file. Exit 1 when a
            pair fails or cannot be compared (a file that cannot be read: an error item) or a file is new or
            deleted; 2 when a canary fails. Each pair is decoded under its share of --max-memory (the budget
            divided by --threads).

            METRICS (names for --gate; in 8-bit code values unless a unit is given):
            \(metricLines)
            """, exitStatus: """
              0  within the gate, or identical when no gate is given
              1  different (the gate failed, the sizes differ, or any difference without a gate)
              2  error: bad usage, an unreadable file, a failed canary, or a gate metric with no value
            """, examples: ["imglab diff golden.png out.png",
                            "imglab diff golden.png out.png --gate 'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= "
                                + "1'",
                            "imglab diff golden.png out.png --gate 'exact.over.5 <= 100 && exact.over.20 <= 10'",
                            "imglab diff expected.png actual.png --report bug-1234.html",
                            "imglab diff a.png b.png --json - | jq '.diagnosis.class, .metrics.ssim.value'",
                            "imglab diff golden.png out.png --ignore 0,0,200,40 --mask clock-area.png",
                            "imglab diff baseline/ screenshots/ --gate 'exact.over.5 <= 100' --report diff-report "
                                + "--junit diff.xml"],
            docs: "docs/diff.md")
    }

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        if let folders = try FolderArguments(args.positionals) { return try runFolders(args, folders) }
        if args.has(junit) || args.has(match) { throw UsageError("--junit and --match compare two folders, not two "
            + "files") }
        let reportPath = try reportPath(args), jsonPath = try args.value(json)
        try OutputPaths.check([(report.name, reportPath), (json.name, jsonPath)].compactMap { o in o.1.map { (o.0,
            $0) } }, inputs: args.positionals)
        var decode = DecodeOptions()
        decode.limits.maxPixels = try args.value(maxPixels)
        decode.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        let diff = FileDiff(expected: args.positionals[0], actual: args.positionals[1], gate: try args.value(gate),
                            tolerance: try args.value(tolerance), decode: decode, reportPath: reportPath,
                            ignored: try ignored(args))
        let outcome: FileDiff.Outcome
        do { outcome = try diff.run() } catch {
            printError("imglab diff: \(error)")
            return .usage
        }
        if !OutputPaths.writeText(outcome.json, to: jsonPath, command: name) { return .usage }
        if jsonPath != "-" { print(outcome.screen) }
        if let problem = outcome.problem(besideScreen: jsonPath != "-") { printError("imglab diff: \(problem)") }
        if outcome.exitStatus == 1, outcome.problem == nil, !args.has(gate) { printError("imglab diff: the images "
            + "differ; --gate EXPR states how much difference passes (e.g. --gate 'deltaE00.p99 <= 2 && ssim >= 0.98'; "
            + "metrics in 'imglab diff --help')") }
        return ExitStatus(rawValue: outcome.exitStatus) ?? .usage
    }

    /// `imglab diff EXPECTED_DIR ACTUAL_DIR`: ``FolderDiff``, a progress line on standard error.
    static func runFolders(_ args: Arguments, _ folders: FolderArguments) throws(UsageError) -> ExitStatus {
        let reportFolder = try reportPath(args), junitPath = try args.value(junit), jsonPath = try args.value(json)
        if let reportFolder { try OutputPaths.checkFolder(option: report.name, reportFolder) }
        try OutputPaths.check([(junit.name, junitPath), (json.name, jsonPath)].compactMap { o in o.1.map { (o.0,
            $0) } }, inputs: [])
        var decode = DecodeOptions()
        decode.limits.maxPixels = try args.value(maxPixels)
        decode.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        let diff = FolderDiff(expected: folders.expected, actual: folders.actual, match: try args.value(match),
                              gate: try args.value(gate), tolerance: try args.value(tolerance), decode: decode,
                              ignored: try ignored(args), reportFolder: reportFolder, junitPath: junitPath,
                              threads: try args.value(SharedOptions.threads))
        let terminal = isatty(STDERR_FILENO) == 1
        let outcome: FolderDiff.Outcome
        do {
            outcome = try diff.run { p in FileHandle.standardError.write(Data(p.line(onTerminal: terminal).utf8)) }
        } catch {
            printError("imglab diff: \(error)")
            return .usage
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if !OutputPaths.writeText(outcome.json, to: jsonPath, command: name) { return .usage }
        if jsonPath != "-" { print(outcome.screen) }
        return ExitStatus(rawValue: outcome.exitStatus) ?? .usage
    }

    /// `--report`, with `none` for no report.
    static func reportPath(_ args: Arguments) throws(UsageError) -> String? {
        let given = try args.value(report)
        return given == "none" ? nil : given
    }

    /// Two folders as positionals; `nil` for two files; a usage error for a file and a folder.
    struct FolderArguments {
        var expected: String, actual: String
        init?(_ positionals: [String]) throws(UsageError) {
            let folders = positionals.map { p -> Bool in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory) && isDirectory.boolValue
            }
            guard folders.contains(true) else { return nil }
            guard positionals.count == 2, folders == [true, true] else { throw UsageError("give two files or two "
                + "folders, not a file and a folder") }
            expected = positionals[0]
            actual = positionals[1]
        }
    }
}
