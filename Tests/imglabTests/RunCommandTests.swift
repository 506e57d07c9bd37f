import Foundation
import Testing

/// `imglab run` and `imglab merge` as CI calls them, on the committed `Corpus/`.
@Suite("Run command")
struct RunCommandTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus").path

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-run-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("run --help teaches the command, its exit statuses and examples")
    func help() throws {
        let run = try ImglabRun.run(["run", "--help"])
        #expect(run.status == 0)
        for text in ["USAGE: imglab run", "--shard I/N", "--junit FILE", "EXIT STATUS", "EXAMPLES", "Fail closed"] {
            #expect(run.stdout.contains(text), "\(text)")
        }
    }

    @Test("bad usage exits 2", arguments: [["--shard", "0/3"], ["--resizer", "magic"], ["--profile", "medium"], ["--corpus", "/nonexistent-corpus"]])
    func usage(_ args: [String]) throws {
        let run = try ImglabRun.run(["run", "--report", "none"] + args)
        #expect(run.status == 2, "\(run.stderr)")
    }

    @Test("--goldens naming a folder with no golden store exits 2 saying so, and leaves no report folder behind")
    func goldensNotThere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-goldens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--goldens", dir + "/no-store"], in: dir)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("holds no golden store"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "a failed run wrote into the working folder")
    }

    @Test("the broken R↔B adapter exits 1, names channel-order on failing pairs, and writes JUnit with those failures")
    func brokenAdapter() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml").path, report = dir.appendingPathComponent("report").path
        let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--resizer", "swap-rb", "--filter", "png-rgba8-colorPatches",
                                     "--junit", junit, "--report", report])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("FAIL  png-rgba8-colorPatches-48x32/resize-aspectFit-24x24 — diagnosis channel-order"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.range(of: #"<testcase classname="png-rgba8-colorPatches-48x32" name="resize-aspectFit-24x24" time="[0-9]+\.[0-9]{3}">"#, options: .regularExpression) != nil)
        #expect(xml.range(of: #"<failure type="gate" message="family [a-z0-9-]+: [a-z.0-9]+ [0-9.]+ &gt; [0-9.]+: fails[^"]* — diagnosis channel-order">"#, options: .regularExpression) != nil)
        #expect(xml.contains("report page: \(report)/pairs/"))
        // The finding names the failing clauses and how to judge by other bounds.
        #expect(run.stdout.contains("these gate clauses failed:") && run.stdout.contains("--gates FILE"))
        let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        #expect(index.contains("channel-order"))
        let pages = try FileManager.default.contentsOfDirectory(atPath: report + "/pairs")
        #expect(pages.count == run.stdout.components(separatedBy: "FAIL ").count - 1)
    }

    @Test("shards 1/3, 2/3, 3/3 merged give the verdicts of one unsharded run")
    func shardsMerge() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A broken resizer on a slice of the corpus, so the verdicts mix passes (grey sources, which a
        // channel swap leaves alone) and failures.
        let common = ["run", "--corpus", Self.corpus, "--resizer", "swap-rb", "--filter", "png-rgba8,png-gray8", "--report", "none"]
        let whole = try ImglabRun.run(common + ["--json", dir.appendingPathComponent("whole.json").path])
        #expect(whole.status == 1)
        var parts: [String] = []
        for i in 1...3 {
            let path = dir.appendingPathComponent("shard\(i).json").path
            parts.append(path)
            let shard = try ImglabRun.run(common + ["--shard", "\(i)/3", "--json", path])
            #expect(shard.status <= 1, "\(shard.stderr)")
        }
        let mergedPath = dir.appendingPathComponent("merged.json").path
        let merge = try ImglabRun.run(["merge", parts[2], parts[0], parts[1], "--corpus", Self.corpus, "--json", mergedPath])
        #expect(merge.status == 1, "\(merge.stderr)")
        func verdicts(_ path: String) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            let pairs = try #require(object?["pairs"] as? [[String: Any]])
            return pairs.map { "\($0["pair"] ?? "") \($0["verdict"] ?? "")" }
        }
        let expected = try verdicts(dir.appendingPathComponent("whole.json").path)
        #expect(expected.contains { $0.hasSuffix(" pass") } && expected.contains { $0.hasSuffix(" fail") })
        #expect(try verdicts(mergedPath) == expected)

        let missing = try ImglabRun.run(["merge", parts[0], parts[1], "--corpus", Self.corpus])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("incomplete shards"))
    }

    @Test("with goldens of a broken resizer, the built-in one is changed-closer: exit 0, the bless hint, counts in JSON and the report")
    func goldenVerdictsOnTheCommandLine() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let goldens = dir.appendingPathComponent("goldens").path
        let filter = "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24,png-rgba8-colorPatches-48x32/maxPixelSize-40"
        let bless = try ImglabRun.run(["bless", "--corpus", Self.corpus, "--goldens", goldens, "--filter", filter, "--resizer", "swap-rb"])
        #expect(bless.status == 0, "\(bless.stderr)")
        let json = dir.appendingPathComponent("r.json").path, report = dir.appendingPathComponent("report").path
        let run = try ImglabRun.run(["run", "--corpus", Self.corpus, "--goldens", goldens, "--filter", filter, "--json", json, "--report", report])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("2 pairs: 0 pass, 0 fail, 0 error, 2 changed-closer"), "\(run.stdout)")
        #expect(run.stdout.contains("accept them with 'imglab bless --filter"), "\(run.stdout)")
        let text = String(decoding: try #require(FileManager.default.contents(atPath: json)), as: UTF8.self)
        #expect(text.contains("\"changedCloser\" : 2") && text.contains("\"verdict\" : \"changed-closer\""))
        let index = String(decoding: try #require(FileManager.default.contents(atPath: report + "/index.html")), as: UTF8.self)
        #expect(index.contains("{\"s\":\"changed-closer\","))
        // The broken resizer against its own goldens matches them but still fails its gate: exit 1.
        let broken = try ImglabRun.run(["run", "--corpus", Self.corpus, "--goldens", goldens, "--filter", filter, "--resizer", "swap-rb", "--report", "none"])
        #expect(broken.status == 1 && broken.stdout.contains("2 pairs: 0 pass, 2 fail, 0 error"), "\(broken.stdout)")
    }
}
