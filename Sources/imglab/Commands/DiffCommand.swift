import Foundation
import ImageCodecs
import ImageMetrics
import ImageReports

/// `imglab diff EXPECTED ACTUAL`: compares two images by value, names the likely bug, and
/// gates, reports or prints the result.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "compare two images by value: metrics, alpha views, metadata diff, diagnosis, gate, HTML report"
    static var help: String {
        """
        USAGE: imglab diff EXPECTED ACTUAL [--gate EXPR] [--json] [--report FILE.html] [--tolerance N]

        Compares ACTUAL against EXPECTED (any PNG, JPEG, GIF, TIFF, BMP) as they are displayed:
        orientation applied, every pixel format read by value, so a 16-bit PNG and its 8-bit copy
        are compared at 16-bit precision and a palette PNG equals its RGB copy. Prints one screen:
        sizes, pixel formats in Quartz terms, metadata differences (colour type, bit depth, ICC,
        EXIF orientation, frames), headline metrics, the three alpha views (visible error over
        black and white, alpha error, colour in translucent pixels; colour changed under α = 0 is
        "hidden colour changed", not visible error) and the diagnosis: each known bug (channel
        order, alpha first/last, premultiplication, alpha dropped, the 7 wrong orientations, sRGB vs
        linear averaging, 2×/½× scale, half/one-pixel shifts, CMYK inversion, 16-bit byte order,
        palette transparency, nearest-neighbour aliasing) is applied to EXPECTED and the one that
        explains the difference is named with a confidence. Nearest-neighbour shrinking, whose
        aliased detail no transform of EXPECTED predicts, is recognised by its edges instead:
        hard steps where EXPECTED has mixed (anti-aliased) edge pixels.

        OPTIONS:
          --gate EXPR        pass/fail on metrics, with lower and upper bounds, e.g.
                             'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1' or '0.99 <= ssim <= 1'
                             (operators <= < >= > == != && || ! and parentheses). Built-in canary pairs
                             run first: if a metric cannot tell them apart, the command exits 2.
          --json             print one JSON object instead: every metric with its unit and definition
                             version, diagnosis.class, diagnosis.confidence, the gate and the canaries
          --report FILE      write ONE self-contained HTML file (images embedded, no network):
                             side by side, slider, blend, toggle, heat map, keyboard, pixel-exact zoom,
                             metric table, metadata diff, diagnosis. Written atomically.
          --tolerance N      |Δ| in 8-bit code values above which a pixel counts in exact.count (default 0)
          --max-pixels N     refuse images larger than N pixels (default 268402689 = 16383²)

        METRICS (names for --gate; all in 8-bit code values unless a unit is given):
        \(MetricCatalog.all.map { "  " + $0.name.padding(toLength: 22, withPad: " ", startingAt: 0) + ($0.unit.isEmpty ? "" : "[\($0.unit)] ") + $0.summary }.joined(separator: "\n"))

        EXIT STATUS:
          0  within the gate, or identical when no gate is given
          1  different (the gate failed, the sizes differ, or any difference without a gate)
          2  error: bad usage, an unreadable file, a failed canary, or a gate metric with no value

        EXAMPLES:
          imglab diff golden.png out.png
          imglab diff golden.png out.png --gate 'deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1'
          imglab diff golden.png out.png --gate 'exact.over.5 <= 100 && exact.over.20 <= 10'
          imglab diff expected.png actual.png --report bug-1234.html
          imglab diff a.png b.png --json | jq '.diagnosis.class, .metrics.ssim.value'
        """
    }

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--gate", "--report", "--tolerance", "--max-pixels"], flags: ["--json"])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.count == 2 else { throw UsageError("give exactly two files: EXPECTED ACTUAL") }
        var gate: GateExpression?
        if let text = args.value("--gate") {
            do { gate = try GateExpression(text) } catch { throw UsageError(error.description) }
        }
        var tolerance = 0.0
        if let t = args.value("--tolerance") {
            guard let v = Double(t), v >= 0, v.isFinite else { throw UsageError("--tolerance must be a number ≥ 0, not '\(t)'") }
            tolerance = v
        }
        var decode = DecodeOptions()
        decode.limits.maxPixels = try args.int("--max-pixels", default: decode.limits.maxPixels, in: 1...Int.max)

        let diff = FileDiff(expected: args.positionals[0], actual: args.positionals[1], gate: gate, tolerance: tolerance,
                            decode: decode, reportPath: args.value("--report"))
        let outcome: FileDiff.Outcome
        do { outcome = try diff.run() } catch {
            printError("imglab diff: \(error)")
            return .usage
        }
        print(args.flag("--json") ? outcome.json : outcome.screen)
        if let problem = outcome.problem { printError("imglab diff: \(problem)") }
        return ExitStatus(rawValue: outcome.exitStatus) ?? .usage
    }
}
