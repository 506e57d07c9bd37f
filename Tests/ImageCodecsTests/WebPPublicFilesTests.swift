import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// The real-file check of WebP: libwebp's conformance files (webmproject/libwebp-test-data, copied with
/// their provenance by scripts/make-webp-public-manifest.py into Tests/Fixtures/webp-public), each
/// decoded by imglab to the samples upstream states for it (the MD5 of `dwebp -pam` for RGBA and of
/// `dwebp -ppm` for RGB in upstream's libwebp_tests.md5, or its reference grid and peak decodings for the
/// lossless vectors), compared through the FNV-1a 64-bit hashes the manifest records of those samples.
@Suite("WebP public files")
struct WebPPublicFilesTests {
    struct Manifest: Decodable { var files: [Entry] }
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        struct Expected: Decodable, Sendable { var width: Int, height: Int, rgba_fnv1a64: String, rgb_fnv1a64: String }
        var path: String, expected: Expected
        var testDescription: String { path }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/webp-public")
    static let entries: [Entry] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.files
    }()

    /// FNV-1a, 64 bits (the manifest script's `fnv1a64`).
    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test("the manifest lists the copied files (at least 90, lossy, lossless, alpha and the lossless vectors)")
    func manifestIsThere() {
        #expect(Self.entries.count >= 90)
        #expect(Self.entries.contains { $0.path.hasPrefix("vp80-") } && Self.entries.contains { $0.path.hasPrefix("lossless_vec_2_") })
    }

    @Test("each file's header (imglab's own chunk reader) gives upstream's size", arguments: entries)
    func headerAsUpstream(_ entry: Entry) throws {
        let header = try ImageCodecs.readHeader(try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(entry.path))))
        #expect(header.width == entry.expected.width && header.height == entry.expected.height)
    }

    @Test("each file decodes to upstream's samples (RGBA with alpha, RGB without)", .enabled(if: WebPCodec.availability.available,
          "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"), arguments: entries)
    func decodesAsUpstream(_ entry: Entry) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(entry.path)))
        let image = try ImageCodecs.decode(bytes, options: DecodeOptions(decodeAllFrames: false))
        #expect(image.width == entry.expected.width && image.height == entry.expected.height)
        // RGBA for a file with alpha, RGB without: each against upstream's decoding in that form.
        let expected = image.format == .rgba8 ? entry.expected.rgba_fnv1a64 : entry.expected.rgb_fnv1a64
        #expect([PixelFormat.rgba8, .rgb8].contains(image.format) && image.bitmap.bytesPerRow == image.width * image.format.bitsPerPixel / 8)
        #expect(Self.fnv1a64(image.bitmap.bytes) == expected, "\(entry.path): \(image.format)")
    }
}
