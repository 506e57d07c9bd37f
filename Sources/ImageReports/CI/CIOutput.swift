import ImageCodecs
import ImageLab
import ImageMetrics

/// A comparison's failures in the CI service's own formats, besides the screen and the files
/// (docs/diff.md, "In CI"): GitHub Actions annotations on standard output and a Markdown
/// summary appended to the step summary file.
public struct CIOutput: Sendable, Equatable {
    /// What `--ci-output` asks for.
    public enum Mode: Sendable, Equatable {
        /// GitHub's formats when the environment says the command runs in GitHub Actions
        /// (`GITHUB_ACTIONS=true`), nothing otherwise.
        case auto
        /// GitHub's formats wherever the command runs.
        case github
        /// Nothing beyond the screen and the files asked for.
        case none
    }

    /// Whether annotation lines are printed.
    public var annotations: Bool
    /// The file the Markdown summary is appended to (`$GITHUB_STEP_SUMMARY`), `nil`: none.
    public var stepSummary: String?

    /// No CI output.
    public static let none = CIOutput(annotations: false, stepSummary: nil)

    public init(annotations: Bool, stepSummary: String?) {
        self.annotations = annotations
        self.stepSummary = stepSummary
    }

    /// The output `mode` asks for in `environment` (the process's variables): the step summary
    /// goes to `GITHUB_STEP_SUMMARY` when that is set and not empty.
    public init(_ mode: Mode, environment: [String: String]) {
        let github = mode == .github || (mode == .auto && environment["GITHUB_ACTIONS"] == "true")
        let summary = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(annotations: github, stepSummary: github ? summary : nil)
    }

    /// The failures of a folder diff: every changed, new, deleted or unreadable file, named by its
    /// path (the actual file, or the expected one of a deleted file).
    static func findings(_ r: FolderDiffResults) -> [GitHubActions.Finding] {
        func path(_ folder: String, _ name: String) -> String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }
        return r.items.filter { $0.status.kind.fails }.map { item in
            let file = item.actual.map { path(r.actual, $0) } ?? item.expected.map { path(r.expected, $0) } ?? path(r.actual, item.key)
            return GitHubActions.Finding(file: file, key: item.key, status: item.status.rawValue,
                                         message: item.message ?? item.status.rawValue,
                                         diagnosis: item.diagnosis.map { (item.diagnosisClass.map { $0 + ": " } ?? "") + $0 })
        }
    }

    /// The failure of two files' judgement (none when it passes).
    static func findings(_ j: Judgement, actual: String) -> [GitHubActions.Finding] {
        guard !j.passed else { return [] }
        let c = j.comparison
        let named = j.diagnosed && !c.identical ? c.diagnosis.bugClass.map { "\($0): \(c.diagnosis.summary)" } : nil
        return [GitHubActions.Finding(file: actual, key: actual, status: j.kind == .error ? "error" : "different",
                                      message: j.finding ?? "different", diagnosis: named)]
    }

    /// The failures of a run, one finding per group of failing pairs (``RunTally/failureGroups``:
    /// a gate family and the metric whose bound failed, or an error), with the group's first pair
    /// and the diagnosis; a run streams its pairs, so the groups are what it keeps.
    static func findings(_ tally: RunTally) -> [GitHubActions.Finding] {
        tally.failureGroups.map { g in
            let name = (g.family ?? "no family") + (g.metric.map { " / " + $0 } ?? "")
            return GitHubActions.Finding(file: "", key: name, status: "\(g.count) pair" + (g.count == 1 ? " fails" : "s fail"),
                                         message: "e.g. \(g.example): \(g.clause)", diagnosis: g.diagnosis)
        }
    }

    /// The CI output of a streamed run (``RunSession/StreamedOutcome``): an annotation per group of
    /// failing pairs and the step summary (the resizer, profile, corpus and report as facts).
    /// - Returns: the annotation lines to print (empty when not asked for).
    /// - Throws: ``EncodeError`` when the summary file cannot be appended to.
    public func emit(_ run: RunSession.StreamedOutcome, report: String?) throws(EncodeError) -> [String] {
        let r = run.results, s = run.tally.summary, failing = s.failing
        let title = "imglab run: \(r.resizer) on \(r.profile): " + (failing == 0 ? "\(s.pairs) pairs pass" : "\(failing) of \(s.pairs) pairs fail")
        let facts = [("resizer", r.resizer), ("profile", r.profile), ("corpus", r.corpus)] + (report.map { [("report", $0 + "/index.html")] } ?? [])
        return try emit(Self.findings(run.tally), title: title, facts: facts, command: "imglab run", keyHeading: "failing pairs")
    }

    /// The annotations to print and the summary appended (when asked for) for `findings`.
    /// - Returns: the annotation lines (empty when not asked for).
    /// - Throws: ``EncodeError`` when the summary file cannot be appended to.
    func emit(_ findings: [GitHubActions.Finding], title: String, facts: [(String, String)], command: String = "imglab diff",
              keyHeading: String = "file") throws(EncodeError) -> [String] {
        if let stepSummary {
            let markdown = GitHubActions.summary(title: title, facts: facts, findings: findings, keyHeading: keyHeading)
            try OutputFile.append(Array(markdown.utf8), to: stepSummary)
        }
        return annotations ? GitHubActions.annotations(findings, command: command) : []
    }
}
