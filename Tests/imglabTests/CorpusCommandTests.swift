import Foundation
import Testing

/// `imglab corpus` as CI calls it: `--check` against the committed `Corpus/`.
@Suite("Corpus command")
struct CorpusCommandTests {
    static let corpusFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus").path

    @Test("corpus --help teaches the command and exits 0")
    func help() throws {
        let run = try ImglabRun.run(["corpus", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: imglab corpus"))
        #expect(run.stdout.contains("--check"))
        #expect(run.stdout.contains("EXIT STATUS"))
    }

    @Test("an unknown profile, or the scale profile, which has no corpus to write, is a usage error (exit 2)")
    func badProfile() throws {
        let run = try ImglabRun.run(["corpus", "--profile", "medium"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--profile must be quick, full or scale, not 'medium'"))
        let scale = try ImglabRun.run(["corpus", "--profile", "scale"])
        #expect(scale.status == 2)
        #expect(scale.stderr.contains("--profile must be quick or full here, not 'scale'"))
    }

    @Test("corpus --check passes on the committed Corpus/ (exit 0), and fails on an empty folder (exit 1)")
    func checkCommittedCorpus() throws {
        let run = try ImglabRun.run(["corpus", "--check", "--out", Self.corpusFolder])
        #expect(run.status == 0, "\(run.stderr.prefix(2000))")
        #expect(run.stdout.contains("matches the quick profile bit for bit"))

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let failing = try ImglabRun.run(["corpus", "--check", "--out", empty.path])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("missing:"))
    }
}
