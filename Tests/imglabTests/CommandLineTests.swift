import Foundation
import Testing

/// Whole command lines: exit status, what goes to stdout and stderr.
@Suite("Command line")
struct CommandLineTests {
    @Test("no command prints the overview and exits 2")
    func overview() throws {
        let run = try ImglabRun.run([])
        #expect(run.status == 2)
        #expect(run.stdout.contains("COMMANDS:"))
        #expect(run.stdout.contains("info"))
        // Every command's name stands two spaces or more from its summary, the summaries in one column (a name as
        // long as "fingerprint" once ran into its summary: "fingerprininfer").
        let rows = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "COMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
        #expect(rows.count >= 14)
        var columns = Set<Int>()
        for row in rows {
            let name = row.dropFirst(2).prefix { $0 != " " }
            let gap = row.dropFirst(2 + name.count).prefix { $0 == " " }
            #expect(row.hasPrefix("  ") && gap.count >= 2, "\(row)")
            columns.insert(2 + name.count + gap.count)
        }
        #expect(columns.count == 1, "the summaries start in one column: \(columns)")
    }

    @Test("an unknown command is a usage error")
    func unknownCommand() throws {
        let run = try ImglabRun.run(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown command 'frobnicate'"))
    }

    @Test("info --help teaches the command and exits 0")
    func infoHelp() throws {
        let run = try ImglabRun.run(["info", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: imglab info"))
        #expect(run.stdout.contains("bitmap-context verdict"))
    }

    @Test("an unknown option is a usage error of one line naming it and the help to read")
    func unknownOption() throws {
        let run = try ImglabRun.run(["info", "--bogus", "x.png"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown option --bogus"))
        #expect(run.stdout.isEmpty)
        #expect(Self.lines(run.stderr) == ["imglab info: unknown option --bogus (see 'imglab info --help')"])
    }

    /// The lines of standard error without the peak-memory line the test harness asks for.
    static func lines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("imglab: peak memory") }
    }

    @Test("a near miss is answered with the name meant: a command within two edits, an option within two")
    func nearMiss() throws {
        let command = try ImglabRun.run(["rnu"])
        #expect(command.status == 2)
        #expect(Self.lines(command.stderr) == ["imglab: unknown command 'rnu', did you mean 'run'?; 'imglab --help' lists the commands"])
        let option = try ImglabRun.run(["diff", "a.png", "b.png", "--gte", "ssim >= 1"])
        #expect(option.status == 2)
        #expect(Self.lines(option.stderr) == ["imglab diff: unknown option --gte, did you mean --gate? (see 'imglab diff --help')"])
    }

    @Test("--version prints the version and the commit the build came from")
    func version() throws {
        let run = try ImglabRun.run(["--version"])
        #expect(run.status == 0)
        let line = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("imglab 0.9.0 (commit "), "\(line)")
        // Built from this checkout: a commit hash (with '+changes' for an edited tree), not 'unknown'.
        #expect(line.range(of: #"\(commit [0-9a-f]{12,}(\+changes)?\)$"#, options: .regularExpression) != nil, "\(line)")
    }

    @Test("every usage error is one line on standard error, printed once, whatever the command")
    func usageErrorsAreOneLine() throws {
        let calls: [[String]] = [["run", "--shard", "9/2"], ["diff", "a.png"], ["resize", "in.png"], ["thumbnail"], ["selftest", "--filter", "x"],
                                 ["league", "--profile", "huge"], ["corpus", "--threads", "0"], ["reproduce"], ["merge"], ["info"],
                                 ["run", "--json", "photo.png"], ["fuzz", "--count", "-1"], ["bless", "--threads", "x"], ["decode"]]
        for argv in calls {
            let run = try ImglabRun.run(argv)
            #expect(run.status == 2, "\(argv): \(run.status)")
            let lines = Self.lines(run.stderr)
            #expect(lines.count == 1, "\(argv): \(lines)")
            #expect(lines.first?.hasSuffix("(see 'imglab \(argv[0]) --help')") == true, "\(argv): \(lines)")
            #expect(run.stdout.isEmpty, "\(argv): \(run.stdout)")
        }
    }

    @Test("a missing file exits 1 and says so")
    func missingFile() throws {
        let run = try ImglabRun.run(["info", "/nonexistent/file.png"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no such file"))
    }

    @Test("a file that is no image is named as such")
    func notAnImage() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-an-image-\(UUID().uuidString).png")
        try Data("hello, world".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ImglabRun.run(["info", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("not a PNG, JPEG, GIF, TIFF, BMP, WebP, HEIF or AVIF file"))
    }
}
