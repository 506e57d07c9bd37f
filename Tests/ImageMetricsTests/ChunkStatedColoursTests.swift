import Foundation
import Testing
import ImageCore
@testable import ImageCodecs
import ImageResize
@testable import ImageMetrics

/// Colours stated by PNG chunks rather than an ICC profile (``StatedColours``): cICP's H.273
/// codes, gAMA and cHRM. Each tagged file is written as a PNG, read back, and compared with its
/// sRGB rendering made by ``ProfileOracle`` (textbook arithmetic from the values the chunks
/// hold, no Little CMS); the same pixels untagged fail and are named a dropped statement; the
/// built-in resize keeps the colours in both ``ResizeColour`` modes.
@Suite("colours stated by PNG chunks")
struct ChunkStatedColoursTests {
    struct ChunkTagged: Sendable, CustomTestStringConvertible {
        var name: String
        var metadata: ImageMetadata
        var oracle: ProfileOracle
        var testDescription: String { name }
        var gray: Bool { oracle.primaries == nil }
    }

    static let d65 = [0.3127, 0.3290]
    static let p3 = [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]

    static let tagged: [ChunkTagged] = [
        ChunkTagged(name: "cICP 12/13/0/1 (Display P3)", metadata: ImageMetadata(codingPoints: [12, 13, 0, 1]),
                    oracle: ProfileOracle(white: d65, primaries: p3, curve: .srgb)),
        ChunkTagged(name: "cICP 9/1/0/1 (Rec. 2020 primaries, Rec. 709 curve)", metadata: ImageMetadata(codingPoints: [9, 1, 0, 1]),
                    oracle: ProfileOracle(white: d65, primaries: [[0.708, 0.292], [0.170, 0.797], [0.131, 0.046]], curve: .rec709)),
        ChunkTagged(name: "gAMA 0.55556 alone (gamma 1.8, sRGB primaries)", metadata: ImageMetadata(gamma: 0.55556),
                    oracle: ProfileOracle(white: d65, primaries: ProfileOracle.srgbPrimaries, curve: .gamma(1 / 0.55556))),
        ChunkTagged(name: "gAMA 0.45455 and cHRM of Adobe RGB",
                    metadata: ImageMetadata(gamma: 0.45455, chromaticities: [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06]),
                    oracle: ProfileOracle(white: d65, primaries: [[0.64, 0.33], [0.21, 0.71], [0.15, 0.06]], curve: .gamma(1 / 0.45455))),
        ChunkTagged(name: "cHRM alone, D50 white and ProPhoto primaries (sRGB curve)",
                    metadata: ImageMetadata(chromaticities: [0.3457, 0.3585, 0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001]),
                    oracle: ProfileOracle(white: [0.3457, 0.3585], primaries: [[0.7347, 0.2653], [0.1596, 0.8404], [0.0366, 0.0001]],
                                          curve: .srgb)),
        ChunkTagged(name: "gray with gAMA 1.0 (linear light)", metadata: ImageMetadata(gamma: 1),
                    oracle: ProfileOracle(white: d65, primaries: nil, curve: .gamma(1))),
    ]

    /// `picture` with `metadata`'s chunks, through a PNG file's bytes and back.
    static func throughPNG(_ picture: Bitmap, _ metadata: ImageMetadata) throws -> Image {
        try PNGCodec.decode(try ImageCodecs.encode(Image(bitmap: picture, metadata: metadata), as: .png), options: DecodeOptions())
    }

    @Test("the chunks survive a PNG round trip and state a profile that is not sRGB's", arguments: tagged)
    func chunksRoundTrip(_ tagged: ChunkTagged) throws {
        let image = try Self.throughPNG(try ColourManagedComparisonTests.picture(gray: tagged.gray), tagged.metadata)
        #expect(image.metadata.codingPoints == tagged.metadata.codingPoints)
        #expect(image.metadata.chromaticities == tagged.metadata.chromaticities)
        #expect(image.metadata.gamma == tagged.metadata.gamma)
        #expect(SRGBRendering.needsConversion(image))
    }

    @Test("a chunk-tagged picture matches its sRGB rendering made from the chunks' values: ΔE00 max ≤ 1.5", arguments: tagged)
    func matchesItsRendering(_ tagged: ChunkTagged) throws {
        let picture = try ColourManagedComparisonTests.picture(gray: tagged.gray)
        let image = try Self.throughPNG(picture, tagged.metadata)
        var rendering: [UInt8] = []
        let channels = tagged.gray ? 1 : 3
        for i in 0..<(picture.width * picture.height) {
            rendering += tagged.oracle.render((0..<channels).map { Double(picture.bytes[i * channels + $0]) / 255 })
                .map { UInt8(($0 * 255).rounded()) }
        }
        let expected = try Bitmap(width: picture.width, height: picture.height, format: .rgb8, bytes: rendering)
        let j = try ColourManagedComparisonTests.judge(ComparedImage(image: image, name: "tagged"),
                                                       ColourManagedComparisonTests.image(expected, profile: nil), gate: "deltaE00.max <= 1.5")
        #expect(j.passed, "ΔE00 max \(j.comparison.value("deltaE00.max") ?? .nan)")
        #expect(j.colour?.converted == ["expected"])
    }

