import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageMetrics

/// The colour stage of the judge route (``ColourStage``) on images tagged with the fixture
/// profiles (Little CMS-made, Tests/Fixtures/icc): a tagged picture against its sRGB rendering
/// made by ``ProfileOracle`` (textbook arithmetic from what each profile was built from, no
/// Little CMS) passes a ΔE00 gate; the same pixels with the profile stripped, attached
/// unconverted or converted with the tag kept fail and are named by the profile mistake.
@Suite("colour-managed comparison")
struct ColourManagedComparisonTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/icc")

    struct Tagged: Sendable, CustomTestStringConvertible {
        var file: String
        var white: [Double]
        var primaries: [[Double]]?
        var gamma: Double?
        var testDescription: String { file }
        var oracle: ProfileOracle { ProfileOracle(white: white, primaries: primaries, curve: gamma.map { .gamma($0) } ?? .srgb) }
        var gray: Bool { primaries == nil }
    }

    /// The profiles that are not sRGB-equivalent, as the manifest states how each was built.
    static let profiles: [Tagged] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let all = object["profiles"] as? [String: [String: Any]] else { return [] }
        return all.compactMap { name, p -> Tagged? in
            guard p["srgbEquivalent"] as? Bool == false, let white = p["white"] as? [Double] else { return nil }
            let gamma = (p["curve"] as? [String: Double])?["gamma"]
            return Tagged(file: name, white: white, primaries: p["primaries"] as? [[Double]], gamma: gamma)
        }.sorted { $0.file < $1.file }
    }()

    /// A 48 × 32 picture of saturated and pale colours (ramps of red across, green down, blue
    /// along the diagonal), 8 bits; gray profiles get its red ramp as gray.
    static func picture(gray: Bool) throws -> Bitmap {
        let w = 48, h = 32
        var bytes: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let r = UInt8(x * 255 / (w - 1)), g = UInt8(y * 255 / (h - 1)), b = UInt8((x + y) * 255 / (w + h - 2))
                bytes += gray ? [r] : [r, g, b]
            }
        }
        return try Bitmap(width: w, height: h, format: gray ? .gray8 : .rgb8, bytes: bytes)
    }

    /// The oracle's sRGB rendering of `bitmap`'s stored values, 8-bit RGB.
    static func rendering(_ bitmap: Bitmap, _ profile: Tagged) throws -> Bitmap {
        let channels = profile.gray ? 1 : 3
        var bytes: [UInt8] = []
        for i in 0..<(bitmap.width * bitmap.height) {
            let stored = (0..<channels).map { Double(bitmap.bytes[i * channels + $0]) / 255 }
            bytes += profile.oracle.render(stored).map { UInt8(($0 * 255).rounded()) }
        }
        return try Bitmap(width: bitmap.width, height: bitmap.height, format: .rgb8, bytes: bytes)
    }

    static func image(_ bitmap: Bitmap, profile: [UInt8]?) -> ComparedImage {
        ComparedImage(image: Image(bitmap: bitmap, metadata: ImageMetadata(iccProfile: profile)), name: "image")
    }

    static func judge(_ expected: ComparedImage, _ actual: ComparedImage, gate: String? = nil,
                      colour: ColourMode = .managed) throws -> Judgement {
        let judge = Judge(gate: try gate.map { try GateExpression($0) }, canaries: .skip, diagnosing: .always)
        return try FileComparison.judge(expected, actual, by: judge, ignoring: IgnoredPixels(), colour: colour).0
    }

    static func bytes(_ profile: Tagged) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(profile.file)))
    }

    @Test("the manifest lists the wide-gamut, ProPhoto, swapped-primaries and gray profiles")
    func manifestIsRead() {
        #expect(Self.profiles.count >= 5 && Self.profiles.contains { $0.gray })
    }

    @Test("a tagged picture matches its sRGB rendering: ΔE00 max ≤ 1.5 and the gate passes", arguments: profiles)
    func matchesItsRendering(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let j = try Self.judge(Self.image(picture, profile: try Self.bytes(profile)), Self.image(try Self.rendering(picture, profile), profile: nil),
                               gate: "deltaE00.max <= 1.5")
        #expect(j.passed, "ΔE00 max \(j.comparison.value("deltaE00.max") ?? .nan)")
        #expect(j.colour?.converted == ["expected"])
        #expect(j.colour?.profilesDiffer == true)
    }

    @Test("judged exactly, a tagged picture and its rendering differ by rounding only, and are never read on their stored values",
          arguments: profiles)
    func sameColoursAreNotReadAsStored(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let j = try Self.judge(Self.image(picture, profile: try Self.bytes(profile)), Self.image(try Self.rendering(picture, profile), profile: nil))
        #expect(!j.comparison.diagnosis.summary.contains("in the stored values"), "\(j.comparison.diagnosis.summary)")
        #expect(j.comparison.diagnosis.bugClass == nil, "\(j.comparison.diagnosis.summary)")
    }

    @Test("stored values compared (--colour raw), the same pair fails the gate", arguments: profiles)
    func rawComparesStoredValues(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let j = try Self.judge(Self.image(picture, profile: try Self.bytes(profile)), Self.image(try Self.rendering(picture, profile), profile: nil),
                               gate: "deltaE00.max <= 1.5", colour: .raw)
        #expect(!j.passed, "ΔE00 max \(j.comparison.value("deltaE00.max") ?? .nan)")
        #expect(j.colour?.converted == [])
    }

    @Test("the profile stripped from the same pixels fails and is named profile.dropped (colour-profile)", arguments: profiles)
    func strippedProfileIsNamed(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let j = try Self.judge(Self.image(picture, profile: try Self.bytes(profile)), Self.image(picture, profile: nil))
        #expect(!j.passed)
        #expect(j.comparison.diagnosis.bugClass == "colour-profile", "\(j.comparison.diagnosis.summary)")
        #expect(j.comparison.diagnosis.candidate == "profile.dropped", "\(j.comparison.diagnosis.summary)")
    }

    @Test("a profile attached to sRGB values without converting them is named profile.attached-unconverted", arguments: profiles)
    func attachedUnconverted(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: profile.gray)
        let j = try Self.judge(Self.image(picture, profile: nil), Self.image(picture, profile: try Self.bytes(profile)))
        #expect(j.comparison.diagnosis.candidate == "profile.attached-unconverted", "\(j.comparison.diagnosis.summary)")
    }

    @Test("pixels converted to sRGB with the profile kept are named profile.converted-tag-kept",
          arguments: profiles.filter { !$0.gray })
    func convertedTagKept(_ profile: Tagged) throws {
        let picture = try Self.picture(gray: false)
        let icc = try Self.bytes(profile)
        let j = try Self.judge(Self.image(picture, profile: icc), Self.image(try Self.rendering(picture, profile), profile: icc))
        #expect(j.colour?.profilesDiffer == false)
        #expect(j.comparison.diagnosis.candidate == "profile.converted-tag-kept", "\(j.comparison.diagnosis.summary)")
    }

    @Test("a broken profile is read as sRGB with a warning; the pair compares as stored")
    func brokenProfileIsAWarning() throws {
        let picture = try Self.picture(gray: false)
        let broken = Array(try Data(contentsOf: Self.folder.appendingPathComponent("truncated.icc")))
        let j = try Self.judge(Self.image(picture, profile: broken), Self.image(picture, profile: nil))
        #expect(j.passed)
        #expect(j.colour?.warnings.first?.contains("unusable") == true, "\(j.colour?.summary ?? "")")
    }
}
