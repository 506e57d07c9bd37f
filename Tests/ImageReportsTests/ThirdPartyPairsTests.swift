import Foundation
import Testing
import ImageReports
import ImageMetrics

/// `imglab diff` on pairs made by other tools than imglab (Pillow, OpenCV, tifffile; the script
/// and commands are in Tests/Fixtures/third-party-pairs/README.md): the diagnosis names the
/// alpha-edge halo and the value-range errors, and nothing on a JPEG re-encode.
@Suite("diff on third-party pairs")
struct ThirdPartyPairsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/third-party-pairs")

    static func diagnosis(_ expected: String, _ actual: String) throws -> Diagnosis {
        try FileDiff(expected: folder.appendingPathComponent(expected).path, actual: folder.appendingPathComponent(actual).path)
            .run().judgement.comparison.diagnosis
    }

    static func describe(_ d: Diagnosis) -> String {
        "\(d.sentence); ranking \(d.ranking.map { "\($0.id) \(String(format: "%.3f", $0.explained))" })"
    }

    @Test("Pillow's RGBA resize with and without premultiplying: the halo is named premultiplication")
    func halo() throws {
        let d = try Self.diagnosis("halo-premultiplied.png", "halo-straight.png")
        #expect(d.bugClass == "premultiplication" && d.candidate == "premultiplication.alpha-edge-halo", "\(Self.describe(d))")
        #expect(d.confidence >= 0.9, "\(Self.describe(d))")
    }

    @Test("OpenCV's saturating 16 → 8-bit conversion is named value-range, against the 16-bit source and its scaled copy",
          arguments: ["depth16-scaled.png", "depth16-source.png"])
    func clippedSixteen(_ expected: String) throws {
        let d = try Self.diagnosis(expected, "depth16-clipped.png")
        #expect(d.bugClass == "value-range" && d.candidate == "range.16-bit-clipped-to-8", "\(Self.describe(d))")
        #expect(d.confidence >= 0.9, "\(Self.describe(d))")
    }

    @Test("a float TIFF's 0…1 samples taken as 0…255 by Pillow, and 0…255 floats read as 0…1, are named value-range",
          arguments: [("float-source.tif", "float-as-0-255.png", "range.float-0-1-read-as-0-255"),
                      ("float-codes.png", "float-0-255.tif", "range.float-0-255-read-as-0-1")])
    func floatRange(_ expected: String, _ actual: String, _ id: String) throws {
        let d = try Self.diagnosis(expected, actual)
        #expect(d.bugClass == "value-range" && d.candidate == id, "\(Self.describe(d))")
        #expect(d.confidence >= 0.9, "\(Self.describe(d))")
    }

    @Test("Pillow's JPEG re-encode at quality 85 gets no diagnosis")
    func jpegReencode() throws {
        let d = try Self.diagnosis("jpeg-original.png", "jpeg-q85.jpg")
        #expect(d.bugClass == nil, "\(Self.describe(d))")
    }
}
