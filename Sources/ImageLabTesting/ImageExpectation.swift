import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics
import ImageReports

/// The comparison behind ``expectImage(_:matches:gate:record:fileID:filePath:line:column:)``:
/// where goldens and reports live, and the check itself, which returns an ``Outcome`` instead
/// of recording an issue (the free functions record it).
///
/// Goldens are PNGs of the displayed pixels (orientation applied; 16-bit stays 16-bit, float is
/// stored as 16-bit) at `__Goldens__/<TestFile>/<name>.png` beside the test file, written
/// atomically. Images compare by value (``Comparison``: a palette PNG equals its RGB copy, a
/// 16-bit image its 8-bit copy within rounding) and a gate expression decides (``GateExpression``,
/// the syntax of `imglab diff --gate`). On a mismatch a one-case HTML report (``DiffReport``:
/// side by side, slider, blend, toggle, heat map, metric table with the gate bounds, the
/// diagnosis) is written atomically under ``reportsFolder``.
public struct ImageExpectation: Sendable {
    /// Every channel within one 8-bit code value of the golden (`exact.max` ignores colour under α = 0).
    public static let defaultGate = "exact.max <= 1"

    /// Whether record mode is on in the environment: `IMGLAB_RECORD` is `1`, `true` or `yes`.
    public static var recordFromEnvironment: Bool {
        ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment["IMGLAB_RECORD"]?.lowercased() ?? "")
    }

    /// The expectation the free functions use: goldens beside the test file, reports in
    /// `$IMGLAB_REPORT_DIR` or the temporary folder's `imglab-expect-reports`.
    public static let standard = ImageExpectation()

    /// Where goldens are kept; `nil`: `__Goldens__` beside the test file.
    public var goldensFolder: String?
    /// Where one-case reports are written (a subfolder per test file).
    public var reportsFolder: String

    public init(goldensFolder: String? = nil, reportsFolder: String? = nil) {
        self.goldensFolder = goldensFolder
        self.reportsFolder = reportsFolder ?? ProcessInfo.processInfo.environment["IMGLAB_REPORT_DIR"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("imglab-expect-reports").path
    }

    /// What a check found.
    public struct Outcome: Sendable {
        /// The kinds of outcome; only ``matched`` is silent.
        public enum Kind: String, Sendable, Hashable {
            /// Within the gate (or, recording, identical by value to the stored golden).
            case matched
            /// Outside the gate (or a different size): an issue with the metrics, the failed
            /// clauses, the diagnosis and the report's path.
            case mismatched
            /// No golden stored and not recording: an issue that says how to record it.
            case missingGolden
            /// Record mode wrote the golden: an issue, so record mode is never left on silently.
            case recorded
        }
        public var kind: Kind
        /// The issue text (empty when matched).
        public var message: String
        /// The golden file, when the check used one.
        public var goldenPath: String?
        /// The one-case HTML report, on a mismatch.
        public var reportPath: String?
        /// The comparison, when one was made.
        public var comparison: Comparison?
        /// The gate's outcome, when it could be evaluated.
        public var gate: GateResult?
    }

    /// The test file's name without `.swift`, from a `#filePath`.
    static func testFileName(_ filePath: String) -> String {
        let last = URL(fileURLWithPath: filePath).lastPathComponent
        return last.hasSuffix(".swift") ? String(last.dropLast(6)) : last
    }

    /// Checks that a golden name is one safe path component: letters, digits, `-`, `_`, `.`, `@`,
    /// `,`, `+`, `=`, space; not empty, not starting with `.`, at most 200 characters.
    static func validate(_ name: String) throws(ImageExpectationError) {
        let ok = !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.count <= 200 && name.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "-_.@,+= ".unicodeScalars.contains($0)
        }
        guard ok else { throw .badName(name) }
    }

    /// The golden's path for `name` in the test file `filePath`.
    public func goldenPath(name: String, filePath: String) throws(ImageExpectationError) -> String {
        try Self.validate(name)
        let folder = goldensFolder ?? URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Goldens__").path
        return "\(folder)/\(Self.testFileName(filePath))/\(name).png"
    }

    /// Compares `actual` with the golden `name` of the test file `filePath` (or records it).
    /// - Throws: ``ImageExpectationError`` when the name, the gate, the golden file or a write is bad.
    /// - Parameter ignoring: pixels left out of the comparison (masks and regions; a mask must
    ///   have the golden's displayed size); none by default.
    public func check(_ actual: Image, matches name: String, gate: String = Self.defaultGate, record: Bool = Self.recordFromEnvironment,
                      ignoring: IgnoredPixels = IgnoredPixels(), filePath: String) throws(ImageExpectationError) -> Outcome {
        let expression = try Self.parse(gate)
        let path = try goldenPath(name: name, filePath: filePath)
        let exists = FileManager.default.fileExists(atPath: path)
        var golden: Image?
        if exists {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableGolden(path, "cannot read the file") }
            do { golden = try ImageCodecs.decode([UInt8](data)) } catch { throw .unreadableGolden(path, error.description) }
        }
        if record {
            if let golden, FileComparison.identicalByValue(golden, actual) {
                return Outcome(kind: .matched, message: "", goldenPath: path)
            }
            try Self.store(actual, at: path)
            return Outcome(kind: .recorded, message: "expectImage \"\(name)\": recorded the golden \(path) (record mode is on: "
                           + "turn it off — record: false, or unset IMGLAB_RECORD — and run the test again)", goldenPath: path)
        }
        guard let golden else {
            return Outcome(kind: .missingGolden, message: "expectImage \"\(name)\": no golden at \(path); run the test once with "
                           + "IMGLAB_RECORD=1 (or record: true) to record the current image, review it, and commit it", goldenPath: path)
        }
        var outcome = try compare(actual, with: ComparedImage(image: golden, name: "golden: \(path)", container: .png), gate: expression,
                                  label: "expectImage \"\(name)\"", against: "its golden \(path)", reportName: name, filePath: filePath,
                                  ignoring: ignoring)
        outcome.goldenPath = path
        if outcome.kind == .mismatched {
            outcome.message += "\n  to accept the new image: run again with IMGLAB_RECORD=1 (or record: true)"
        }
        return outcome
    }

    /// Compares `actual` with a reference image (no golden file, no record mode).
    /// - Parameters:
    ///   - name: names the report file (default: the test file and line).
    ///   - ignoring: pixels left out of the comparison (masks and regions); none by default.
    public func check(_ actual: Image, matches reference: Image, gate: String = Self.defaultGate, name: String,
                      ignoring: IgnoredPixels = IgnoredPixels(), filePath: String) throws(ImageExpectationError) -> Outcome {
        try Self.validate(name)
        return try compare(actual, with: ComparedImage(image: reference, name: "reference"), gate: Self.parse(gate),
                           label: "expectImage \"\(name)\"", against: "the reference image", reportName: name, filePath: filePath,
                           ignoring: ignoring)
    }

    static func parse(_ gate: String) throws(ImageExpectationError) -> GateExpression {
        do { return try GateExpression(gate) } catch { throw .badGate(gate, error.description) }
    }

    /// The golden: the displayed pixels as PNG, written atomically (folders created).
    static func store(_ image: Image, at path: String) throws(ImageExpectationError) {
        let png: [UInt8]
        do { png = try EmbeddedImage.displayed(ComparedImage(image: image, name: path)).bytes } catch {
            throw .write(path, "cannot encode the image as PNG: \(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        } catch { throw .write(path, "cannot create its folder: \(error)") }
        do { try ImageCodecs.writeAtomically(png, to: path) } catch { throw .write(path, error.description) }
    }

    /// Judges with the gate (``Judge``: the diagnosis runs on a mismatch only), then on a
    /// mismatch writes the issue text and the one-case report.
    func compare(_ actual: Image, with expected: ComparedImage, gate: GateExpression, label: String, against: String,
                 reportName: String, filePath: String, ignoring: IgnoredPixels = IgnoredPixels()) throws(ImageExpectationError) -> Outcome {
        let actualSide = ComparedImage(image: actual, name: "actual: \(reportName)")
        let judgement: Judgement, mask: PixelMask?
        do { (judgement, mask) = try FileComparison.judge(expected, actualSide, by: Judge(gate: gate), ignoring: ignoring) } catch {
            throw .badIgnored(error.description)
        }
        if case .gateUnusable(let error) = judgement.verdict { throw .badGate(gate.text, error.description) }
        let c = judgement.comparison
        if judgement.passed { return Outcome(kind: .matched, message: "", comparison: c, gate: judgement.gate) }

        var lines = ["\(label): the image does not match \(against) (gate \(gate.text))"]
        lines.append(judgement.gate == nil ? "  " + (judgement.finding ?? "") : "  failed: " + (judgement.finding ?? ""))
        let headline = ["exact.max", "exact.pixels", "visible.max", "visible.mean", "alpha.max", "deltaE00.p99", "psnr", "ssim"]
        let metrics = headline.compactMap { m in c.value(m).map { "\(m) \(Self.format($0))" } }
        if !metrics.isEmpty { lines.append("  metrics: " + metrics.joined(separator: ", ")) }
        lines.append("  diagnosis: " + c.diagnosis.sentence)

        let reportPath = "\(reportsFolder)/\(Self.testFileName(filePath))/\(reportName).html"
        let context = DiffReport.Context(title: "expectImage: \(reportName)", verdict: "does not match \(against) (gate \(gate.text))",
                                         verdictOK: false, facts: [("test file", filePath), ("expected", expected.name)])
        do {
            let images = try DiffReport.Images.make(expected: expected, actual: actualSide, ignored: mask)
            let html = DiffReport.html(judgement, images: images, context: context)
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: reportPath).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try ImageCodecs.writeAtomically(Array(html.utf8), to: reportPath)
        } catch {
            throw .write(reportPath, "the report: \(error)")
        }
        lines.append("  report: \(reportPath)")
        return Outcome(kind: .mismatched, message: lines.joined(separator: "\n"), reportPath: reportPath, comparison: c, gate: judgement.gate)
    }

    static func format(_ v: Double) -> String {
        if v.isInfinite { return v > 0 ? "inf" : "-inf" }
        if v == v.rounded() && abs(v) < 1e12 { return String(Int(v)) }
        return String(format: "%.4g", v)
    }
}

/// Why ``ImageExpectation`` could not check an image (thrown, not recorded: the test itself is wrong
/// or the disk is).
public enum ImageExpectationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A golden name that is not one safe path component.
    case badName(String)
    /// A gate that does not parse, or names a metric without a value for these images.
    case badGate(String, String)
    /// The golden exists but cannot be read or decoded.
    case unreadableGolden(String, String)
    /// A golden or report could not be written.
    case write(String, String)
    /// Masks or regions that cannot be used (a mask of the wrong size): why.
    case badIgnored(String)

    public var description: String {
        switch self {
        case .badName(let name): return "golden name '\(name)' must be 1–200 letters, digits, spaces or '-_.@,+=', not starting with '.'"
        case .badGate(let gate, let why): return "gate '\(gate)': \(why)"
        case .unreadableGolden(let path, let why): return "golden \(path) is unreadable: \(why)"
        case .write(let path, let why): return "cannot write \(path): \(why)"
        case .badIgnored(let why): return why
        }
    }
}
