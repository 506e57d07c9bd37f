import Foundation
import Testing
import ImageCore
import ImageCodecs
import TestSupport

/// `imglab diff` end to end: exit codes, gate, JSON, report, messages.
@Suite("diff command")
struct DiffCommandTests {
    static func temporaryPath(_ name: String) -> String {
        let dir = (try? ScratchFolder.new("imglab-diff")) ?? URL(fileURLWithPath: ScratchFolder.root)
        return dir.appendingPathComponent(name).path
    }

    /// A 40×30 RGB PNG; `swap` exchanges red and blue.
    static func png(swap: Bool = false, width: Int = 40) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<30 { for x in 0..<width { let r = UInt8(x * 6), g = UInt8(y * 8), b = UInt8(200 - x); bytes += swap ? [b, g, r] : [r, g, b] } }
        let path = temporaryPath("img-\(swap)-\(width).png")
        try Data(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: width, height: 30, format: .rgb8, bytes: bytes)), as: .png))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("identical files exit 0, different files exit 1 and name the bug")
    func exitCodes() throws {
        let a = try Self.png(), b = try Self.png(swap: true)
        let same = try ImglabRun.run(["diff", a, a])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("identical by value"))
        let different = try ImglabRun.run(["diff", a, b])
        #expect(different.status == 1)
        #expect(different.stdout.contains("channel-order"))
    }

    @Test("a gate that holds exits 0, one that fails exits 1 with the failing clause")
    func gate() throws {
        let a = try Self.png(), b = try Self.png(swap: true)
        let pass = try ImglabRun.run(["diff", a, a, "--gate", "deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let fail = try ImglabRun.run(["diff", a, b, "--gate", "deltaE00.p99 <= 2 && ssim >= 0.98"])
        #expect(fail.status == 1, "\(fail.stderr)")
        #expect(fail.stdout.contains("✗ deltaE00.p99"))
    }

    @Test("errors exit 2: unreadable file, bad gate, a gate metric without a value")
    func errors() throws {
        let a = try Self.png()
        #expect(try ImglabRun.run(["diff", a, "/nonexistent.png"]).status == 2)
        let bad = try ImglabRun.run(["diff", a, a, "--gate", "ssim >>= 1"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("gate syntax error"))
        let unknown = try ImglabRun.run(["diff", a, a, "--gate", "ssimm >= 1"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown metric 'ssimm'"))
        // MS-SSIM needs 176 pixels; a 40×30 image has none, so the gate cannot pass by omission.
        let missing = try ImglabRun.run(["diff", a, a, "--gate", "msssim >= 0.9"])
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("msssim"))
        // A results file that cannot be written: the message names the path once.
        let unwritable = try ImglabRun.run(["diff", a, a, "--json", "/proc/imglab-none/results.json"])
        #expect(unwritable.status != 0)
        #expect(unwritable.stderr.components(separatedBy: "/proc/imglab-none/results.json").count == 2, "\(unwritable.stderr)")
    }

    @Test("different sizes exit 1 with a clear message, said once: on the screen, or on standard error beside --json -")
    func sizes() throws {
        let run = try ImglabRun.run(["diff", try Self.png(), try Self.png(width: 30)])
        #expect(run.status == 1)
        #expect(run.stdout.contains("DIFFERENT SIZES: 40×30 vs 30×30"))
        #expect(!run.stderr.contains("different sizes"), "\(run.stderr)")
        let json = try ImglabRun.run(["diff", try Self.png(), try Self.png(width: 30), "--json", "-"])
        #expect(json.status == 1)
        #expect(json.stderr.contains("different sizes (40×30 vs 30×30"))
        #expect(json.stdout.hasPrefix("{"))
    }

    @Test("--json carries every metric with its version and diagnosis.class / diagnosis.confidence")
    func json() throws {
        let run = try ImglabRun.run(["diff", try Self.png(), try Self.png(swap: true), "--json", "-"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnosis = try #require(object["diagnosis"] as? [String: Any])
        #expect(diagnosis["class"] as? String == "channel-order")
        #expect((diagnosis["confidence"] as? Double ?? 0) > 0.9)
        let metrics = try #require(object["metrics"] as? [String: [String: Any]])
        #expect(metrics["ssim"]?["version"] as? String == "ssim-wang2004-gauss11-valid/1")
        #expect(metrics.values.allSatisfy { $0["version"] is String })
        #expect(metrics["msssim"]?["missingReason"] as? String != nil)
    }

    @Test("--report DIR writes DIR/index.html, one self-contained page, and the screen names it")
    func report() throws {
        let out = Self.temporaryPath("report")
        let run = try ImglabRun.run(["diff", try Self.png(), try Self.png(swap: true), "--report", out])
        #expect(run.status == 1)
        #expect(run.stdout.contains(out + "/index.html"), "\(run.stdout)")
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("channel-order"))
        #expect(!html.contains("src=\"http"), "the page loads nothing from outside")
    }

    @Test("--report means a folder for two files as for two folders: a folder of the user's is refused before any work")
    func reportFolderOfTheUser() throws {
        let out = Self.temporaryPath("mine")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        let run = try ImglabRun.run(["diff", try Self.png(), try Self.png(swap: true), "--report", out])
        #expect(run.status == 2)
        #expect(run.stderr.contains("a folder imglab did not write (it holds 'notes.txt')"), "\(run.stderr)")
        #expect(try String(contentsOfFile: out + "/notes.txt", encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: out + "/index.html"))
    }

    @Test("--help teaches: usage, metrics, exit status, examples")
    func help() throws {
        let run = try ImglabRun.run(["diff", "--help"])
        #expect(run.status == 0)
        for part in ["USAGE: imglab diff", "--gate", "deltaE00.p99", "EXIT STATUS", "EXAMPLES"] { #expect(run.stdout.contains(part)) }
    }

    @Test("two folders: a changed and a new file exit 1 and are listed; --json, --junit and --report are written; progress goes to standard error")
    func folders() throws {
        let root = URL(fileURLWithPath: Self.temporaryPath("x")).deletingLastPathComponent().path
        let expected = root + "/expected", actual = root + "/actual"
        for f in [expected, actual] { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: try Self.png(), toPath: expected + "/a.png")
        try FileManager.default.copyItem(atPath: try Self.png(swap: true), toPath: actual + "/a.png")
        try FileManager.default.copyItem(atPath: try Self.png(), toPath: actual + "/b.png")
        let run = try ImglabRun.run(["diff", expected, actual, "--junit", root + "/j.xml", "--report", root + "/report"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("2 files: 1 changed, 1 new, 0 deleted"))
        #expect(run.stdout.contains("CHANGED") && run.stdout.contains("a.png") && run.stdout.contains("b.png"))
        #expect(run.stderr.contains("[2/2]"), "no progress line: \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/j.xml") && FileManager.default.fileExists(atPath: root + "/report/index.html"))
        let json = try ImglabRun.run(["diff", expected, actual, "--json", "-"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["exitStatus"] as? Int == 1)
        let same = try ImglabRun.run(["diff", expected, expected])
        #expect(same.status == 0, "\(same.stderr)")
        let mixed = try ImglabRun.run(["diff", expected, expected + "/a.png"])
        #expect(mixed.status == 2 && mixed.stderr.contains("not a file and a folder"))
        let junitForFiles = try ImglabRun.run(["diff", expected + "/a.png", actual + "/a.png", "--junit", root + "/k.xml"])
        #expect(junitForFiles.status == 2)
    }

    @Test("--ignore and --mask: a difference only in the ignored area exits 0 with ignored.pixels in the JSON; a bad region or a wrong-size mask exits 2")
    func ignoredPixels() throws {
        let a = try Self.png(), b = try Self.png(swap: true)
        // R and B differ wherever 6x ≠ 200 − x: every column but none (6x = 200 − x has no integer x), so ignore all 40×30.
        let all = try ImglabRun.run(["diff", a, b, "--ignore", "0,0,20,30", "--ignore", "20,0,20,30", "--json", "-"])
        #expect(all.status == 0, "\(all.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        #expect(((object["metrics"] as? [String: Any])?["ignored.pixels"] as? [String: Any])?["value"] as? Double == 1200)
        let part = try ImglabRun.run(["diff", a, b, "--ignore", "0,0,20,30"])
        #expect(part.status == 1)
        let bad = try ImglabRun.run(["diff", a, b, "--ignore", "0,0,-1,3"])
        #expect(bad.status == 2 && bad.stderr.contains("x,y,w,h"))
        let wrong = try ImglabRun.run(["diff", a, b, "--mask", try Self.png(width: 41)])
        #expect(wrong.status == 2 && wrong.stderr.contains("41×30"), "\(wrong.stderr)")
    }
}
