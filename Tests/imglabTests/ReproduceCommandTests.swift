import Foundation
import Testing
import ImageLab
@testable import ImageCorpus

/// `imglab reproduce` as a user calls it, on the committed `Corpus/`.
@Suite("Reproduce command")
struct ReproduceCommandTests {
    static let corpus = RunCommandTests.corpus

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-reproduce-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("reproduce --help teaches the command, its exit statuses and examples")
    func help() throws {
        let run = try ImglabRun.run(["reproduce", "--help"])
        #expect(run.status == 0)
        for text in ["USAGE: imglab reproduce BUG", "--list", "--report DIR", "EXIT STATUS", "EXAMPLES", "90 %", "channel-swap"] {
            #expect(run.stdout.contains(text), "\(text)")
        }
    }

    @Test("reproduce channel-swap exits 0, names channel-order in the terminal, the JSON and the report")
    func channelSwap() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report").path, json = dir.appendingPathComponent("r.json").path
        let run = try ImglabRun.run(["reproduce", "channel-swap", "--corpus", Self.corpus, "--report", report, "--json", json])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("Reproduced: the lab caught the bug on"))
        #expect(run.stdout.contains("named channel-order"))
        #expect(run.stdout.contains("report: \(report)/index.html"))
        let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        #expect(html.contains("<strong>channel-order</strong>"))
        let results = try Self.json(json)
        #expect(results["schema"] as? String == "imglab-reproduce/1")
        #expect(results["reproduced"] as? Bool == true)
        let pairs = try #require(results["pairs"] as? [[String: Any]])
        #expect(!pairs.isEmpty && pairs.count <= 12)
        // The terminal's pair lines are the JSON's pairs.
        for p in pairs { #expect(run.stdout.contains(try #require(p["pair"] as? String))) }
    }

    @Test("reproduce pink-tint shows a pink/magenta cast (hue within 22.5° of +a*) on every caught pair whose source is XRGB (padding byte read as red)")
    func pinkTint() throws {
        try #require(Reproduction.topics.contains("pink-tint"), "topics: \(Reproduction.topics.joined(separator: ", "))")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("r.json").path
        let run = try ImglabRun.run(["reproduce", "pink-tint", "--corpus", Self.corpus, "--report", dir.path, "--json", json])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("pink/magenta"))
        // D6: the padding byte of an opaque XRGB pixel is 255; read as red it pushes every pixel
        // towards red = 255 — a +a* (pink/magenta) cast. (With a real alpha channel, blue becomes
        // alpha as well, and the visible result is dominated by the lost transparency instead.)
        let manifest = try LabRunner.manifest(corpus: Self.corpus)
        let skipFirst = Set(manifest.cases.filter { $0.pixelFormat.alphaInfo == "kCGImageAlphaNoneSkipFirst" }.map(\.id))
        let pairs = try #require(try Self.json(json)["pairs"] as? [[String: Any]])
        let xrgb = pairs.filter { p in
            p["caught"] as? Bool == true && skipFirst.contains((p["pair"] as? String)?.split(separator: "/").first.map(String.init) ?? "")
        }
        #expect(!xrgb.isEmpty, "no caught XRGB pair among \(pairs.count)")
        for p in xrgb {
            let measures = try #require(p["measures"] as? [[String: Any]])
            let cast = try #require(measures.first { $0["metric"] as? String == "colour-cast" }?["cast"] as? [String: Any], "\(p["pair"] ?? "")")
            let da = try #require(cast["da"] as? Double), db = try #require(cast["db"] as? Double)
            // ColourCast's pink/magenta sector: hue angle within 22.5° of the +a* axis.
            let hue = atan2(db, da) * 180 / .pi
            #expect(abs(hue) < 22.5, "\(p["pair"] ?? ""): Δa* \(da), Δb* \(db), hue \(hue)°")
            #expect((cast["direction"] as? String)?.hasPrefix("pink/magenta") == true)
        }
        let html = try String(contentsOfFile: dir.path + "/index.html", encoding: .utf8)
        #expect(html.contains("pink/magenta"))
    }

    @Test("an unknown bug exits 2 and lists the known ones", arguments: [["pinkish"], [], ["channel-swap", "pink-tint"]])
    func unknownBug(_ args: [String]) throws {
        let run = try ImglabRun.run(["reproduce", "--corpus", Self.corpus] + args)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("channel-swap"))
    }

    @Test("bad usage exits 2", arguments: [["channel-swap", "--pairs", "0"], ["channel-swap", "--corpus", "/nonexistent-corpus"], ["--list", "channel-swap"], ["channel-swap", "--frobnicate"]])
    func usage(_ args: [String]) throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ImglabRun.run(["reproduce", "--report", dir.path] + args)
        #expect(run.status == 2, "\(run.stderr)")
    }

    @Test("reproduce --list shows every topic of the catalogue with each mutant's title, history and references")
    func list() throws {
        let run = try ImglabRun.run(["reproduce", "--list"])
        #expect(run.status == 0)
        for (topic, mutants) in MutantCatalogue.topics {
            #expect(run.stdout.contains("\n\(topic)\n"), "\(topic)")
            for m in mutants {
                #expect(run.stdout.contains("\(m.id) — \(m.title)"))
                #expect(run.stdout.contains(m.references.joined(separator: ", ")))
                // The history is word-wrapped: compare its words.
                let words = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(words.contains(m.history.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(m.id)")
            }
        }
    }
}
