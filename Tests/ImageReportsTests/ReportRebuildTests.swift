import Foundation
import Testing
import ImageReports
import ImageCodecs
import TestSupport

/// `imglab report RESULTS.json --out DIR` as a library call on a folder diff: the report made
/// again from its results file is the original's files, byte for byte; from a bare `--json`, the
/// thumbnails are made from the image folders and unlinked pages say so; bad input is refused.
@Suite("report rebuilt from results")
struct ReportRebuildTests {
    /// Every file under `folder`, the output manifest aside.
    static func files(_ folder: String) -> [String: Data] { FolderSnapshot.files(folder, except: [OutputFolder.marker]) }

    @Test("a folder diff's report rebuilt from its results.json is the same files, in another folder and in place")
    func sameFiles() throws {
        let (e, a) = try FolderDiffTests.folders()
        let out = try FolderDiffTests.folder("out")
        _ = try FolderDiff(expected: e, actual: a, match: .stem, reportFolder: out + "/report", threads: 2).run()
        let original = Self.files(out + "/report")
        #expect(original.keys.contains("results.json") && original.keys.contains { $0.hasPrefix("pairs/") }
                && original.keys.contains { $0.hasPrefix("thumbs/") }, "\(original.keys.sorted())")
        let rebuilt = try ReportRebuild(results: out + "/report/results.json", out: out + "/again").run()
        #expect(rebuilt.pagesCarried == 2 && rebuilt.pagesMissing == 0 && rebuilt.thumbnailsMade == 0)
        #expect(Self.files(out + "/again") == original)
        _ = try ReportRebuild(results: out + "/report/results.json", out: out + "/report").run()
        #expect(Self.files(out + "/report") == original)
    }

    @Test("from a bare --json: the same index rows without page links, thumbnails made from the image folders equal to the report's")
    func fromJSONAlone() throws {
        let (e, a) = try FolderDiffTests.folders()
        let out = try FolderDiffTests.folder("out")
        let outcome = try FolderDiff(expected: e, actual: a, match: .stem, reportFolder: out + "/report", threads: 1).run()
        // The --json a CI job keeps, somewhere else, with no pages beside it.
        try ImageCodecs.writeAtomically(Array(outcome.json.utf8), to: out + "/diff.json")
        let rebuilt = try ReportRebuild(results: out + "/diff.json", out: out + "/from-json").run()
        #expect(rebuilt.pagesCarried == 0 && rebuilt.pagesMissing == 2, "the two changed pairs' pages need the images")
        #expect(rebuilt.screen.contains("2 not there (listed without a link"), "\(rebuilt.screen)")
        let original = Self.files(out + "/report"), made = Self.files(out + "/from-json")
        // A changed pair's three thumbnails are the report's bytes; same-bytes pairs were one file (`-both`), now two.
        for name in ["thumbs/0004-expected.png", "thumbs/0004-actual.png", "thumbs/0004-difference.png", "thumbs/0000-actual.png"] {
            #expect(made[name] != nil && made[name] == original[name], "\(name)")
        }
        #expect(made["thumbs/0003-expected.png"] == original["thumbs/0003-both.png"])
        let index = try #require(made["index.html"].map { String(decoding: $0, as: UTF8.self) })
        #expect(!index.contains("\"h\":\"pairs/") && index.contains("{\"t\":\"small\",\"n\":"), "rows without links")
        let results = try #require(made["results.json"].flatMap { FolderDiffResults.decode(Array($0)) })
        #expect(results.items.allSatisfy { $0.page == nil })
        #expect(results.items.map(\.status) == outcome.results.items.map(\.status))
    }

    @Test("a file that is not results, an unreadable file, and a folder of the user's are refused; nothing is written over")
    func refused() throws {
        let out = try FolderDiffTests.folder("out")
        try Data("{\"schema\": \"something/1\"}".utf8).write(to: URL(fileURLWithPath: out + "/other.json"))
        #expect(throws: ReportRebuildError.notResults(out + "/other.json")) {
            try ReportRebuild(results: out + "/other.json", out: out + "/r").run()
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/r"), "a refused rebuild left a folder behind")
        #expect { try ReportRebuild(results: out + "/missing.json", out: out + "/r").run() } throws: { error in
            guard case ReportRebuildError.unreadable(let path, _) = error else { return false }
            return path == out + "/missing.json"
        }
        let (e, a) = try FolderDiffTests.folders()
        _ = try FolderDiff(expected: e, actual: a, match: .stem, reportFolder: out + "/report", threads: 1).run()
        try FileManager.default.createDirectory(atPath: out + "/mine", withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out + "/mine/notes.txt"))
        #expect { try ReportRebuild(results: out + "/report/results.json", out: out + "/mine").run() } throws: { error in
            guard case ReportRebuildError.output(let path, _) = error else { return false }
            return path == out + "/mine"
        }
        #expect(try String(contentsOfFile: out + "/mine/notes.txt", encoding: .utf8) == "keep me")
    }
}
