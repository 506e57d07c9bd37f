import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import ImageCore

/// `imglab run --report DIR` writes the report as one generation (docs/safe-writes.md): killed
/// at any write, the previous report stays whole; two runs into one folder never mix; stale
/// pages never survive; a folder imglab did not write is refused before the run.
@Suite("report generations from the command line")
struct ReportGenerationCommandTests {
    static let corpus = RunCommandTests.corpus
    /// 5 pairs, all failing under swap-rb, so its report has a page each.
    static let filter = "png-rgba8-colorPatches-*"

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-reports-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file under `folder` with its bytes, by relative path.
    static func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder)?.allObjects ?? [] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            out[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
        }
        return out
    }

    /// The pair pages of a snapshot (the index holds the elapsed time, which differs run to run).
    static func pages(_ files: [String: Data]) -> [String: Data] { files.filter { $0.key.hasPrefix("pairs/") } }

    static func run(_ resizer: String, report: String, environment: [String: String] = [:]) throws -> ImglabRun {
        try ImglabRun.run(["run", "--corpus", corpus, "--resizer", resizer, "--filter", filter, "--threads", "1", "--report", report],
                          environment: environment)
    }

    @Test("killed (SIGKILL) after the 1st page, mid-way, after the last page and before the swap, the previous report is whole; after the swap, the new one")
    func killedRun() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = dir + "/report"
        let first = try Self.run("builtin", report: report)
        #expect(first.status == 0, "\(first.stderr)")
        let before = Self.snapshot(report)
        // swap-rb's report has an index and a page per failing pair: pages + 1 files, then the swap.
        let fresh = try Self.run("swap-rb", report: dir + "/reference")
        let pages = Self.pages(Self.snapshot(dir + "/reference")).count
        try #require(pages >= 2, "swap-rb fails several pairs: \(fresh.stdout)")
        let files = pages + 1
        for point in [1, files / 2, files, files + 1] {
            let killed = try Self.run("swap-rb", report: report, environment: ["IMGLAB_FAULT_AFTER_WRITES": String(point)])
            #expect(killed.status == 128 + SIGKILL, "write \(point): \(killed.stderr)")
            let after = Self.snapshot(report)
            if point <= files {
                #expect(after == before, "killed after write \(point) of \(files + 1): the previous report changed")
            } else {
                #expect(Self.pages(after) == Self.pages(Self.snapshot(dir + "/reference")), "killed after the swap: the new report is whole")
            }
        }
        // The next run removes what the killed ones left beside the report.
        let next = try Self.run("builtin", report: report)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["reference", "report"])
    }

    @Test("two runs with different resizers into one folder at once leave one run's report, whole", arguments: 0..<3)
    func concurrentRuns(trial: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var references: [String: [String: Data]] = [:]
        for resizer in ["builtin", "swap-rb"] {
            _ = try Self.run(resizer, report: dir + "/" + resizer)
            references[resizer] = Self.pages(Self.snapshot(dir + "/" + resizer))
        }
        let shared = dir + "/shared"
        let runs = ParallelRuns.run([["builtin"], ["swap-rb"]].map { ["run", "--corpus", Self.corpus, "--resizer", $0[0], "--filter", Self.filter,
                                                                      "--threads", "1", "--report", shared] })
        #expect(runs.allSatisfy { $0 == 0 || $0 == 1 }, "exit statuses \(runs)")
        let pages = Self.pages(Self.snapshot(shared))
        #expect(pages == references["builtin"] || pages == references["swap-rb"], "trial \(trial): the pages mix two runs")
    }

    @Test("a report folder holding a file imglab did not write is refused before the run (exit 2), and kept")
    func foreignFolder() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let run = try Self.run("builtin", report: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("a folder imglab did not write (it holds 'notes.txt')"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["notes.txt"])
    }

    @Test("a filtered run into a folder that held a bigger report leaves no stale page")
    func noStalePages() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = dir + "/report"
        _ = try ImglabRun.run(["run", "--corpus", Self.corpus, "--resizer", "swap-rb", "--filter", "png-rgba8-*", "--report", report])
        let wide = Self.pages(Self.snapshot(report)).count
        _ = try Self.run("swap-rb", report: report)
        let narrow = Self.pages(Self.snapshot(report))
        #expect(narrow.count < wide)
        #expect(narrow.keys.allSatisfy { $0.contains("-png-rgba8-colorPatches-") }, "\(narrow.keys.sorted())")
    }
}

/// Several imglab processes started together; their exit statuses in order.
enum ParallelRuns {
    static func run(_ commands: [[String]]) -> [Int32] {
        ParallelMap.run(commands.count, threads: commands.count) { i in (try? ImglabRun.run(commands[i]).status) ?? -1 }
    }
}
