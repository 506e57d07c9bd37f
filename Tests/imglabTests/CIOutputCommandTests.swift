import Foundation
import Testing
import TestSupport

/// `imglab diff` in CI: GitHub Actions annotations and the step summary, under a simulated
/// GitHub environment (`GITHUB_ACTIONS=true`, `GITHUB_STEP_SUMMARY`). The expected lines follow
/// GitHub's workflow-command syntax: `::error file=F,title=T::MESSAGE`, with `%`, CR and LF
/// escaped as `%25`, `%0D`, `%0A` everywhere and `:` and `,` as `%3A`, `%2C` in properties.
@Suite("diff in CI: annotations and step summary")
struct CIOutputCommandTests {
    /// Two folders: `same.png` identical, `changed.png` channel-swapped, `new.png` only in
    /// actual, `gone.png` only in expected.
    static func folders() throws -> (root: String, expected: String, actual: String) {
        let root = try ScratchFolder.new("imglab-ci").path
        let expected = root + "/expected", actual = root + "/actual"
        for f in [expected, actual] { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        let plain = try DiffCommandTests.png(), swapped = try DiffCommandTests.png(swap: true)
        for (source, target) in [(plain, expected + "/same.png"), (plain, actual + "/same.png"), (plain, expected + "/changed.png"),
                                 (swapped, actual + "/changed.png"), (plain, actual + "/new.png"), (plain, expected + "/gone.png")] {
            try FileManager.default.copyItem(atPath: source, toPath: target)
        }
        return (root, expected, actual)
    }

    static func annotations(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
    }

    @Test("in GitHub Actions, a folder diff prints one ::error per changed, new and deleted file and appends a Markdown table to the step summary, keeping what earlier steps wrote")
    func folderDiffInGitHubActions() throws {
        let (root, expected, actual) = try Self.folders()
        let summary = root + "/summary.md"
        try Data("earlier step\n".utf8).write(to: URL(fileURLWithPath: summary))
        let run = try ImglabRun.run(["diff", expected, actual],
                                    environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = Self.annotations(run.stdout)
        #expect(lines.count == 3, "\(lines)")
        for (key, status, file) in [("changed.png", "changed", actual + "/changed.png"), ("new.png", "new", actual + "/new.png"),
                                    ("gone.png", "deleted", expected + "/gone.png")] {
            let prefix = "::error file=\(file),title=imglab diff%3A \(key) \(status)::"
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no line starting \(prefix) in \(lines)")
        }
        #expect(!run.stdout.contains("same.png"))
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("earlier step\n### imglab diff: 3 of 4 files fail\n"), "\(text)")
        for row in ["| `changed.png` | changed |", "| `new.png` | new |", "| `gone.png` | deleted |"] {
            #expect(text.contains(row), "no row \(row) in \(text)")
        }
        #expect(!text.contains("same.png"))
    }

    @Test("--ci-output none prints no annotation and leaves the step summary alone; outside GitHub Actions nothing is added unless --ci-output github")
    func choosingTheOutput() throws {
        let (root, expected, actual) = try Self.folders()
        let summary = root + "/summary.md"
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: summary))
        let github = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary]
        let none = try ImglabRun.run(["diff", expected, actual, "--ci-output", "none"], environment: github)
        #expect(none.status == 1 && Self.annotations(none.stdout).isEmpty, "\(none.stdout)")
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "kept\n")
        let local = try ImglabRun.run(["diff", expected, actual])
        #expect(local.status == 1 && Self.annotations(local.stdout).isEmpty)
        let forced = try ImglabRun.run(["diff", expected, actual, "--ci-output", "github"])
        #expect(Self.annotations(forced.stdout).count == 3, "\(forced.stdout)")
        let json = try ImglabRun.run(["diff", expected, actual, "--json", "-", "--ci-output", "github"])
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any], "annotations mixed into the JSON")
        #expect(Self.annotations(json.stderr).count == 3, "with --json -, annotations go to standard error: \(json.stderr)")
    }

    @Test("two files: a path with a comma and a colon is escaped in the annotation's file property; a passing pair prints none")
    func twoFilesEscaped() throws {
        let root = try ScratchFolder.new("imglab-ci").path
        let expected = root + "/a.png", actual = root + "/b,c:d.png"
        try FileManager.default.copyItem(atPath: try DiffCommandTests.png(), toPath: expected)
        try FileManager.default.copyItem(atPath: try DiffCommandTests.png(swap: true), toPath: actual)
        let run = try ImglabRun.run(["diff", expected, actual], environment: ["GITHUB_ACTIONS": "true"])
        #expect(run.status == 1)
        let lines = Self.annotations(run.stdout)
        let escaped = root.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") + "/b%2Cc%3Ad.png"
        #expect(lines.count == 1 && lines[0].hasPrefix("::error file=\(escaped),title="), "\(lines)")
        // The message is one line: its diagnosis on a second line is escaped, not a line break.
        #expect(lines[0].contains("%0ADiagnosis: channel-order: "), "\(lines)")
        let same = try ImglabRun.run(["diff", expected, expected], environment: ["GITHUB_ACTIONS": "true"])
        #expect(same.status == 0 && Self.annotations(same.stdout).isEmpty)
    }

    @Test("a step summary path that is a FIFO or a symbolic link is refused before comparing (exit 2), and the link's target is untouched")
    func stepSummaryRefused() throws {
        let root = try ScratchFolder.new("imglab-ci").path
        let expected = try DiffCommandTests.png(), actual = try DiffCommandTests.png(swap: true)
        let fifo = root + "/fifo", target = root + "/target.md", link = root + "/link.md"
        #expect(mkfifo(fifo, 0o644) == 0)
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for (path, kind) in [(fifo, "a FIFO"), (link, "a symbolic link")] {
            let run = try ImglabRun.run(["diff", expected, actual], environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": path])
            #expect(run.status == 2 && run.stderr.contains("GITHUB_STEP_SUMMARY") && run.stderr.contains(kind), "\(run.stderr)")
            #expect(run.stdout.isEmpty, "compared before refusing: \(run.stdout)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "mine\n")
    }

    @Test("in GitHub Actions, a failing run prints one ::error per group of failing pairs (no file: a group is many pairs) and appends its summary; a passing run prints none and says so")
    func runInGitHubActions() throws {
        let root = try ScratchFolder.new("imglab-ci-run").path
        let summary = root + "/summary.md"
        let github = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary]
        let filter = "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24,gif-anim-none*"
        let swapped = try ImglabRun.run(["run", "--corpus", RunCommandTests.corpus, "--filter", filter, "--resizer", "mutant:swap-rb",
                                         "--report", "none"], environment: github, in: root)
        #expect(swapped.status == 1, "\(swapped.stderr)")
        let lines = Self.annotations(swapped.stdout)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("::error title=imglab run%3A ") && !$0.contains("file=") }, "\(lines)")
        // The groups count every failing pair once: the 5 pairs (1 PNG, 4 GIF operations) all fail under the channel swap.
        let counts = lines.compactMap { line in line.range(of: #" ([0-9]+) (pair fails|pairs fail)::"#, options: .regularExpression).map { r in
            Int(line[r].split(separator: " ")[0]) ?? 0 } }
        #expect(counts.count == lines.count && counts.reduce(0, +) == 5, "\(lines)")
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("### imglab run: swap-rb(builtin) on quick: 5 of 5 pairs fail\n"), "\(text)")
        #expect(text.contains("| failing pairs | status | why | diagnosis |") && text.contains("channel-order"), "\(text)")
        let builtin = try ImglabRun.run(["run", "--corpus", RunCommandTests.corpus, "--filter", filter, "--report", "none"],
                                        environment: github, in: root)
        #expect(builtin.status == 0 && Self.annotations(builtin.stdout).isEmpty, "\(builtin.stdout)")
        let after = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(after.hasPrefix(text) && after.hasSuffix("### imglab run: builtin on quick: 5 pairs pass\n\n- resizer: `builtin`\n"
                                                        + "- profile: `quick`\n- corpus: `\(RunCommandTests.corpus)`\n\nNo failures.\n\n"), "\(after)")
    }
}
