import Testing
import ImageCore
@testable import ImageCodecs

/// Profiles made by Little CMS from a white, primaries and a gamma (the fuzzer's tagged seeds,
/// what PNG's gAMA and cHRM state) read back as what they were made from.
@Suite("ICC profile builder")
struct ICCProfileBuilderTests {
    @Test("Adobe RGB's primaries and white with gamma 2.2 read back within 0.001 in x, y, not sRGB-equivalent")
    func adobeLike() throws {
        let primaries = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
        let bytes = try #require(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: primaries, gamma: 2.2))
        let summary = ICCProfileSummary(bytes)
        #expect(summary.problem == nil)
        #expect(summary.colorSpace == "RGB ")
        let read = try #require(summary.primaries)
        for (got, made) in zip(read, primaries) { #expect(abs(got[0] - made.0) < 0.001 && abs(got[1] - made.1) < 0.001, "\(got)") }
        let white = try #require(summary.white)
        #expect(abs(white[0] - 0.3127) < 0.001 && abs(white[1] - 0.3290) < 0.001)
        #expect(summary.isSRGBEquivalent == false)
        #expect(SRGBRendering.statedProfile(ImageMetadata(iccProfile: bytes), gray: false) != nil)
    }

    @Test("the same values give the same bytes (the creation date is fixed)")
    func deterministic() {
        let make = { ICCProfileBuilder.rgb(white: (0.3457, 0.3585), primaries: [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)], gamma: 1.8) }
        let first = make()
        #expect(first != nil && first == make())
        #expect(first.map { Array($0[24..<30]) } == [0x07, 0xD0, 0, 1, 0, 1])
    }

    @Test("a gamma outside 0.05…20 or two primaries make no profile")
    func refusals() {
        #expect(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.64, 0.33), (0.3, 0.6), (0.15, 0.06)], gamma: 0) == nil)
        #expect(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.64, 0.33), (0.3, 0.6)], gamma: 2.2) == nil)
    }
}
