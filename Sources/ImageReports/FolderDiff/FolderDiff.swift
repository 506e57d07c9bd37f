import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// `imglab diff EXPECTED_DIR ACTUAL_DIR` as one call: pair the two folders' images
/// (``FolderPairing``), judge every pair present on both sides with the one ``Judge`` of
/// `imglab diff` (the gate, the canaries checked once, the diagnosis of every pair that fails),
/// on `threads` threads, and write the optional HTML report (``FolderDiffReport``: an index, a
/// ``DiffReport`` page per changed pair, the thumbnails and `results.json`, one ``OutputFolder``
/// generation swapped in whole; ``ReportRebuild`` makes it again from `results.json`) and
/// the JUnit file through the safe writer.
///
/// Each pair is decoded, judged, reported and released by one worker, so memory holds at most
/// `threads` pairs at a time whatever the folder's size. Files with the same bytes are unchanged
/// without being decoded (they are decoded only for the report's thumbnails). The items come in
/// key order and every file's bytes are the same on every run and thread count.
public struct FolderDiff: Sendable {
    /// The folder of expected images.
    public var expectedFolder: String
    /// The folder of actual images.
    public var actualFolder: String
    /// How files pair (relative path, or relative path without extension).
    public var match: FolderPairing.Match
    /// The gate of every pair; `nil`: a pair passes only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double
    /// The decode limits and options of every file.
    public var decode: DecodeOptions
    /// Pixels left out of every comparison (``IgnoredPixels``; a mask must have each pair's
    /// displayed size, else that pair is an error); none by default.
    public var ignored: IgnoredPixels
    /// Regions per file (`--masks FILE`, ``MaskSidecar``), added to ``ignored`` for the pairs they name.
    public var masks: MaskSidecar?
    /// The report folder (`index.html`, `pairs/`), if any.
    public var reportFolder: String?
    /// The JUnit file, if any.
    public var junitPath: String?
    /// Pairs judged at once (each worker holds one pair's images).
    public var threads: Int
    /// The canaries that guard the gate (tests inject a failing result).
    public var canaries: Judge.CanaryCheck
    /// Colours compared through the files' profiles, or stored values (``ColourMode``).
    public var colour: ColourMode = .managed
    /// Whether the `exact.over.N.nonAA` counts are computed (``Judge/antiAliasingCounts``; default true).
    public var antiAliasingCounts = true
    /// What pairs of different sizes get (``Judge/SizePolicy``; default align).
    public var sizePolicy = Judge.SizePolicy.align
    /// The resampler of ``Judge/SizePolicy/resize``.
    public var resizeStage: ResizeStage?

    public init(expected: String, actual: String, match: FolderPairing.Match = .path, gate: GateExpression? = nil, tolerance: Double = 0,
                decode: DecodeOptions = DecodeOptions(), ignored: IgnoredPixels = IgnoredPixels(), reportFolder: String? = nil,
                junitPath: String? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount, canaries: Judge.CanaryCheck = .run) {
        self.expectedFolder = expected
        self.actualFolder = actual
        self.match = match
        self.gate = gate
        self.tolerance = tolerance
        self.decode = decode
        self.ignored = ignored
        self.reportFolder = reportFolder
        self.junitPath = junitPath
        self.threads = threads
        self.canaries = canaries
    }

    /// How far a folder diff got, for a progress line: pairs done, of the total, and the last one.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var item: FolderDiffItem

