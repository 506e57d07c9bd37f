import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// `imglab diff EXPECTED ACTUAL` as one call: decode both files at once (each decoder is
/// single-threaded) under the decode limits, judge them (``Judge``: the canaries guard a gate,
/// the diagnosis always runs, since the screen and the JSON show it), write the optional
/// one-file HTML report atomically, and return the outcome with its screen, JSON and exit status.
public struct FileDiff: Sendable {
    /// The file the actual image is compared against.
    public var expectedPath: String
    public var actualPath: String
    /// The gate; `nil`: the files pass only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double
    /// The decode limits and options of both files.
    public var decode: DecodeOptions
    /// Where to write the HTML report (``DiffReport``), if anywhere.
    public var reportPath: String?
    /// The canaries that guard the gate (tests inject a failing result).
    public var canaries: Judge.CanaryCheck
    /// Pixels left out of the comparison (masks and regions); none by default.
    public var ignored: IgnoredPixels

    public init(expected: String, actual: String, gate: GateExpression? = nil, tolerance: Double = 0,
                decode: DecodeOptions = DecodeOptions(), reportPath: String? = nil, canaries: Judge.CanaryCheck = .run,
                ignored: IgnoredPixels = IgnoredPixels()) {
        self.ignored = ignored
        self.expectedPath = expected
        self.actualPath = actual
        self.gate = gate
        self.tolerance = tolerance
        self.decode = decode
        self.reportPath = reportPath
        self.canaries = canaries
    }

    /// What a diff found.
    public struct Outcome: Sendable {
        public var judgement: Judgement
        /// The report written, if one was asked for.
        public var reportPath: String?

        /// The terminal screen (``DiffScreen``).
        public var screen: String { DiffScreen.render(judgement, reportPath: reportPath) }
        /// The `--json` object (``DiffJSON``).
        public var json: String { DiffJSON.text(judgement) }

        /// Why the files do not pass, for standard error: failed canaries, different sizes or an
        /// unusable gate; `nil` for a pass or a plain difference (the screen shows it).
        public var problem: String? {
            let c = judgement.comparison
            switch judgement.verdict {
            case .pass, .fail: return nil
            case .canariesFailed:
                return "canaries failed, the gate was not evaluated:\n" + (judgement.canaryFailures ?? []).map { "  " + $0.description }.joined(separator: "\n")
            case .differentSizes:
                return "the images have different sizes (\(c.expected.displayWidth)×\(c.expected.displayHeight) vs \(c.actual.displayWidth)×\(c.actual.displayHeight) as displayed); \(c.diagnosis.summary)"
            case .gateUnusable(let error): return error.description
            }
        }

        /// 0 within the gate (or identical without one); 1 different (the gate failed, the sizes
        /// differ, or any difference without a gate); 2 a failed canary or a gate metric with no value.
        public var exitStatus: Int32 {
            switch judgement.verdict {
            case .pass: return 0
            case .fail, .differentSizes: return 1
            case .canariesFailed, .gateUnusable: return 2
            }
        }
    }

    /// Decodes, judges and writes the report.
    /// - Throws: ``FileDiffError`` when a file cannot be read or decoded, or the report cannot be written.
    public func run() throws(FileDiffError) -> Outcome {
        let paths = [expectedPath, actualPath], options = decode
        let decoded = ParallelMap.run(2, threads: 2) { i -> Result<(side: ComparedImage, bytes: [UInt8]), DecodeError> in
            do throws(DecodeError) {
                let bytes = try ImageCodecs.readFile(paths[i], limit: options.limits.maxBytes)
                let container = try ImageCodecs.sniff(bytes)
                let image = try ImageCodecs.decode(bytes, options: options)
                return .success((ComparedImage(image: image, name: paths[i], container: container), bytes))
            } catch {
                return .failure(error)
            }
        }
        var sides: [(side: ComparedImage, bytes: [UInt8])] = []
        for (path, result) in zip(paths, decoded) {
            switch result {
            case .success(let side): sides.append(side)
            case .failure(let error): throw .unreadable(path, error)
            }
        }
        let shown = sides[0].side.image.displaySize
        let mask: PixelMask?
        do { mask = try ignored.resolved(width: shown.width, height: shown.height) } catch { throw .ignored(error) }
        let judgement = Judge(gate: gate, tolerance: tolerance, canaries: canaries, diagnosing: .always, ignored: mask)
            .judge(expected: sides[0].side, actual: sides[1].side)
        if let reportPath {
            do {
                let images = try DiffReport.Images.make(expected: sides[0].side, actual: sides[1].side,
                                                        expectedFile: sides[0].bytes, actualFile: sides[1].bytes, ignored: mask)
                try ImageCodecs.writeAtomically(Array(DiffReport.html(judgement, images: images).utf8), to: reportPath)
            } catch {
                throw .report(reportPath, "\(error)")
            }
        }
        return Outcome(judgement: judgement, reportPath: reportPath)
    }
}

/// Why ``FileDiff`` could not compare the files (exit status 2).
public enum FileDiffError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file that cannot be read or decoded (within the limits).
    case unreadable(String, DecodeError)
    /// The report that cannot be encoded or written: its path and why.
    case report(String, String)
    /// Masks or regions that cannot be used (a mask of the wrong size).
    case ignored(IgnoredPixelsError)

    public var description: String {
        switch self {
        case .unreadable(let path, let error): return "\(path): \(error)"
        case .report(let path, let why): return "cannot write the report \(path): \(why)"
        case .ignored(let error): return error.description
        }
    }
}
