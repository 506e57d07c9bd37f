import Foundation
import ImageCodecs
import ImageMetrics

/// `imglab diff EXPECTED ACTUAL` as one library entry: two files (``FileDiff``) or two folders
/// (``FolderDiff``), told apart by what the paths are, judged alike (the gate, the tolerance,
/// the masks, the decode limits) and reported alike (the screen, the JSON, a report folder,
/// the exit status of ``ExitRule``).
public struct DiffRequest: Sendable {
    /// The baseline: a file, or a folder of them.
    public var expected: String
    /// What is compared with it: a file, or a folder of them.
    public var actual: String
    /// The gate; `nil`: a pair passes only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double = 0
    /// The decode limits; `limits.maxBytes` is the memory budget (a folder diff's pair gets its
    /// share, the budget divided by ``threads``).
    public var decode = DecodeOptions()
    /// Pixels left out of every comparison.
    public var ignored = IgnoredPixels()
    /// The HTML report folder (`index.html`, and a page per changed pair for two folders).
    public var reportFolder: String?
    /// Two folders: how their files are paired (`nil`: by path).
    public var match: FolderPairing.Match?
    /// What images of different sizes get (``Judge/SizePolicy``): the verdict alone, or also the alignment.
    public var sizePolicy = Judge.SizePolicy.align
    /// Two folders: regions per file (``MaskSidecar``), added to ``ignored`` for the pairs they name.
    public var masks: MaskSidecar?
    /// Two folders: the JUnit file, one test case per file.
    public var junitPath: String?
    /// Two folders: the worker threads.
    public var threads = 1
    /// Colours compared through the files' profiles, or stored values (``ColourMode``).
    public var colour = ColourMode.managed
    /// Whether the results are kept beyond the screen (a results file): every metric is then
    /// computed. `false` (the screen alone) leaves out the anti-aliasing-tolerant counts
    /// (`exact.over.N.nonAA`), which only a gate, a report, a JUnit file or the results show,
    /// unless one of those asks for them. Default true.
    public var keepsResults: Bool
    /// The failures in a CI service's formats too (``CIOutput``): annotations and a step summary.
    public var ci = CIOutput.none

    /// Whether the `exact.over.N.nonAA` counts are computed: when something shows, keeps or gates on them.
    var antiAliasingCounts: Bool { keepsResults || reportFolder != nil || junitPath != nil }

    public init(expected: String, actual: String, gate: GateExpression?, keepsResults: Bool = true) {
        self.keepsResults = keepsResults
        self.expected = expected
        self.actual = actual
        self.gate = gate
    }