        /// The line for standard error: on a terminal a bar redrawn in place (`\r`), with a line
        /// of its own for each pair that does not pass; elsewhere one line per pair that does not
        /// pass and one every 10 % of the pairs.
        public func line(onTerminal terminal: Bool) -> String {
            let head = "[\(done)/\(total)]"
            if item.status.kind.fails {
                return (terminal ? "\r\u{1B}[K" : "") + "\(head) \(item.status.rawValue.uppercased()) \(item.key)" + (item.message.map { " — " + $0 } ?? "") + "\n"
            }
            if terminal { return "\r\u{1B}[K\(head) \(item.key)" }
            let step = max(1, total / 10)
            return done % step == 0 || done == total ? "\(head) pairs compared\n" : ""
        }
    }

    /// What a folder diff found.
    public struct Outcome: Sendable {
        /// The settings and items, as the JSON carries them.
        public var results: FolderDiffResults
        /// The report's index, when one was written.
        public var reportIndex: String?

        /// The terminal summary: the counts, then every pair that does not pass, one line each.
        public var screen: String {
            var lines = ["expected   \(results.expected)", "actual     \(results.actual)", "compared   \(results.summary.line)"]
            for item in results.items where item.status.kind.fails {
                lines.append("  " + item.status.rawValue.uppercased().padding(toLength: 10, withPad: " ", startingAt: 0) + item.key
                             + (item.message.map { " — " + $0 } ?? ""))
            }
            if let gate = results.gate { lines.append("gate       \(gate)") }
            if let reportIndex { lines.append("report     \(reportIndex)") }
            return lines.joined(separator: "\n")
        }

        /// The `--json` object (schema `imglab-folder-diff/1`, keys sorted).
        public var json: String { results.jsonText }

        /// ``ExitRule``: 0 every pair passes and no file is new or deleted; 1 a pair fails (or
        /// differs without a gate, or its sizes differ), a file is new or deleted, or a pair
        /// cannot be compared (a file that cannot be read, a gate metric with no value for it);
        /// 2 a canary failed, so no gate could be trusted.
        public var exitStatus: Int32 { results.exitStatus }
    }

    /// Pairs, judges and writes the report and JUnit file.
    /// - Parameter progress: called after each pair (from the worker threads, one at a time).
    /// - Throws: ``FolderDiffError`` when a folder cannot be listed, two images share a stem, or
    ///   an output cannot be written.
    public func run(progress: (@Sendable (Progress) -> Void)? = nil) throws(FolderDiffError) -> Outcome {
        let pairs = try FolderPairs(expected: expectedFolder, actual: actualFolder, match: match).pairs()
        let canaryCheck = canaries.once(gate: gate)
        // The report is one generation (``OutputFolder``): staged, then swapped in whole.
        let folder: OutputFolder?
        do { folder = try reportFolder.map { path throws(EncodeError) in try OutputFolder(path) } } catch {
            throw .output(reportFolder ?? "", "\(error)")
        }
        var sized = Judge(gate: gate, tolerance: tolerance, canaries: canaryCheck, diagnosing: .whenFailing,
                          antiAliasingCounts: antiAliasingCounts)
        sized.sizePolicy = sizePolicy
        let judge = sized
        let counter = ProgressCounter()
        let settings = self
        let total = pairs.count
        let done = ParallelMap.run(total, threads: threads) { i -> FolderPairOutcome in
            let outcome = FolderPairJudgement(diff: settings, judge: judge, pair: pairs[i], index: i, folder: folder).run()
            if let progress { counter.report(total: total, item: outcome.item, progress) }
            return outcome
        }
        if let failed = done.first(where: { $0.writeError != nil }), let why = failed.writeError {
            folder?.abandon()
            throw .output(why.path, why.reason)
        }
        let ignoring = [ignored.summary, masks.map { "masks \($0.name)" }].compactMap { $0 }.joined(separator: "; ")
        let results = FolderDiffResults(expected: expectedFolder, actual: actualFolder, match: match, gate: gate?.description,
                                        ignored: ignoring.isEmpty ? nil : ignoring, canaryFailures: canaryCheck.failures?.map(\.description), items: done.map(\.item))
        if let junitPath {
            do { try ImageCodecs.writeAtomically(Array(FolderDiffJUnit.xml(results).utf8), to: junitPath) } catch {
                folder?.abandon()
                throw .output(junitPath, "\(error)")
            }
        }
        var index: String?
        if let folder {
            let html = FolderDiffReport.index(results, thumbnails: done.map(\.thumbnails))
            do {
                try folder.write(Array(html.utf8), to: "index.html")
                try folder.write(Array(results.jsonText.utf8), to: FolderDiffReport.resultsFile)
                try folder.publish()
            } catch {
                folder.abandon()
                throw .output(folder.path, "\(error)")
            }
            index = folder.path + "/index.html"
        }
        return Outcome(results: results, reportIndex: index)
    }

    /// Counts finished pairs and calls the progress closure one pair at a time.
    private final class ProgressCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var done = 0
        func report(total: Int, item: FolderDiffItem, _ progress: @Sendable (Progress) -> Void) {
            lock.lock(); defer { lock.unlock() }
            done += 1
            progress(Progress(done: done, total: total, item: item))
        }
    }
}

/// Why ``FolderDiff`` could not run (exit status 2).
public enum FolderDiffError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that is not a folder that can be listed.
    case notAFolder(String)
    /// Two images of one folder with the same key under `--match stem`: the folder and both paths.
    case ambiguousStem(String, [String])
    /// An output (report page, index, JUnit file) that cannot be written: its path and why.
    case output(String, String)

    public var description: String {
        switch self {
        case .notAFolder(let path): return "\(path): not a folder that can be listed"
        case .ambiguousStem(let folder, let paths):
            return "\(folder): \(paths.joined(separator: " and ")) have the same name without extension; --match stem cannot pair them (use --match path)"
        case .output(let path, let why): return "cannot write \(path): \(why)"
        }
    }
}

extension Judge.CanaryCheck {
    /// The failures of a check already run; `nil` when the canaries were skipped or not yet run.
    var failures: [Canaries.Failure]? {
        if case .checked(let f) = self { return f }
        return nil
    }
}
