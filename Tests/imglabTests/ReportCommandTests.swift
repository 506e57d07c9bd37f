import Foundation
import Testing
import TestSupport

/// `imglab report RESULTS.json --out DIR` on a run's report, end to end: the rebuilt report is
/// the run's own files (the JUnit's times aside: the results keep none), and bad usage exits 2.
@Suite("report command")
struct ReportCommandTests {
    @Test("a run's report rebuilt from its results.json: the same index, pair pages and results; the JUnit the same but for times")
    func runReportRebuilt() throws {
        let dir = try RunCommandTests.temporaryFolder().path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try ImglabRun.run(["run", "--corpus", RunCommandTests.corpus, "--filter", "png-rgba8-colorPatches*,gif-anim-none*",
                                     "--resizer", "mutant:swap-rb", "--report", "R"], in: dir)
        #expect(run.status == 1, "the channel swap fails its pairs: \(run.stderr)")
        let rebuilt = try ImglabRun.run(["report", "R/results.json", "--out", "R2"], in: dir)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let original = FolderSnapshot.files(dir + "/R", except: [".imglab-output"]), again = FolderSnapshot.files(dir + "/R2", except: [".imglab-output"])
        let pages = original.keys.filter { $0.hasPrefix("pairs/") }.count, thumbs = original.keys.filter { $0.hasPrefix("thumbs/") }.count
        #expect(pages > 0 && rebuilt.stdout.contains("pages      \(pages) carried"), "\(rebuilt.stdout)")
        #expect(thumbs > 0 && rebuilt.stdout.contains("thumbnails \(thumbs) carried"), "every failing pair has a difference thumbnail: \(rebuilt.stdout)")
        #expect(Set(original.keys) == Set(again.keys))
        for (path, text) in original where path != "junit.xml" { #expect(again[path] == text, "\(path) differs") }
        // The pages' paths in the JUnit name the folder written; the times are the run's alone.
        let untimed = { (d: Data?) in String(decoding: d ?? Data(), as: UTF8.self).replacingOccurrences(of: #"time="[0-9.]+""#, with: "time=\"\"", options: .regularExpression) }
        #expect(untimed(again["junit.xml"]) == untimed(original["junit.xml"]).replacingOccurrences(of: "R/pairs/", with: "R2/pairs/"))
    }

    @Test("without --out, with no file, or with two files: exit 2 saying what to give; --help teaches it")
    func usage() throws {
        let dir = try RunCommandTests.temporaryFolder().path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let noOut = try ImglabRun.run(["report", "results.json"], in: dir)
        #expect(noOut.status == 2 && noOut.stderr.contains("--out DIR is required"), "\(noOut.stderr)")
        #expect(try ImglabRun.run(["report", "--out", "r"], in: dir).status == 2)
        #expect(try ImglabRun.run(["report", "a.json", "b.json", "--out", "r"], in: dir).status == 2)
        let missing = try ImglabRun.run(["report", "nothing.json", "--out", "r"], in: dir)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read nothing.json"), "\(missing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "a refused command wrote into the folder")
        let help = try ImglabRun.run(["report", "--help"])
        for text in ["USAGE: imglab report", "--report DIR", "--out", "the same files", "EXAMPLES"] { #expect(help.stdout.contains(text), "\(text)") }
    }
}
