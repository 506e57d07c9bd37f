import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageLabTesting
import ImageMetrics

/// The assertion API for users' own tests: record, match, mismatch, missing golden.
@Suite("expectImage")
struct ExpectImageTests {
    /// A 64×32 RGB image from arithmetic: R = 4x, G = 8y, B = 200.
    static func gradient() throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<32 { for x in 0..<64 { bytes += [UInt8(4 * x), UInt8(8 * y), 200] } }
        return Image(bitmap: try Bitmap(width: 64, height: 32, format: .rgb8, bytes: bytes))
    }

    /// The same image with R and B swapped (the classic BGRA-read-as-RGBA bug).
    static func swapped() throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<32 { for x in 0..<64 { bytes += [200, UInt8(8 * y), UInt8(4 * x)] } }
        return Image(bitmap: try Bitmap(width: 64, height: 32, format: .rgb8, bytes: bytes))
    }

    static func expectation() -> (ImageExpectation, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-expect-\(UUID().uuidString)")
        return (ImageExpectation(goldensFolder: dir.appendingPathComponent("goldens").path, reportsFolder: dir.appendingPathComponent("reports").path), dir)
    }

    @Test("record mode writes the golden and says so; then the same pixels match, also stored as 16-bit RGBA")
    func recordThenMatch() throws {
        let (expectation, dir) = Self.expectation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.gradient()
        let file = "/src/Tests/AppTests/ThumbnailTests.swift"
        let path = try expectation.goldenPath(name: "gradient", filePath: file)
        #expect(path == dir.appendingPathComponent("goldens").path + "/ThumbnailTests/gradient.png")

        let recorded = try expectation.check(image, matches: "gradient", record: true, filePath: file)
        #expect(recorded.kind == .recorded && recorded.message.contains("recorded the golden \(path)"))
        let stored = try ImageCodecs.decode([UInt8](try #require(FileManager.default.contents(atPath: path))))
        #expect(stored.width == 64 && stored.height == 32)

        #expect(try expectation.check(image, matches: "gradient", record: false, filePath: file).kind == .matched)
        let deep = Image(bitmap: try image.bitmap.converted(to: .rgba16))
        #expect(try expectation.check(deep, matches: "gradient", record: false, filePath: file).kind == .matched)
        // Recording pixels equal by value to the golden neither rewrites it nor records an issue.
        #expect(try expectation.check(deep, matches: "gradient", record: true, filePath: file).kind == .matched)
    }

    @Test("a missing golden is an issue that says how to record it; nothing is written")
    func missingGolden() throws {
        let (expectation, dir) = Self.expectation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try expectation.check(try Self.gradient(), matches: "absent", record: false, filePath: "/x/FooTests.swift")
        #expect(outcome.kind == .missingGolden)
        #expect(outcome.message.contains("no golden at") && outcome.message.contains("IMGLAB_RECORD=1"))
        #expect(!FileManager.default.fileExists(atPath: try #require(outcome.goldenPath)))
        // Through the public function (goldens beside this file; this name has none): an issue is recorded.
        try withKnownIssue {
            try expectImage(try Self.gradient(), matches: "no-such-golden-\(UUID().uuidString)", record: false)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("no golden at") && $0.rawValue.contains("__Goldens__/ExpectImageTests/") }
        }
    }

    @Test("a swapped-channel image is a mismatch whose issue names the failed clause, the diagnosis and a report that exists")
    func mismatch() throws {
        let (expectation, dir) = Self.expectation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = "/src/Tests/AppTests/IconTests.swift"
        _ = try expectation.check(try Self.gradient(), matches: "icon", record: true, filePath: file)
        let outcome = try expectation.check(try Self.swapped(), matches: "icon", gate: "exact.max <= 1", record: false, filePath: file)
        #expect(outcome.kind == .mismatched)
        // |R − B| reaches 200 at x = 0: exact.max = 200 by arithmetic.
        #expect(outcome.message.contains("failed: exact.max 200 > 1: fails"), "\(outcome.message)")
        #expect(outcome.message.contains("diagnosis: channel-order"), "\(outcome.message)")
        #expect(outcome.message.contains("IMGLAB_RECORD=1"))
        let report = try #require(outcome.reportPath)
        #expect(report == dir.appendingPathComponent("reports").path + "/IconTests/icon.html")
        #expect(outcome.message.contains("report: \(report)"))
        let html = String(decoding: try #require(FileManager.default.contents(atPath: report)), as: UTF8.self)
        #expect(html.contains("<strong>channel-order</strong>"))
        #expect(html.contains("✗ &lt;= 1"), "the metric table shows the failed bound")
    }

    @Test("against a reference image: a wrong image records an issue, a right one none")
    func reference() throws {
        let reference = try Self.gradient()
        try expectImage(Image(bitmap: try reference.bitmap.converted(to: .rgba8)), matches: reference)
        let name = "swap-\(UUID().uuidString)"
        try withKnownIssue {
            try expectImage(try Self.swapped(), matches: reference, gate: "deltaE00.p99 <= 1", name: name)
        } matching: { issue in
            issue.comments.contains { c in
                c.rawValue.contains("does not match the reference image") && c.rawValue.contains("deltaE00.p99 ") && c.rawValue.contains(": fails") && c.rawValue.contains("channel-order")
            }
        }
        let report = ImageExpectation.standard.reportsFolder + "/ExpectImageTests/\(name).html"
        #expect(FileManager.default.fileExists(atPath: report))
        try? FileManager.default.removeItem(atPath: report)
        // The folders too, when nothing else is in them (they are where a user's failing expectations report).
        for folder in [ImageExpectation.standard.reportsFolder + "/ExpectImageTests", ImageExpectation.standard.reportsFolder] {
            rmdir(folder)
        }
    }

    @Test("a different size is a mismatch, not an error; a bad name or gate throws")
    func sizesAndMisuse() throws {
        let (expectation, dir) = Self.expectation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = Image(bitmap: try Bitmap(width: 2, height: 2, format: .rgb8, bytes: [UInt8](repeating: 9, count: 12)))
        let outcome = try expectation.check(small, matches: try Self.gradient(), name: "size", filePath: "/x/T.swift")
        #expect(outcome.kind == .mismatched && outcome.message.contains("size 2×2, expected 64×32"), "\(outcome.message)")
        #expect(throws: ImageExpectationError.badName("../escape")) {
            _ = try expectation.check(small, matches: "../escape", filePath: "/x/T.swift")
        }
        #expect(throws: ImageExpectationError.self) {
            _ = try expectation.check(small, matches: small, gate: "ssim >=", name: "g", filePath: "/x/T.swift")
        }
    }

    @Test("ignoring: a difference only inside the ignored rectangle matches; one pixel outside it mismatches; a wrong-size mask throws")
    func ignoring() throws {
        let (expectation, dir) = Self.expectation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = try Self.gradient()
        func changed(_ pixels: [(Int, Int)]) throws -> Image {
            var bitmap = reference.bitmap
            for (x, y) in pixels { bitmap.bytes[(y * 64 + x) * 3 + 2] = 0 }  // B 200 → 0
            return Image(bitmap: bitmap)
        }
        let region = IgnoredPixels(regions: [.init(x: 8, y: 4, width: 4, height: 4)])
        let inside = try expectation.check(try changed([(8, 4), (11, 7)]), matches: reference, name: "inside", ignoring: region, filePath: "/src/T.swift")
        #expect(inside.kind == .matched)
        let outside = try expectation.check(try changed([(8, 4), (12, 7)]), matches: reference, name: "outside", ignoring: region, filePath: "/src/T.swift")
        #expect(outside.kind == .mismatched)
        #expect(outside.comparison?.value("exact.pixels") == 1 && outside.comparison?.value("ignored.pixels") == 16)
        let wrong = IgnoredPixels(maskImage: Image(bitmap: try Bitmap(width: 2, height: 2, format: .gray8, bytes: [0, 0, 0, 255])), maskName: "m")
        #expect(throws: ImageExpectationError.badIgnored("the mask m is 2×2, the compared images are 64×32 as displayed; a mask must have their size")) {
            _ = try expectation.check(reference, matches: reference, name: "wrong", ignoring: wrong, filePath: "/src/T.swift")
        }
    }
}
