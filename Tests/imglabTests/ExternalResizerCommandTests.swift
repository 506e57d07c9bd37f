import Foundation
import Testing
import ImageCorpus

/// `imglab run --resizer cmd:…`, `--resizer-config` and `imglab league`, end to end, with
/// imglab's own `resize` command as the external program: it is the built-in resizer behind a
/// process boundary, so it must pass the gates exactly as the built-in adapter does.
@Suite("External resizer commands")
struct ExternalResizerCommandTests {
    static let corpus = RunCommandTests.corpus
    static var resize: String { CommandTemplateText.quoted(ImglabRun.executable) + " resize {in} -o {out} --size {width}x{height} --mode {mode}" }

    /// The resize operations `imglab resize` can express with --size and --mode alone.
    static let resizeFilter = "*/resize-aspectFit-24x24,*/resize-aspectFit-16x16,*/resize-scaleToFill-31x17,*/resize-scaleToFill-96x64,*/resize-aspectFill-20x20,*/resize-aspectFillWithoutCrop-20x20"

    static func results(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func pairs(_ results: [String: Any]) throws -> [[String: Any]] {
        try #require(results["pairs"] as? [[String: Any]])
    }

    @Test("cmd: running 'imglab resize' (the built-in resizer as an external program) passes every resize pair it is given")
    func builtinThroughACommandPasses() throws {
        let dir = try RunCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("cmd.json").path
        let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer", "cmd:" + Self.resize,
                                     "--filter", Self.resizeFilter, "--json", json])
        #expect(run.status == 0, "\(run.stdout.suffix(2000))\(run.stderr)")
        let r = try Self.results(json)
        let summary = try #require(r["summary"] as? [String: Any])
        // resize-aspectFit-24x24 is on every case, the others on 9 or 10 cases each.
        #expect((summary["pairs"] as? Int ?? 0) > CorpusProfile.quick.cases.count)
        #expect(summary["pass"] as? Int == summary["pairs"] as? Int)
        // A plain cmd: declares nothing, so it is fingerprinted first: imglab's own resize shows
        // the built-in design (Lanczos 3 in linear light, no intermediate, every frame).
        let policy = try #require(r["policy"] as? [String: Any])
        #expect(policy["inferred"] as? Bool == true && policy["kernel"] as? String == "lanczos3")
        #expect(policy["lightSpace"] as? String == "linear" && policy["intermediateBits"] == nil)
        #expect(policy["firstFrameOnly"] as? Bool == false && policy["antialiasing"] as? Bool == true)
        #expect(r["skipped"] == nil)
        #expect(run.stdout.contains("declares no policy; its fingerprint gives the contract"))
    }

    @Test("a declared sRGB light space judges an sRGB-averaging resizer against the sRGB oracle: labelled, closer, no more failures")
    func lightSpaceDeclaration() throws {
        let dir = try RunCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var outcome: [String: (fail: Int, mean: Double, labelled: Int)] = [:]
        for space in ["linear", "srgb"] {
            let config: [String: Any] = ["name": "imglab-srgb", "template": Self.resize + " --srgb",
                                         "policy": ["lightSpace": space, "operations": ["resize:aspectFit", "resize:scaleToFill"]]]
            let path = dir.appendingPathComponent("\(space).json").path
            try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
            let json = dir.appendingPathComponent("\(space)-results.json").path
            let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer-config", path,
                                         "--filter", "*checkerAndGray*,*colorPatches*", "--json", json])
            #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
            let pairs = try Self.pairs(try Self.results(json))
            #expect(!pairs.isEmpty)
            let means = pairs.compactMap { ($0["metrics"] as? [String: Any])?["visible.mean"] as? Double }
            outcome[space] = (pairs.count { $0["verdict"] as? String == "fail" }, means.reduce(0, +), pairs.count { $0["policy"] != nil })
            if space == "srgb" {
                #expect(run.stdout.contains("declares: srgb light"))
                let label = (pairs.first?["policy"] as? [String])?.first ?? ""
                #expect(label.hasPrefix("policy: srgb light space (declared)"), "\(label)")
            }
        }
        let linear = try #require(outcome["linear"]), srgb = try #require(outcome["srgb"])
        #expect(linear.labelled == 0)
        #expect(srgb.labelled > 0)
        #expect(srgb.fail <= linear.fail)
        // Averaging gamma-encoded values is what the resizer does: the sRGB oracle is nearer.
        #expect(srgb.mean < linear.mean, "visible.mean sum: sRGB oracle \(srgb.mean), linear oracle \(linear.mean)")
    }

    @Test("a declared floor rounding gives the expected size: 48×32 at max pixel size 40 is 40×26, labelled with the built-in rule's 40×27")
    func roundingDeclaration() throws {
        let dir = try RunCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A resizer that floors: it stretches to the size the floor rule computes ({outwidth}×{outheight}).
        let template = CommandTemplateText.quoted(ImglabRun.executable) + " resize {in} -o {out} --size {outwidth}x{outheight} --mode scaleToFill"
        let config: [String: Any] = ["name": "floor", "templates": ["maxPixelSize": template], "policy": ["rounding": "floor"]]
        let path = dir.appendingPathComponent("floor.json").path
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        let json = dir.appendingPathComponent("floor-results.json").path
        let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer-config", path,
                                     "--filter", "png-rgba8-colorPatches-48x32/*", "--json", json])
        #expect(run.status == 0, "\(run.stdout.suffix(1500))\(run.stderr)")
        let results = try Self.results(json)
        let pairs = try Self.pairs(results)
        // 32 · 40 / 48 = 26.67: floor 26, the built-in rule 27.
        let maxPixelSize = try #require(pairs.first { $0["operation"] as? String == "maxPixelSize-40" })
        #expect(maxPixelSize["expectedSize"] as? [Int] == [40, 26])
        #expect(maxPixelSize["actualSize"] as? [Int] == [40, 26])
        #expect(maxPixelSize["verdict"] as? String == "pass")
        #expect((maxPixelSize["policy"] as? [String])?.contains("policy: rounding floor (declared): expected 40×26, built-in rule 40×27") == true)
        // Only maxPixelSize has a template, so only it is declared: the other operations are skipped.
        #expect(pairs.count == 1)
        let skipped = try #require(results["skipped"] as? [[String: Any]])
        #expect(skipped.contains { $0["pair"] as? String == "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24" })
    }

    @Test("run with a bad template or config exits 2 and says what is wrong")
    func badTemplates() throws {
        let unknown = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer", "cmd:tool {in} {size2} {out}"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown placeholder {size2}"))
        let noOut = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer", "cmd:tool {in}"])
        #expect(noOut.status == 2)
        #expect(noOut.stderr.contains("never names {out}"))
        let missing = try ImglabRun.run(["run", "--corpus", Self.corpus, "--report", "none", "--resizer-config", "/nonexistent/resizer.json"])
        #expect(missing.status == 2)
    }

    @Test("league: the built-in resizer and the same resizer behind a command agree; a missing program is skipped with a message; table, HTML and JSON are written")
    func league() throws {
        let dir = try RunCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let absent: [String: Any] = ["name": "absent-tool", "programs": ["tool": ["imglab-no-such-program-xyz"]], "template": "{tool} {in} {out}"]
        let absentPath = dir.appendingPathComponent("absent.json").path
        try JSONSerialization.data(withJSONObject: absent).write(to: URL(fileURLWithPath: absentPath))
        let out = dir.appendingPathComponent("league").path
        let run = try ImglabRun.run(["league", "--corpus", Self.corpus, "--filter", "*/resize-aspectFit-24x24", "--out", out,
                                     "--resizer", "builtin", "--resizer", "cmd:" + Self.resize, "--resizer-config", absentPath])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("skipping config:\(absentPath): not installed: none of imglab-no-such-program-xyz is on PATH"))
        let table = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/league.json"))) as? [String: Any])
        let entries = try #require(table["entries"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["ran", "ran", "not installed"])
        let builtin = try #require(entries[0]["summary"] as? [String: Int]), command = try #require(entries[1]["summary"] as? [String: Int])
        // resize-aspectFit-24x24 is on every case.
        let cases = CorpusProfile.quick.cases.count
        #expect(builtin["pairs"] == cases && builtin["pass"] == cases)
        #expect(command == builtin)
        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.contains("Content-Security-Policy") && html.contains("absent") && html.contains("not installed"))
        #expect(run.stdout.contains("| builtin | linear light; rounding builtin; kernel lanczos3, renormalize edges; applies orientation | \(cases) | 0 | 0 | 0 | 0 |"))
    }

    @Test("league --help and run --help teach the cmd: placeholders, the config file and the policies")
    func help() throws {
        let league = try ImglabRun.run(["league", "--help"])
        #expect(league.status == 0)
        for text in ["USAGE: imglab league", "--resizer-config", "skipped", "srgb", "EXAMPLES", "vipsthumbnail", "benchmarks/resizers/"] {
            #expect(league.stdout.contains(text), "\(text)")
        }
        let run = try ImglabRun.run(["run", "--help"])
        for text in ["cmd:'TEMPLATE'", "{in} {out} {width}", "--resizer-config FILE", "lightSpace linear|srgb"] {
            #expect(run.stdout.contains(text), "\(text)")
        }
    }
}

/// POSIX shell quoting for the test's own templates (the executable's path), as the adapter
/// quotes placeholder values.
enum CommandTemplateText {
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\"'\"'") + "'" }
}
