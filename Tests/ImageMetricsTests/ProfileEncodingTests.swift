import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// ``SRGBRendering/encode(_:into:as:)``, the inverse of a rendering, which makes what a tagged
/// file stores to show given colours: a picture inside sRGB's gamut encoded into each fixture
/// profile and rendered back (Little CMS both ways) returns within one 8-bit code; the stored
/// values are what the textbook oracle (``ProfileOracle``, no Little CMS) renders back to the
/// picture within ΔE00 1.5; a CMYK profile without a table for that direction refuses.
@Suite("encoding sRGB colours into a profile")
struct ProfileEncodingTests {
    typealias Tagged = ColourManagedComparisonTests.Tagged

    @Test("encoded into the profile and rendered back, a picture returns within 1 code",
          arguments: ColourManagedComparisonTests.profiles)
    func roundTrip(_ profile: Tagged) throws {
        let icc = try ColourManagedComparisonTests.bytes(profile)
        let picture = try ColourManagedComparisonTests.picture(gray: profile.gray)
        let wide = try picture.converted(to: .rgb16)
        let stored = try SRGBRendering.encode(wide, into: icc, as: profile.gray ? PixelFormat(colorModel: .gray, bitsPerComponent: 16) : .rgb16)
        let back = try SRGBRendering.render(Image(bitmap: stored, metadata: ImageMetadata(iccProfile: icc))).bitmap.converted(to: .rgb8)
        let original = try picture.converted(to: .rgb8)
        let worst = zip(back.bytes, original.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest |Δ| \(worst)")
    }

    @Test("the stored values are what the textbook oracle renders back to the picture (ΔE00 max ≤ 1.5)",
          arguments: ColourManagedComparisonTests.profiles.filter { !$0.gray })
    func storedValuesFollowTheOracle(_ profile: Tagged) throws {
        let icc = try ColourManagedComparisonTests.bytes(profile)
        let picture = try ColourManagedComparisonTests.picture(gray: false)
        let stored = try SRGBRendering.encode(try picture.converted(to: .rgb16), into: icc, as: .rgb16)
        let little = try stored.converted(to: PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .none, byteOrder: .little16))
        let samples = little.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        var shown: [UInt8] = []
        for i in 0..<(picture.width * picture.height) {
            shown += profile.oracle.render((0..<3).map { Double(samples[i * 3 + $0]) / 65535 }).map { UInt8(($0 * 255).rounded()) }
        }
        let rendering = try Bitmap(width: picture.width, height: picture.height, format: .rgb8, bytes: shown)
        let j = try ColourManagedComparisonTests.judge(ColourManagedComparisonTests.image(picture, profile: nil),
                                                       ColourManagedComparisonTests.image(rendering, profile: nil), gate: "deltaE00.max <= 1.5")
        #expect(j.passed, "ΔE00 max \(j.comparison.value("deltaE00.max") ?? .nan)")
    }

    @Test("a CMYK profile with only its device-to-PCS table cannot be encoded into: a clear failure")
    func oneWayProfileRefuses() throws {
        let cmyk = try #require(ICCProfileBuilder.cmyk(grid: 5) { c, m, y, k in ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)) })
        #expect(throws: SRGBRendering.Failure.self) {
            try SRGBRendering.encode(try ColourManagedComparisonTests.picture(gray: false), into: cmyk,
                                     as: PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: 8))
        }
    }
}
