import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics
import TestSupport

/// `imglab diff EXPECTED_DIR ACTUAL_DIR` as a library call: pairing, statuses, exit status,
/// JSON, JUnit and report files, and output that does not depend on the thread count.
@Suite("folder diff")
struct FolderDiffTests {
    /// A fresh temporary folder.
    static func folder(_ name: String = "f") throws -> String {
        let dir = try ScratchFolder.new("imglab-folderdiff").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    /// A 40×30 RGB image: R = 6x, G = 8y, B = 200 − x; R and B swapped when `swap`; the pixel
    /// (x0, y0) raised by `bump` in G.
    static func image(swap: Bool = false, bump: (x: Int, y: Int, by: UInt8)? = nil, width: Int = 40) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<width {
                let r = UInt8(6 * x), b = UInt8(200 - x)
                var g = UInt8(8 * y)
                if let bump, bump.x == x, bump.y == y { g += bump.by }
                bytes += swap ? [b, g, r] : [r, g, b]
            }
        }
        return Image(bitmap: try Bitmap(width: width, height: 30, format: .rgb8, bytes: bytes))
    }

    static func write(_ image: Image, _ folder: String, _ relative: String, as container: ContainerFormat = .png) throws {
        let path = folder + "/" + relative
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: container), to: path)
    }

    /// Expected: same.png, sub/swapped.png, small.png (1 px off by 3), gone.png, notes.txt, .hidden.png.
    /// Actual: the same files with sub/swapped.png swapped, small.png bumped, gone.png missing,
    /// added.png new, and a re-encoded (TIFF) copy of same.png under another name.
    static func folders() throws -> (expected: String, actual: String) {
        let e = try folder("expected"), a = try folder("actual")
        let plain = try image()
        for f in [e, a] {
            try write(plain, f, "same.png")
            try Data("not an image".utf8).write(to: URL(fileURLWithPath: f + "/notes.txt"))
            try write(try image(swap: true), f, ".hidden.png")
        }
        try write(plain, e, "sub/swapped.png")
        try write(try image(swap: true), a, "sub/swapped.png")
        try write(plain, e, "small.png")
        try write(try image(bump: (5, 7, 3)), a, "small.png")
        try write(plain, e, "gone.png")
        try write(plain, a, "added.png")
        try write(plain, e, "recoded.png")
        try write(plain, a, "recoded.tif", as: .tiff)
        return (e, a)
    }

    @Test("pairs by relative path, recursively, images only (by content), hidden files left out, sorted by key")
    func pairingByPath() throws {
        let (e, a) = try Self.folders()
        let pairs = try FolderPairing.pairs(expected: e, actual: a, match: .path)
        #expect(pairs.map(\.key) == ["added.png", "gone.png", "recoded.png", "recoded.tif", "same.png", "small.png", "sub/swapped.png"])
        #expect(pairs.first { $0.key == "added.png" }?.expected == nil)
        #expect(pairs.first { $0.key == "gone.png" }?.actual == nil)
    }

    @Test("--match stem pairs a.png with a.tif; two images with one stem in a folder are an error naming both")
    func pairingByStem() throws {
        let (e, a) = try Self.folders()
        let pairs = try FolderPairing.pairs(expected: e, actual: a, match: .stem)
        let recoded = try #require(pairs.first { $0.key == "recoded" })
        #expect(recoded.expected == "recoded.png" && recoded.actual == "recoded.tif")
        try Self.write(try Self.image(), a, "same.bmp", as: .bmp)
        #expect(throws: FolderDiffError.ambiguousStem(a, ["same.bmp", "same.png"])) {
            _ = try FolderPairing.pairs(expected: e, actual: a, match: .stem)
        }
        #expect(FolderPairing.key("dir.v2/a", match: .stem) == "dir.v2/a", "a dot in a folder name is not an extension")
        #expect(FolderPairing.key("x/.a", match: .stem) == "x/.a")
    }

    @Test("statuses without a gate: changed (swapped, 1 px), new, deleted, unchanged (same bytes, and re-encoded); exit 1")
    func statusesWithoutGate() throws {
        let (e, a) = try Self.folders()
        let outcome = try FolderDiff(expected: e, actual: a, match: .stem, threads: 2).run()
        let status = Dictionary(uniqueKeysWithValues: outcome.results.items.map { ($0.key, $0.status) })
        #expect(status == ["added": .new, "gone": .deleted, "recoded": .unchanged, "same": .unchanged, "small": .changed, "sub/swapped": .changed])
        #expect(outcome.exitStatus == 1)
        let swapped = try #require(outcome.results.items.first { $0.key == "sub/swapped" })
        #expect(swapped.diagnosisClass == "channel-order")
        let small = try #require(outcome.results.items.first { $0.key == "small" })
        // One pixel's G raised by 3: one pixel differs, by 3 code values.
        #expect(small.metrics?["exact.pixels"] == 1 && small.metrics?["exact.max"] == 3)
        #expect(small.message == "1 of 1200 pixels differ, max |Δ| 3")
    }

    @Test("a gate: the 1-px change is within it, the swap is not; with no new or deleted file and the swap removed, exit 0")
    func gate() throws {
        let (e, a) = try Self.folders()
        let gate = try GateExpression("exact.max <= 5")
        let outcome = try FolderDiff(expected: e, actual: a, match: .stem, gate: gate, threads: 1).run()
        let status = Dictionary(uniqueKeysWithValues: outcome.results.items.map { ($0.key, $0.status) })
        #expect(status["small"] == .withinGate && status["sub/swapped"] == .changed)
        let swapped = try #require(outcome.results.items.first { $0.key == "sub/swapped" })
        #expect(swapped.failedClauses == ["exact.max 200 > 5: fails"])
        for f in ["/sub/swapped.png", "/gone.png"] { try FileManager.default.removeItem(atPath: e + f) }
        for f in ["/sub/swapped.png", "/added.png"] { try FileManager.default.removeItem(atPath: a + f) }
        #expect(try FolderDiff(expected: e, actual: a, match: .stem, gate: gate).run().exitStatus == 0)
    }

    @Test("a failed canary makes the diff exit 2 and every judged pair an error")
    func failedCanary() throws {
        let (e, a) = try Self.folders()
        let broken = Canaries.Failure(metric: "psnr", pair: "disturbed", reason: "reports inf for a pair that must differ")
        let outcome = try FolderDiff(expected: e, actual: a, gate: try GateExpression("exact.max <= 1"), canaries: .checked([broken])).run()
        #expect(outcome.exitStatus == 2)
        #expect(outcome.results.items.first { $0.key == "small.png" }?.status == .error)
    }

    @Test("an undecodable image is an error item (exit 1, the one ExitRule: a pair that cannot be judged); the other pairs are still judged")
    func unreadable() throws {
        let (e, a) = try Self.folders()
        // A PNG signature then garbage: recognised as PNG, cannot be decoded.
        let broken = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 20)
        try Data(broken).write(to: URL(fileURLWithPath: a + "/same.png"))
        let outcome = try FolderDiff(expected: e, actual: a).run()
        #expect(outcome.exitStatus == 1)
        #expect(outcome.results.items.first { $0.key == "same.png" }?.status == .error)
        #expect(outcome.results.items.first { $0.key == "sub/swapped.png" }?.status == .changed)
    }

    @Test("each pair is decoded under its worker's share of the memory budget: a pair that needs more is an error item, refused before decoding")
    func memoryBudget() throws {
        let (e, a) = try Self.folders()
        // 1000×1000 gray: two decoded images of 2 bytes a pixel at most, plus 32 bytes a pixel of
        // working memory (PairDecoding.workingBytesPerPixel): about 36 MiB, whatever the files weigh.
        let big = Image(bitmap: try Bitmap(width: 1000, height: 1000, format: .gray8, bytes: [UInt8](repeating: 9, count: 1_000_000)))
        var bigger = big
        bigger.bitmap.bytes[0] = 10
        try Self.write(big, e, "big.png")
        try Self.write(bigger, a, "big.png")
        var options = DecodeOptions()
        options.limits.maxBytes = 16 << 20
        for threads in [1, 2] {
            let outcome = try FolderDiff(expected: e, actual: a, decode: options, threads: threads).run()
            let item = try #require(outcome.results.items.first { $0.key == "big.png" })
            #expect(item.status == .error)
            let share = ((16 << 20) / threads) >> 20
            #expect(item.message?.contains("over the memory budget of \(share) MiB") == true, "\(item.message ?? "")")
            #expect(outcome.results.items.first { $0.key == "small.png" }?.status == .changed)
            #expect(outcome.exitStatus == 1)
        }
        // With the whole default budget, the same pair is judged.
        let judged = try FolderDiff(expected: e, actual: a, threads: 2).run()
        #expect(judged.results.items.first { $0.key == "big.png" }?.status == .changed)
    }

    @Test("the JSON, JUnit and report are the same bytes with 1 and 2 threads; the report has an index and a page per changed pair")
    func filesAndDeterminism() throws {
        let (e, a) = try Self.folders()
        var texts: [[String]] = []
        for threads in [1, 2] {
            let out = try Self.folder("out\(threads)")
            let outcome = try FolderDiff(expected: e, actual: a, match: .stem, reportFolder: out + "/report", junitPath: out + "/junit.xml", threads: threads).run()
            let pages = try FileManager.default.contentsOfDirectory(atPath: out + "/report/pairs").sorted()
            #expect(pages.count == 2, "one page per changed pair: \(pages)")
            let index = try String(contentsOfFile: out + "/report/index.html", encoding: .utf8)
            for page in pages { #expect(index.contains("pairs/" + page)) }
            // Thumbnails are files in thumbs/: the same bytes are one file shown twice.
            let thumbs = try FileManager.default.contentsOfDirectory(atPath: out + "/report/thumbs").sorted()
            let shown = index.components(separatedBy: "{\"i\":\"thumbs/").count - 1
            #expect(shown == 2 * 4 + 2 + 2, "two thumbnails for each of the 4 pairs, one for the new and the deleted file, two differences")
            for thumb in thumbs { #expect(index.contains("\"thumbs/\(thumb)\"")) }
            let thumbFiles = try thumbs.map { thumb in thumb + ":" + (try Data(contentsOf: URL(fileURLWithPath: out + "/report/thumbs/" + thumb))).base64EncodedString() }
            let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
            #expect(junit.contains("tests=\"6\" failures=\"4\" errors=\"0\""), "6 keys: 2 changed, 1 new, 1 deleted")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any])
            #expect(json["schema"] as? String == "imglab-folder-diff/1")
            texts.append([outcome.json.replacingOccurrences(of: out, with: ""), index, junit]
                         + (try pages.map { try String(contentsOfFile: out + "/report/pairs/" + $0, encoding: .utf8) }) + thumbFiles)
        }
        #expect(texts[0] == texts[1])
    }

    @Test("a path that is not a folder throws")
    func notAFolder() throws {
        let (e, _) = try Self.folders()
        #expect(throws: FolderDiffError.notAFolder(e + "/same.png")) { _ = try FolderDiff(expected: e, actual: e + "/same.png").run() }
    }
}
