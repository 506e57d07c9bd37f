import Foundation
import ImageCodecs
import ImageMetrics
import ImageReports

/// `imglab diff EXPECTED ACTUAL`: compares two images by value, names the likely bug, and
/// gates, reports or prints the result.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "compare two images by value: metrics, alpha views, metadata diff, diagnosis, gate, HTML report"
    static let positionals = Positionals(synopsis: "EXPECTED ACTUAL", count: 2...2, problem: "give exactly two files: EXPECTED ACTUAL")
    static let gate = Option.parsed("--gate", "EXPR", "pass/fail on metrics, with lower and upper bounds, e.g. 'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1' or '0.99 <= ssim <= 1', with <= < >= > == != && || ! and parentheses; canary pairs run first, and a metric that cannot tell them apart exits 2") { text throws(UsageError) in
        do { return try GateExpression(text) } catch { throw UsageError("\(error)") }
    }
    static let json = Option.flag("--json", "print one JSON object instead: every metric with its unit and definition version, diagnosis.class, diagnosis.confidence, the gate and the canaries")
    static let report = Option<String?>.text("--report", "FILE", "write ONE self-contained HTML file (images embedded, no network): side by side, slider, blend, toggle, heat map, pixel-exact zoom, metric table, metadata diff, diagnosis; written atomically")
    static let tolerance = Option.number("--tolerance", "N", "|Δ| in 8-bit code values above which a pixel counts in exact.count", default: 0, atLeast: 0)
    static let maxPixels = InfoCommand.maxPixels
    static let options: [any OptionDeclaration] = [gate, json, report, tolerance, maxPixels, SharedOptions.maxMemory]
    static var help: Help {
        Help(about: """
            Compares ACTUAL against EXPECTED (any PNG, JPEG, GIF, TIFF, BMP) as they are displayed:
            orientation applied, every pixel format read by value. Prints one screen: sizes, pixel
            formats in Quartz terms, metadata differences, headline metrics, the three alpha views
            (visible error over black and white, alpha error, colour in translucent pixels) and the
            diagnosis: each known bug (channel order, alpha first/last, premultiplication, the wrong
            orientations, sRGB vs linear averaging, scale, shifts, …) is applied to EXPECTED and the one
            that explains the difference is named with a confidence.

            METRICS (names for --gate; in 8-bit code values unless a unit is given):
            \(MetricCatalog.all.map { "  " + $0.name.padding(toLength: 22, withPad: " ", startingAt: 0) + ($0.unit.isEmpty ? "" : "[\($0.unit)] ") + $0.summary }.joined(separator: "\n"))
            """, exitStatus: """
              0  within the gate, or identical when no gate is given
              1  different (the gate failed, the sizes differ, or any difference without a gate)
              2  error: bad usage, an unreadable file, a failed canary, or a gate metric with no value
            """, examples: ["imglab diff golden.png out.png",
                            "imglab diff golden.png out.png --gate 'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1'",
                            "imglab diff golden.png out.png --gate 'exact.over.5 <= 100 && exact.over.20 <= 10'",
                            "imglab diff expected.png actual.png --report bug-1234.html",
                            "imglab diff a.png b.png --json | jq '.diagnosis.class, .metrics.ssim.value'"],
            docs: "docs/diff.md")
    }

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        if let path = try args.value(report) { try OutputPaths.check([(report.name, path)], inputs: args.positionals) }
        var decode = DecodeOptions()
        decode.limits.maxPixels = try args.value(maxPixels)
        decode.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        let diff = FileDiff(expected: args.positionals[0], actual: args.positionals[1], gate: try args.value(gate),
                            tolerance: try args.value(tolerance), decode: decode, reportPath: try args.value(report))
        let outcome: FileDiff.Outcome
        do { outcome = try diff.run() } catch {
            printError("imglab diff: \(error)")
            return .usage
        }
        print(try args.value(json) ? outcome.json : outcome.screen)
        if let problem = outcome.problem { printError("imglab diff: \(problem)") }
        return ExitStatus(rawValue: outcome.exitStatus) ?? .usage
    }
}
