import ImageReports
import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

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
    static let options: [any OptionDeclaration] = [gate, json, report, tolerance, maxPixels]
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
        let gate = try args.value(Self.gate), tolerance = try args.value(Self.tolerance), reportPath = try args.value(report), asJSON = try args.value(json)
        var decode = DecodeOptions()
        decode.limits.maxPixels = try args.value(maxPixels)

        // Decode both files at once (each decoder is single-threaded).
        let paths = args.positionals
        let decoded = decodeBoth(paths, options: decode)
        var sides: [ComparedImage] = []
        var files: [[UInt8]?] = []
        for (i, result) in decoded.enumerated() {
            switch result {
            case .success(let side):
                sides.append(side.image)
                // The file bytes are kept only to embed them in a report.
                files.append(reportPath != nil ? side.bytes : nil)
            case .failure(let error):
                printError("imglab diff: \(paths[i]): \(error)")
                return .usage
            }
        }
        let comparison = Comparison(expected: sides[0], actual: sides[1], options: ComparisonOptions(tolerance: tolerance))

        // Fail closed: canaries before any gate.
        var canaryFailures: [Canaries.Failure]?
        var gateResult: GateResult?
        var gateError: String?
        if let gate {
            let failures = Canaries.check()
            canaryFailures = failures
            if failures.isEmpty && comparison.sameSize {
                do { gateResult = try gate.evaluate { comparison.value($0) } } catch { gateError = error.description }
            }
        }

        if let reportPath {
            do {
                let images = try DiffReport.Images.make(expected: sides[0], actual: sides[1],
                                                        expectedFile: files[0], actualFile: files[1])
                let html = DiffReport.html(comparison, images: images, gate: gateResult, canaryFailures: canaryFailures)
                try ImageCodecs.writeAtomically(Array(html.utf8), to: reportPath)
            } catch {
                printError("imglab diff: cannot write the report \(reportPath): \(error)")
                return .usage
            }
        }

        if asJSON {
            print(json(comparison, gate: gateResult, gateError: gateError, canaries: canaryFailures))
        } else {
            print(DiffScreen.render(comparison, gate: gateResult, reportPath: reportPath))
        }
        if let failures = canaryFailures, !failures.isEmpty {
            printError("imglab diff: canaries failed, the gate was not evaluated:\n" + failures.map { "  " + $0.description }.joined(separator: "\n"))
            return .usage
        }
        if !comparison.sameSize {
            printError("imglab diff: the images have different sizes (\(comparison.expected.displayWidth)×\(comparison.expected.displayHeight) vs \(comparison.actual.displayWidth)×\(comparison.actual.displayHeight) as displayed); \(comparison.diagnosis.summary)")
            return .failure
        }
        if let gateError {
            printError("imglab diff: \(gateError)")
            return .usage
        }
        if let gateResult { return gateResult.passed ? .ok : .failure }
        return comparison.identical ? .ok : .failure
    }

    /// Reads and decodes both files concurrently.
    /// A decoded side and its file bytes.
    struct Decoded: Sendable { var image: ComparedImage; var bytes: [UInt8] }

    static func decodeBoth(_ paths: [String], options: DecodeOptions) -> [Result<Decoded, DecodeError>] {
        final class Box: @unchecked Sendable { var results: [Result<Decoded, DecodeError>?] = [nil, nil] }
        let box = Box(), lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let result: Result<Decoded, DecodeError>
            do throws(DecodeError) {
                let bytes = try ImageCodecs.readFile(paths[i], limit: options.limits.maxBytes)
                let container = try ImageCodecs.sniff(bytes)
                let image = try ImageCodecs.decode(bytes, options: options)
                result = .success(Decoded(image: ComparedImage(image: image, name: paths[i], container: container), bytes: bytes))
            } catch {
                result = .failure(error)
            }
            lock.lock(); box.results[i] = result; lock.unlock()
        }
        return box.results.compactMap { $0 }
    }

    /// The JSON object: the comparison's fields plus `gate`, `gateError` and `canaries`.
    static func json(_ c: Comparison, gate: GateResult?, gateError: String?, canaries: [Canaries.Failure]?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(c),
              var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return "{}" }
        if let gate, let g = try? encoder.encode(gate), let o = try? JSONSerialization.jsonObject(with: g) { object["gate"] = o }
        if let gateError { object["gateError"] = gateError }
        if let canaries {
            object["canaries"] = ["passed": canaries.isEmpty, "failures": canaries.map(\.description)] as [String: Any]
        }
        guard let out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: out, as: UTF8.self)
    }
}
