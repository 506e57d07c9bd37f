import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageMetrics

/// Value-range errors, reproduced as the tools make them — samples written in the wrong range,
/// bytes of the right values in the wrong container — are named `value-range` by the candidate of
/// that range (`ValueRangeCandidates`), from the reference base image's 8-bit codes.
@Suite("value-range diagnosis")
struct ValueRangeDiagnosisTests {
    static func diagnose(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis { pairDiagnosis(expected, actual) }

    static func expectNamed(_ d: Diagnosis, _ id: String) {
        #expect(d.bugClass == "value-range" && d.candidate == id,
                "named \(d.candidate ?? "nothing") (\(d.summary)); ranking \(d.ranking.map { "\($0.id) \(String(format: "%.3f", $0.explained))" })")
        #expect(d.confidence >= 0.5)
    }

    /// The base's 8-bit codes, one per channel, row by row.
    static func codes() throws -> (width: Int, height: Int, values: [UInt8]) {
        let b = try Reference.image("base_rgb97x61.png").bitmap.converted(to: .rgb8)
        return (b.width, b.height, b.bytes)
    }

    /// A big-endian 16-bit RGB bitmap of the given samples.
    static func sixteen(_ w: Int, _ h: Int, _ samples: [UInt16]) throws -> Bitmap {
        try Bitmap(width: w, height: h, format: .rgb16, bytes: samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    /// A 32-bit float RGB bitmap of the given samples (floats are stored in host, little-endian, order).
    static func float(_ w: Int, _ h: Int, _ samples: [Float]) throws -> Bitmap {
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true)
        return try Bitmap(width: w, height: h, format: format, bytes: samples.flatMap { v -> [UInt8] in
            let b = v.bitPattern
            return [UInt8(b & 0xFF), UInt8((b >> 8) & 0xFF), UInt8((b >> 16) & 0xFF), UInt8(b >> 24)]
        })
    }

    @Test("16-bit samples clipped to 8 bits (min(v, 255)) are named against the 16-bit image and its scaled 8-bit copy")
    func clippedSixteen() throws {
        let (w, h, c) = try Self.codes()
        // The 16-bit image of the codes (c · 257) and what a saturating cast makes of it.
        let deep = c.map { UInt16($0) * 257 }
        let clipped = try Bitmap(width: w, height: h, format: .rgb8, bytes: deep.map { UInt8(min($0, 255)) })
        Self.expectNamed(Self.diagnose(try Self.sixteen(w, h, deep), clipped), "range.16-bit-clipped-to-8")
        Self.expectNamed(Self.diagnose(try Bitmap(width: w, height: h, format: .rgb8, bytes: c), clipped), "range.16-bit-clipped-to-8")
    }

    @Test("float samples in 0…1 written as 0…255 (near black) and 0…255 read as 0…1 (white) are named")
    func floatRanges() throws {
        let (w, h, c) = try Self.codes()
        let unit = c.map { Float($0) / 255 }
        // 0…1 taken as 0…255 and rounded to 8 bits: code c becomes round(c / 255), 0 or 1.
        let dark = try Bitmap(width: w, height: h, format: .rgb8, bytes: unit.map { UInt8($0.rounded()) })
        Self.expectNamed(Self.diagnose(try Self.float(w, h, unit), dark), "range.float-0-1-read-as-0-255")
        // The codes stored as floats 0…255 and read as 0…1: every non-zero code clips to white.
        Self.expectNamed(Self.diagnose(try Bitmap(width: w, height: h, format: .rgb8, bytes: c), try Self.float(w, h, c.map { Float($0) })),
                         "range.float-0-255-read-as-0-1")
    }

    @Test("8-bit codes stored in 16-bit samples without scaling (v, not v·257) are named")
    func eightInSixteen() throws {
        let (w, h, c) = try Self.codes()
        let unscaled = try Self.sixteen(w, h, c.map { UInt16($0) })
        Self.expectNamed(Self.diagnose(try Bitmap(width: w, height: h, format: .rgb8, bytes: c), unscaled), "range.8-bit-in-16-bit-unscaled")
    }
}
