import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// `imglab diff EXPECTED ACTUAL` as one call: decode both files at once (each decoder is
/// single-threaded) under the decode limits, judge them (``Judge``: the canaries guard a gate,
/// the diagnosis always runs, since the screen and the JSON show it), write the optional
/// HTML report folder (one self-contained `index.html`) as one generation, and return the
/// outcome with its screen, JSON and exit status.
public struct FileDiff: Sendable {
    /// The two files and how they are judged (gate, tolerance, decode limits, canaries, masks).
    public var comparison: FileComparison
    /// The folder to write the HTML report (``DiffReport``) into as `index.html`, if any.
    public var reportFolder: String?

    public init(expected: String, actual: String, gate: GateExpression? = nil, tolerance: Double = 0,
                decode: DecodeOptions = DecodeOptions(), reportFolder: String? = nil, canaries: Judge.CanaryCheck = .run,
                ignored: IgnoredPixels = IgnoredPixels(), colour: ColourMode = .managed) {
        comparison = FileComparison(expected: expected, actual: actual, gate: gate, tolerance: tolerance, decode: decode,
                                    canaries: canaries, ignored: ignored, colour: colour)
        comparison.keepsFileBytes = reportFolder != nil
        self.reportFolder = reportFolder
    }

    /// What a diff found.
    public struct Outcome: Sendable {
        public var judgement: Judgement
        /// The report page written (`FOLDER/index.html`), if one was asked for.
        public var reportPath: String?

        /// The terminal screen (``DiffScreen``).
        public var screen: String { DiffScreen.render(judgement, reportPath: reportPath) }
        /// The `--json` object (``DiffJSON``).
        public var json: String { DiffJSON.text(judgement) }

        /// Why the files do not pass, for standard error: failed canaries, different sizes or an
        /// unusable gate; `nil` for a pass or a plain difference (the screen shows it).
        /// `besideScreen`: the screen is printed too, so what it already says (different sizes) is not repeated.
        public func problem(besideScreen: Bool) -> String? {
            if besideScreen, case .differentSizes = judgement.verdict { return nil }
            return problem
        }

        /// ``problem(besideScreen:)`` when no screen is printed.
        public var problem: String? {
            switch judgement.verdict {
            case .pass, .fail: return nil
            case .differentSizes:
                let c = judgement.comparison
                return "the images have different sizes (\(c.expected.displayWidth)×\(c.expected.displayHeight) vs "
                    + "\(c.actual.displayWidth)×\(c.actual.displayHeight) as displayed); \(c.diagnosis.summary)"
            case .canariesFailed, .gateUnusable: return judgement.finding
            }
        }

        /// ``ExitRule``: 0 within the gate (or identical without one); 1 different (the gate
        /// failed, the sizes differ, or any difference without a gate); 2 the one pair could not
        /// be judged (a failed canary, a gate metric with no value).
        public var exitStatus: Int32 {
            judgement.kind == .error ? ExitRule.couldNotJudge : ExitRule.status([judgement.kind])
        }
    }

    /// Decodes, judges (``FileComparison``: the memory budget is checked before any pixel is
    /// decoded) and writes the report.
    /// - Throws: ``FileDiffError`` when a file cannot be read or decoded, the comparison needs
    ///   more than the budget, or the report cannot be written.
    public func run() throws(FileDiffError) -> Outcome {
        let compared: (judgement: Judgement, expected: FileComparison.Side, actual: FileComparison.Side, ignored: PixelMask?)
        do { compared = try comparison.run() } catch {
            switch error {
            case .unreadable(let path, let decodeError): throw .unreadable(path, decodeError)
            case .overBudget: throw .overBudget(error.description)
            case .ignored(let why): throw .ignored(why)
            }
        }
        if let reportFolder {
            do {
                let images = try DiffReport.Images.make(expected: compared.expected.compared, actual: compared.actual.compared,
                                                        expectedFile: compared.expected.bytes, actualFile: compared.actual.bytes, ignored: compared.ignored,
                                                        coverage: compared.ignored.map { comparison.ignored.coverage(width: $0.width, height: $0.height) } ?? [])
                try ResultFiles.writeReport([(ReportFolder.index, Array(DiffReport.html(compared.judgement, images: images).utf8))],
                                            to: reportFolder)
            } catch {
                throw .report(reportFolder, "\(error)")
            }
        }
        return Outcome(judgement: compared.judgement, reportPath: reportFolder.map(ReportFolder.page))
    }
}

/// Why ``FileDiff`` could not compare the files (exit status 2).
public enum FileDiffError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file that cannot be read or decoded (within the limits).
    case unreadable(String, DecodeError)
    /// Comparing the files needs more memory than the budget (the message says how much).
    case overBudget(String)
    /// The report that cannot be encoded or written: its path and why.
    case report(String, String)
    /// Masks or regions that cannot be used (a mask of the wrong size).
    case ignored(IgnoredPixelsError)

    public var description: String {
        switch self {
        case .unreadable(let path, let error): return "\(path): \(error)"
        case .overBudget(let message): return message
        case .report(let path, let why): return "cannot write the report \(path): \(why)"
        case .ignored(let error): return error.description
        }
    }
}