    @Test("the same pixels untagged fail and are named profile.dropped, in the chunks' words", arguments: tagged)
    func droppedStatementIsNamed(_ tagged: ChunkTagged) throws {
        let picture = try ColourManagedComparisonTests.picture(gray: tagged.gray)
        let j = try ColourManagedComparisonTests.judge(ComparedImage(image: try Self.throughPNG(picture, tagged.metadata), name: "tagged"),
                                                       ColourManagedComparisonTests.image(picture, profile: nil))
        #expect(!j.passed)
        #expect(j.comparison.diagnosis.candidate == "profile.dropped", "\(j.comparison.diagnosis.summary)")
        #expect(j.comparison.diagnosis.summary.contains("PNG"), "\(j.comparison.diagnosis.summary)")
    }

    @Test("resize keeps the chunk-stated colours in both modes (ΔE00 p99 ≤ 1 against the reference route)",
          arguments: tagged, [ResizeColour.keep, .srgb])
    func resizeKeepsColours(_ tagged: ChunkTagged, _ mode: ResizeColour) throws {
        let picture = try ProfileResizeTests.picture(gray: tagged.gray)
        let path = try ProfileResizeTests.write(Image(bitmap: picture, metadata: tagged.metadata))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = ResizeOptions()
        options.colour = mode
        let result = try FileResizeRequest(input: path, output: "/dev/null", container: .png,
                                           size: .box(width: 32, height: 32, contentMode: .scaleToFill), options: options).resized()
        #expect(SRGBRendering.needsConversion(result) == (mode == .keep))
        #expect(result.metadata.gamma == nil && result.metadata.codingPoints == nil, "a converted or re-tagged result keeps no stale chunk")
        let reference = try Image(bitmap: try ProfileResizeTests.rendering16(picture, tagged.oracle)).resized(width: 32, height: 32)
        let judge = Judge(gate: nil, canaries: .skip, diagnosing: .whenFailing)
        let j = try FileComparison.judge(ComparedImage(image: result, name: "result"), ComparedImage(image: reference, name: "reference"),
                                         by: judge, ignoring: IgnoredPixels())
        #expect(try #require(j.0.comparison.value("deltaE00.p99")) <= 1)
    }

    @Test("sRGB statements convert nothing: the sRGB chunk, gAMA 1/2.2 alone or with sRGB's cHRM, cICP 1/13/0/1")
    func srgbStatements() {
        let srgbChromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
        for metadata in [ImageMetadata(gamma: 0.55556, sRGBIntent: 0), ImageMetadata(gamma: 0.45455),
                         ImageMetadata(gamma: 0.45455, chromaticities: srgbChromaticities), ImageMetadata(codingPoints: [1, 13, 0, 1])] {
            #expect(SRGBRendering.statedProfile(metadata, gray: false) == nil, "\(StatedColours(metadata).origin)")
        }
    }

    @Test("precedence: cICP over an ICC profile over sRGB over gAMA; an HDR cICP is noted and passed over")
    func precedence() throws {
        let adobe = try #require(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)], gamma: 2.2))
        #expect(StatedColours(ImageMetadata(iccProfile: adobe, codingPoints: [12, 13, 0, 1])).origin.hasPrefix("PNG cICP 12/13/0/1"))
        #expect(StatedColours(ImageMetadata(iccProfile: adobe, sRGBIntent: 0)).profile == adobe)
        let pq = StatedColours(ImageMetadata(iccProfile: adobe, codingPoints: [9, 16, 0, 1]))
        #expect(pq.profile == adobe && pq.notes.count == 1)
        let limited = StatedColours(ImageMetadata(codingPoints: [12, 13, 0, 0]))
        #expect(limited.profile == nil && limited.notes.count == 1)
        #expect(StatedColours(ImageMetadata(gamma: 0.55556, chromaticities: [0, 0, 0, 0, 0, 0, 0, 0])).notes.count == 1)
    }

    @Test("a HEIF or AVIF nclx box is named as such, with the file's own code points, not as a PNG cICP")
    func heifNclxNamed() throws {
        let stated = StatedColours(ImageMetadata(codingPoints: [12, 13, 0, 1], properties: ["nclx": "12/13/6/0"]))
        #expect(stated.origin.hasPrefix("HEIF nclx 12/13/6/0") && stated.profile != nil, "\(stated.origin)")
    }
}
