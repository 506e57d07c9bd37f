import Foundation
import Testing
import ImageCodecs

/// The commands on WebP files, and on a machine without libwebp (played by pointing
/// IMGLAB_LIBWEBP at a file that does not exist): `info` still reads the header; decoding,
/// resizing and writing WebP say which package to install, and nothing is written.
@Suite("WebP commands")
struct WebPCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/webp")

    @Test("without libwebp: info reads the header, resize and diff say 'install libwebp-dev' and write nothing")
    func missingLibrary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-webp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.fixtures.appendingPathComponent("gradient-rgb-lossy-orientation-6.webp").path
        let absent = ["IMGLAB_LIBWEBP": "/nonexistent/libwebp.so.7"]
        let info = try ImglabRun.run(["info", file], environment: absent)
        #expect(info.status == 0 && info.stdout.contains("VP8 (lossy)") && info.stdout.contains("6 (right) from WebP EXIF"),
                "\(info.stdout)\(info.stderr)")
        let out = folder.appendingPathComponent("small.png").path
        let resize = try ImglabRun.run(["resize", file, "--size", "8x8", "-o", out], environment: absent)
        #expect(resize.status != 0 && resize.stderr.contains("/nonexistent/libwebp.so.7 is not installed")
                && resize.stderr.contains("apt-get install libwebp-dev"), "\(resize.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let diff = try ImglabRun.run(["diff", file, file], environment: absent)
        #expect(diff.status != 0 && diff.stderr.contains("apt-get install libwebp-dev"), "\(diff.stderr)")
        let png = folder.appendingPathComponent("a.png").path
        let made = try ImglabRun.run(["resize", file, "--size", "8x8", "-o", png])
        #expect(made.status == 0, "\(made.stderr)")
        let write = try ImglabRun.run(["resize", png, "--size", "4x4", "-o", folder.appendingPathComponent("b.webp").path],
                                      environment: absent)
        #expect(write.status != 0 && write.stderr.contains("apt-get install libwebp-dev"), "\(write.stderr)")
    }

    @Test("with libwebp: a thumbnail of the oriented lossy WebP is upright (16×24 → 8×12) and a WebP written back reads the same",
          .enabled(if: WebPCodec.availability.available, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func thumbnailAndWrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-webp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.fixtures.appendingPathComponent("gradient-rgb-lossy-orientation-6.webp").path
        let thumb = folder.appendingPathComponent("t.webp").path
        let run = try ImglabRun.run(["thumbnail", file, "--max-pixel-size", "12", "-o", thumb])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try ImglabRun.run(["info", thumb])
        #expect(info.stdout.contains("8×12") && info.stdout.contains("VP8L (lossless)"), "\(info.stdout)")
        let same = try ImglabRun.run(["diff", thumb, thumb])
        #expect(same.status == 0 && same.stdout.contains("identical"), "\(same.stdout)")
    }
}
