import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageMetrics

/// A wrong name costs more than no name: candidates that cannot apply to the source are not
/// offered, and a candidate that explains less than "the actual is one colour" is not named
/// unless it predicts the actual to its rounding.
@Suite("diagnosis honesty")
struct DiagnosisHonestyTests {
    static func diagnose(_ expected: Bitmap, _ actual: Bitmap, source: PixelFormat? = nil) -> Diagnosis {
        Comparison(expected: ComparedImage(image: Image(bitmap: expected), name: "expected"),
                   actual: ComparedImage(image: Image(bitmap: actual), name: "actual"),
                   options: ComparisonOptions(structural: false), source: source).diagnosis
    }

    static func ranking(_ d: Diagnosis) -> String {
        "\(d.summary); ranking \(d.ranking.map { "\($0.id) \(String(format: "%.3f", $0.explained))" })"
    }

    /// The reference base's RGB image and its CMYK inks inverted (Adobe APP14 read as plain),
    /// re-saved as RGB with ±2 noise: the pair `DiagnosisTests` names `cmyk.inverted` without a source.
    static func invertedPair() throws -> (expected: Bitmap, actual: Bitmap) {
        let b = try Reference.image("base_rgb97x61.png").bitmap
        let inverted = try Bugs.relabel(b.converted(to: .cmyk8), as: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8))
        return (b, try Bugs.noisy(inverted, amplitude: 2))
    }

    @Test("an 8-bit output of a 16-bit source within one code of a 16-bit expectation is named 16-bit; without the source, nothing")
    func sixteenBitsWrittenInEight() throws {
        var samples: [UInt8] = []
        for y in 0..<16 { for x in 0..<16 { for c in 0..<3 {
            let v = UInt16(300 + x * 4000 + y * 77 + c * 999)
            samples += [UInt8(v >> 8), UInt8(v & 0xFF)]
        } } }
        let deep = Bitmap(uncheckedWidth: 16, height: 16, format: .rgb16, bytesPerRow: 96, bytes: samples)
        let eight = try deep.converted(to: .rgb8)
        let named = Self.diagnose(deep, eight, source: .rgb16)
        #expect(named.bugClass == "16-bit", "\(named.summary)")
        #expect(Self.diagnose(deep, eight).bugClass == nil)
        #expect(Self.diagnose(deep, eight, source: .rgb8).bugClass == nil)
    }

    @Test("CMYK inversion is named only where CMYK is involved: a CMYK source, not an RGB one")
    func cmykNeedsCMYKSource() throws {
        let (e, a) = try Self.invertedPair()
        let cmykSource = Self.diagnose(e, a, source: .cmyk8)
        #expect(cmykSource.candidate == "cmyk.inverted", "\(Self.ranking(cmykSource))")
        let rgbSource = Self.diagnose(e, a, source: .rgb8)
        #expect(rgbSource.bugClass == nil, "\(Self.ranking(rgbSource))")
        #expect(!rgbSource.ranking.contains { $0.id == "cmyk.inverted" })
    }

    /// A 1-bit grey stencil encoded all black against its grey oracle: CMYK inversion predicts
    /// black for every grey (k = 1 − v, no colour ink, R = G = B = c·k = 0), so it explains the
    /// black image; a grey source has no inks to invert.
    @Test("a black output of a grey source is not named cmyk-inversion, with or without the source")
    func greyIsNotCMYK() throws {
        let grey = try Reference.image("base_gray64x48.png").bitmap.converted(to: .gray8)
        let black = try Bitmap(width: grey.width, height: grey.height, format: .gray8, bytes: [UInt8](repeating: 0, count: grey.width * grey.height))
        for source in [PixelFormat(colorModel: .gray, bitsPerComponent: 1), nil] {
            let d = Self.diagnose(grey, black, source: source)
            #expect(d.bugClass != "cmyk-inversion", "\(Self.ranking(d))")
            #expect(!d.ranking.contains { $0.id == "cmyk.inverted" })
        }
        #expect(Self.diagnose(grey, black, source: PixelFormat(colorModel: .gray, bitsPerComponent: 1)).bugClass == nil)
    }

    /// An all-black actual is predicted exactly by its own mean colour (black): CMYK inversion,
    /// offered for a CMYK source, darkens the image and explains most of the difference, but
    /// leaves tens of codes where the inverted inks stay coloured, so it is not named.
    @Test("a candidate that explains less than the actual's own mean colour is not named")
    func contentLostIsUndiagnosed() throws {
        let b = try Reference.image("base_rgb97x61.png").bitmap.converted(to: .rgb8)
        let black = try Bitmap(width: b.width, height: b.height, format: .rgb8, bytes: [UInt8](repeating: 0, count: b.bytes.count))
        let d = Self.diagnose(b, black, source: .cmyk8)
        #expect(d.bugClass == nil, "\(Self.ranking(d))")
        let cmyk = try #require(d.ranking.first { $0.id == "cmyk.inverted" })
        #expect(cmyk.explained >= 0.5 && cmyk.explained < 1, "\(Self.ranking(d))")
        #expect(d.summary.contains("the actual image's own mean colour explains 100%"), "\(d.summary)")
    }

    @Test("a candidate that predicts a content-free actual to its rounding is still named: float 0…1 read as 0…255")
    func roundingResidualIsNamed() throws {
        let b = try Reference.image("base_rgb97x61.png").bitmap.converted(to: .rgb8)
        // round(c / 255) for every code: black but for codes ≥ 128, which become 1.
        let dark = try Bitmap(width: b.width, height: b.height, format: .rgb8, bytes: b.bytes.map { $0 >= 128 ? 1 : 0 })
        let d = Self.diagnose(b, dark)
        #expect(d.candidate == "range.float-0-1-read-as-0-255", "\(Self.ranking(d))")
    }
}
