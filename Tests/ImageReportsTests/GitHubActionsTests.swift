import Testing
@testable import ImageReports

/// GitHub's workflow-command escaping and the step summary's Markdown, against the runner's
/// documented rules (`escapeData`: % CR LF; `escapeProperty`: those and `:` `,`).
@Suite("GitHub Actions formats")
struct GitHubActionsTests {
    @Test("message data escapes %, CR and LF; property values escape : and , too")
    func escaping() {
        #expect(GitHubActions.data("50% off\r\nnext") == "50%25 off%0D%0Anext")
        #expect(GitHubActions.property("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
    }

    @Test("summary cells escape pipes and HTML and keep one line; code spans outnumber the backticks inside")
    func cells() {
        #expect(GitHubActions.cell("a|b <i>&\nc") == "a\\|b &lt;i>&amp; c")
        #expect(GitHubActions.code("x`y.png") == "``x`y.png``")
        #expect(GitHubActions.code("`edge`") == "`` `edge` ``")
        #expect(GitHubActions.code("a|b") == "`a\\|b`")
    }

    @Test("more findings than the limits: the first 50 annotated and one notice counts the rest; the table says how many more")
    func limits() {
        let findings = (0..<520).map { GitHubActions.Finding(file: "f\($0).png", key: "f\($0).png", status: "changed", message: "m") }
        let lines = GitHubActions.annotations(findings, command: "imglab diff")
        #expect(lines.count == 51 && lines.last == "::notice title=imglab diff::470 more failures are listed in the step summary")
        let summary = GitHubActions.summary(title: "t", facts: [], findings: findings)
        #expect(summary.components(separatedBy: "| changed |").count - 1 == 500)
        #expect(summary.contains("… and 20 more"))
    }
}
