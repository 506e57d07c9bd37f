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

    @Test("an unknown option is a usage error naming it")
    func unknownOption() throws {
        let run = try ImglabRun.run(["info", "--bogus", "x.png"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown option --bogus"))
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
        #expect(run.stderr.contains("not a PNG, JPEG, GIF, TIFF or BMP file"))
    }
}
