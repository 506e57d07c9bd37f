import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageResize
@testable import ImageMetrics

/// The built-in resize of files tagged with the fixture profiles keeps their displayed colours:
/// its result, compared as colours (``ColourStage``), against a reference route that renders the
/// source in sRGB by ``ProfileOracle`` (textbook arithmetic, no Little CMS) at 16 bits and then
/// resizes that in sRGB's linear light. The picture stays inside sRGB's gamut, where averaging
/// commutes with the profile's colorant matrix, so the two routes differ by rounding only;
/// averaging with the sRGB curve instead of the profile's (the profile's tag ignored while
/// resizing) is shown to fail the same bound, so the test can fail.
@Suite("resize in a profile's own linear light")
struct ProfileResizeTests {
    typealias Tagged = ColourManagedComparisonTests.Tagged

    /// 64 × 64, 8-bit: a 1-pixel checker of two muted colours on the left half (where the light
    /// space of the average shows), a gentle ramp on the right.
    static func picture(gray: Bool) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let rgb: [UInt8] = x < 32 ? ((x + y) % 2 == 0 ? [70, 90, 110] : [170, 160, 140])
                    : [UInt8(90 + x), UInt8(100 + y / 2), UInt8(120 + (x + y) / 4)]
                bytes += gray ? [rgb[1]] : rgb
            }
        }
        return try Bitmap(width: 64, height: 64, format: gray ? .gray8 : .rgb8, bytes: bytes)
    }

    /// The oracle's rendering of `bitmap` in sRGB, 16-bit RGB.
    static func rendering16(_ bitmap: Bitmap, _ oracle: ProfileOracle) throws -> Bitmap {
        let channels = oracle.primaries == nil ? 1 : 3
        var bytes: [UInt8] = []
        for i in 0..<(bitmap.width * bitmap.height) {
            let stored = (0..<channels).map { Double(bitmap.bytes[i * channels + $0]) / 255 }
            for v in oracle.render(stored) {
                let code = UInt16((v * 65535).rounded())
                bytes += [UInt8(code >> 8), UInt8(code & 0xFF)]
            }
        }
        return try Bitmap(width: bitmap.width, height: bitmap.height, format: .rgb16, bytes: bytes)
    }

    static func write(_ image: Image) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("profile-resize-\(UUID().uuidString).png").path
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: .png), to: path)
        return path
    }

    /// ΔE00 p99 of `result` (as its tags state) against the reference route's 32 × 32.
    static func deltaE(_ result: Image, _ picture: Bitmap, _ profile: Tagged) throws -> Double {
        let reference = try Image(bitmap: try rendering16(picture, profile.oracle)).resized(width: 32, height: 32)
        let judge = Judge(gate: nil, canaries: .skip, diagnosing: .whenFailing)
        let j = try FileComparison.judge(ComparedImage(image: result, name: "result"), ComparedImage(image: reference, name: "reference"),
                                         by: judge, ignoring: IgnoredPixels())
        return try #require(j.0.comparison.value("deltaE00.p99"))
    }

    @Test("keep: the result keeps the profile, and its colours are the reference route's (ΔE00 p99 ≤ 1)",
          arguments: ColourManagedComparisonTests.profiles)
    func keepsColours(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let icc = try ColourManagedComparisonTests.bytes(profile)
        let path = try Self.write(Image(bitmap: picture, metadata: ImageMetadata(iccProfile: icc)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FileResizeRequest(input: path, output: "/dev/null", container: .png,
                                           size: .box(width: 32, height: 32, contentMode: .scaleToFill)).resized()
        #expect(result.metadata.iccProfile == icc)
        #expect(try Self.deltaE(result, picture, profile) <= 1)
    }

    @Test("srgb: the result carries no profile and its colours are the reference route's (ΔE00 p99 ≤ 1)",
          arguments: ColourManagedComparisonTests.profiles)
    func convertsToSRGB(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let path = try Self.write(Image(bitmap: picture, metadata: ImageMetadata(iccProfile: try ColourManagedComparisonTests.bytes(profile))))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = ResizeOptions()
        options.colour = .srgb
        let result = try FileResizeRequest(input: path, output: "/dev/null", container: .png,
                                           size: .box(width: 32, height: 32, contentMode: .scaleToFill), options: options).resized()
        #expect(result.metadata.iccProfile == nil)
        #expect(try Self.deltaE(result, picture, profile) <= 1)
    }

    @Test("averaging with the sRGB curve whatever the profile (the tag ignored while resizing) fails the bound on ProPhoto")
    func srgbCurveFails() throws {
        let profile = try #require(ColourManagedComparisonTests.profiles.first { $0.file.hasPrefix("prophoto") })
        let picture = try Self.picture(gray: false)
        let icc = try ColourManagedComparisonTests.bytes(profile)
        var resized = try Image(bitmap: picture).resized(width: 32, height: 32)
        resized.metadata.iccProfile = icc
        #expect(try Self.deltaE(resized, picture, profile) > 1)
    }
}
