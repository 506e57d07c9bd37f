/// GitHub Actions' own formats for a comparison's failures: workflow-command annotations
/// (`::error file=…,title=…::…`, shown on the run's page and beside the file in a pull
/// request) and a Markdown step summary (appended to `$GITHUB_STEP_SUMMARY`). Pure.
public enum GitHubActions {
    /// One failure shown by the CI: the file it concerns, a short title and the whole message.
    public struct Finding: Sendable, Hashable {
        /// The path of the file, as the command was given it; empty for a finding of no one file
        /// (a run's group of failing pairs), whose annotation then has no `file=`.
        public var file: String
        /// The key shown in the summary (a folder diff's relative path; the file for two files).
        public var key: String
        /// The status word: changed, new, deleted, error, different.
        public var status: String
        /// Why it fails, one line (the failed gate clauses, the pixel count, the sizes).
        public var message: String
        /// The diagnosis, when one was made.
        public var diagnosis: String?

        public init(file: String, key: String, status: String, message: String, diagnosis: String? = nil) {
            self.file = file
            self.key = key
            self.status = status
            self.message = message
            self.diagnosis = diagnosis
        }
    }

    /// At most this many annotations are printed; GitHub shows only the first few of a step anyway,
    /// and the rest are counted in one notice pointing at the step summary.
    public static let maxAnnotations = 50
    /// At most this many rows in the summary's table (GitHub takes 1 MiB of summary a step).
    public static let maxSummaryRows = 500

    /// The annotation lines, one `::error` per finding (up to ``maxAnnotations``, then one `::notice`).
    public static func annotations(_ findings: [Finding], command: String) -> [String] {
        var lines = findings.prefix(maxAnnotations).map { f in
            "::error " + (f.file.isEmpty ? "" : "file=\(property(f.file)),") + "title=\(property("\(command): \(f.key) \(f.status)"))::"
                + data(f.message + (f.diagnosis.map { "\nDiagnosis: " + $0 } ?? ""))
        }
        if findings.count > maxAnnotations {
            lines.append("::notice title=\(property(command))::" + data("\(findings.count - maxAnnotations) more failures are listed in the step summary"))
        }
        return lines
    }

    /// The Markdown step summary: a heading with the verdict, the counts, and a table of the
    /// findings (up to ``maxSummaryRows``, then how many more).
    /// - Parameters:
    ///   - title: the heading, e.g. `imglab diff: 3 of 200 files fail`.
    ///   - facts: label and value lines under the heading (expected, actual, gate).
    ///   - keyHeading: the heading of the findings' first column (`file`, or a run's `failing pairs`).
    public static func summary(title: String, facts: [(String, String)], findings: [Finding], keyHeading: String = "file") -> String {
        var md = "### \(cell(title))\n\n"
        for (label, value) in facts { md += "- \(label): \(code(value))\n" }
        if findings.isEmpty { return md + "\nNo failures.\n\n" }
        md += "\n| \(cell(keyHeading)) | status | why | diagnosis |\n|---|---|---|---|\n"
        for f in findings.prefix(maxSummaryRows) {
            md += "| \(code(f.key)) | \(cell(f.status)) | \(cell(f.message)) | \(cell(f.diagnosis ?? "")) |\n"
        }
        if findings.count > maxSummaryRows { md += "\n… and \(findings.count - maxSummaryRows) more (the JSON results list them all).\n" }
        return md + "\n"
    }

    /// A workflow command's message: `%`, CR and LF escaped (the runner's `escapeData`).
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value: as ``data(_:)``, and `:` and `,` too (the runner's `escapeProperty`).
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// A Markdown table cell: pipes escaped, line breaks as spaces, HTML's `<` and `&` escaped
    /// (GitHub renders the summary's HTML).
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }

    /// A path or expression as inline code in a cell, between backticks that outnumber any run
    /// of backticks inside (a code span shows entities literally, so only pipes and line breaks are escaped).
    static func code(_ text: String) -> String {
        let inner = text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
        var longest = 0, run = 0
        for c in inner { run = c == "`" ? run + 1 : 0; longest = max(longest, run) }
        let fence = String(repeating: "`", count: longest + 1)
        return fence + (inner.first == "`" || inner.last == "`" ? " \(inner) " : inner) + fence
    }
}
