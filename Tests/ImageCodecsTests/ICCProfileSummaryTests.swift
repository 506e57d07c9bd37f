import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// `imglab info`'s reading of ICC profiles against profiles made by Little CMS
/// (scripts/make-icc-profiles.py, Tests/Fixtures/icc): each profile's class, colour space,
/// version, white, primaries, tone curve and sRGB verdict are what it was built from; a broken
/// profile says what is wrong with it.
@Suite("ICC profile summary")
struct ICCProfileSummaryTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/icc")

    struct Built: Decodable, Sendable, CustomTestStringConvertible {
        enum Curve: Decodable, Sendable {
            case srgb, gamma(Double)
            init(from decoder: any Decoder) throws {
                if let word = try? decoder.singleValueContainer().decode(String.self), word == "srgb" { self = .srgb; return }
                struct Gamma: Decodable { var gamma: Double }
                self = .gamma(try Gamma(from: decoder).gamma)
            }
        }
        var name = ""
        var description: String?, profileClass: String?, colorSpace: String?, pcs: String?, version: String?
        var white: [Double]?, primaries: [[Double]]?, curve: Curve?, srgbEquivalent: Bool?, truncated: Bool?
        var testDescription: String { name }
        enum CodingKeys: String, CodingKey {
            case description, profileClass, colorSpace, pcs, version, white, primaries, curve, srgbEquivalent, truncated
        }
    }

    static let built: [Built] = {
        struct Manifest: Decodable { var profiles: [String: Built] }
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.profiles.map { var b = $0.value; b.name = $0.key; return b }.sorted { $0.name < $1.name }
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("the fixture manifest lists the profiles the script makes")
    func manifestIsWhole() {
        #expect(Self.built.count == 7)
    }

    @Test("each profile reads back as it was built: class, space, version, white and primaries within 0.002, curve, sRGB verdict",
          arguments: built.filter { $0.truncated != true })
    func readsWhatWasBuilt(_ profile: Built) throws {
        let s = ICCProfileSummary(try Self.bytes(profile.name))
        #expect(s.problem == nil)
        #expect(s.description == profile.description)
        #expect(s.profileClass == profile.profileClass)
        #expect(s.colorSpace?.trimmingCharacters(in: .whitespaces) == profile.colorSpace)
        #expect(s.pcs?.trimmingCharacters(in: .whitespaces) == profile.pcs)
        #expect(s.version == profile.version)
        let white = try #require(s.white)
        let expectedWhite = try #require(profile.white)
        #expect(abs(white[0] - expectedWhite[0]) <= 0.002 && abs(white[1] - expectedWhite[1]) <= 0.002, "\(white)")
        if let expected = profile.primaries {
            let read = try #require(s.primaries)
            for (r, e) in zip(read, expected) { #expect(abs(r[0] - e[0]) <= 0.002 && abs(r[1] - e[1]) <= 0.002, "\(read)") }
        } else {
            #expect(s.primaries == nil)
        }
        switch profile.curve {
        case .srgb: #expect(s.toneCurve == "sRGB curve")
        case .gamma(let g):
            // v2 stores a gamma in 8.8 fixed point: within 1/256 of what it was built with.
            let said = try #require(s.toneCurve.flatMap { $0.hasPrefix("gamma ") ? Double($0.dropFirst(6)) : nil }, "\(s.toneCurve ?? "")")
            #expect(abs(said - g) <= 1.0 / 256)
        case nil: Issue.record("the manifest gives no curve")
        }
        #expect(s.isSRGBEquivalent == (profile.colorSpace == "RGB" ? profile.srgbEquivalent : nil))
    }

    @Test("a truncated profile, one without the 'acsp' signature and one whose header disagrees with its size each say why")
    func brokenProfilesSayWhy() throws {
        #expect(ICCProfileSummary(try Self.bytes("truncated.icc")).problem?.contains("shorter than") == true)
        var unsigned = try Self.bytes("adobe-rgb-like-v2.icc")
        unsigned[36] = 0x20
        #expect(ICCProfileSummary(unsigned).problem?.contains("'acsp'") == true)
        let cut = Array(try Self.bytes("adobe-rgb-like-v2.icc").prefix(300))
        #expect(ICCProfileSummary(cut).problem == "its header declares 632 bytes, it has 300")
    }

    @Test("every prefix of a profile reads without a crash", arguments: ["adobe-rgb-like-v2.icc", "display-p3-like-v4.icc"])
    func everyPrefixReads(_ name: String) throws {
        let whole = try Self.bytes(name)
        for n in 0...whole.count { _ = ICCProfileSummary(Array(whole.prefix(n))).colourFacts }
    }

    @Test("info shows the profile's facts under its ICC line for a PNG written with it")
    func infoShowsFacts() throws {
        let pixels = try Bitmap(width: 4, height: 4, format: .rgb8, bytes: [UInt8](repeating: 128, count: 48))
        let profile = try Self.bytes("prophoto-like-v2.icc")
        let png = try ImageCodecs.encode(Image(bitmap: pixels, metadata: ImageMetadata(iccProfile: profile)), as: .png)
        let text = FileInfo(path: "p.png", container: .png, image: try ImageCodecs.decode(png)).text
        #expect(text.contains("  ICC            620 bytes, \"ProPhoto RGB-like\" (RGB, v2.1)\n"
            + "                 display profile, PCS XYZ · white x 0.3457 y 0.3585 (D50) · primaries R 0.735 0.265, G 0.160 0.840, "
            + "B 0.037 0.000 · tone curve gamma 1.797 · not sRGB-equivalent"), "\(text)")
    }
}