    /// Whether two folders are compared (`false`: two files).
    /// - Throws: ``DiffRequestError/fileAndFolder`` for a file and a folder.
    public func comparesFolders() throws(DiffRequestError) -> Bool {
        let folders = [expected, actual].map { p -> Bool in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if folders[0] != folders[1] { throw .fileAndFolder }
        return folders[0]
    }

    /// What a diff found, for the terminal and the files.
    public struct Outcome: Sendable {
        /// The screen printed on standard output.
        public var screen: String
        /// The `--json` object.
        public var json: String
        /// Lines for standard error beside the screen (why a pair could not be judged, a hint).
        public var notes: [String]
        /// The lines for standard error when the JSON is printed instead of the screen.
        public var notesWithoutScreen: [String]
        /// ``ExitRule``: 0 pass, 1 fail, 2 not judged.
        public var exitStatus: Int32
        /// The CI annotation lines (``CIOutput``), for standard output; empty when not asked for.
        public var annotations: [String] = []
    }

    /// Compares, writes the report (and the JUnit file of two folders) and returns the outcome.
    /// - Parameter progress: each judged pair of a folder diff, from the worker threads.
    /// - Throws: ``DiffRequestError`` when a file or folder cannot be read, the budget is too
    ///   small, or a report cannot be written.
    public func run(progress: (@Sendable (FolderDiff.Progress) -> Void)? = nil) throws(DiffRequestError) -> Outcome {
        if let summary = ci.stepSummary {
            do { _ = try OutputFile.check(summary) } catch { throw .ciOutput(summary, "\(error)") }
        }
        if try comparesFolders() {
            var diff = FolderDiff(expected: expected, actual: actual, match: match ?? .path, gate: gate, tolerance: tolerance,
                                  decode: decode, ignored: ignored, reportFolder: reportFolder, junitPath: junitPath,
                                  threads: threads)
            diff.colour = colour
            diff.antiAliasingCounts = antiAliasingCounts
            diff.masks = masks
            diff.sizePolicy = sizePolicy
            diff.resizeStage = .builtin
            let outcome: FolderDiff.Outcome
            do { outcome = try diff.run(progress: progress) } catch { throw .folders(error.description) }
            let r = outcome.results, failing = r.summary.changed + r.summary.new + r.summary.deleted + r.summary.error
            let title = failing == 0 ? "imglab diff: all \(r.summary.keys) files pass" : "imglab diff: \(failing) of \(r.summary.keys) files fail"
            let lines = try emit(CIOutput.findings(r), title: title)
            let pairs = r.items.map { FolderPairing.Pair(key: $0.key, expected: $0.expected, actual: $0.actual) }
            let unused = (masks?.unused(in: pairs) ?? []).map { "--masks: '\($0)' names no file of either folder" }
            return Outcome(screen: outcome.screen, json: outcome.json, notes: unused, notesWithoutScreen: unused,
                           exitStatus: outcome.exitStatus, annotations: lines)
        }
        if junitPath != nil || match != nil || masks != nil { throw .folderOptions }
        var diff = FileDiff(expected: expected, actual: actual, gate: gate, tolerance: tolerance, decode: decode,
                            reportFolder: reportFolder, ignored: ignored, colour: colour)
        diff.comparison.antiAliasingCounts = antiAliasingCounts
        diff.comparison.sizePolicy = sizePolicy
        diff.comparison.resizeStage = .builtin
        let outcome: FileDiff.Outcome
        do { outcome = try diff.run() } catch { throw .files(error.description) }
        let hint = outcome.exitStatus == 1 && outcome.problem == nil && gate == nil
            ? ["the images differ; --gate EXPR states how much difference passes (e.g. --gate 'deltaE00.p99 <= 2 && "
               + "ssim >= 0.98'; metrics in 'imglab diff --help')"] : []
        let title = "imglab diff: \(actual) " + (outcome.judgement.passed ? "passes" : "differs from \(expected)")
        let lines = try emit(CIOutput.findings(outcome.judgement, actual: actual), title: title)
        return Outcome(screen: outcome.screen, json: outcome.json,
                       notes: (outcome.problem(besideScreen: true).map { [$0] } ?? []) + hint,
                       notesWithoutScreen: (outcome.problem.map { [$0] } ?? []) + hint, exitStatus: outcome.exitStatus,
                       annotations: lines)
    }

    /// The CI output of `findings` (``CIOutput``), with the paths and the gate as the summary's facts.
    private func emit(_ findings: [GitHubActions.Finding], title: String) throws(DiffRequestError) -> [String] {
        let facts = [("expected", expected), ("actual", actual)] + (gate.map { [("gate", $0.description)] } ?? [])
        do { return try ci.emit(findings, title: title, facts: facts) } catch {
            throw .ciOutput(ci.stepSummary ?? "", "\(error)")
        }
    }
}

/// Why ``DiffRequest`` could not compare (exit status 2).
public enum DiffRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One path is a file and the other a folder.
    case fileAndFolder
    /// `--junit` or `--match` given for two files.
    case folderOptions
    /// Two files that could not be compared (``FileDiffError``'s description).
    case files(String)
    /// Two folders that could not be compared (``FolderDiffError``'s description).
    case folders(String)
    /// The CI step summary file (its path) that cannot be appended to, and why.
    case ciOutput(String, String)

    public var description: String {
        switch self {
        case .fileAndFolder: return "give two files or two folders, not a file and a folder"
        case .folderOptions: return "--junit, --match and --masks compare two folders, not two files (two files: --ignore, --mask)"
        case .files(let why), .folders(let why): return why
        case .ciOutput(_, let why): return "the CI step summary (GITHUB_STEP_SUMMARY): \(why)"
        }
    }
}
