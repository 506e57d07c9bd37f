import Foundation
import Testing
import ImageCodecs

/// The commands on HEIF and AVIF files, and on a machine without libheif (played by pointing
/// IMGLAB_LIBHEIF at a file that does not exist): `info` still reads the boxes; decoding,
/// resizing and writing either format say which package to install, and nothing is written.
@Suite("HEIF and AVIF commands")
struct HEIFCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/heif")

    @Test("without libheif: info reads the boxes, resize and diff say 'install libheif-dev' and write nothing")
    func missingLibrary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.fixtures.appendingPathComponent("gradient-rgb-orientation-6.heic").path
        let absent = ["IMGLAB_LIBHEIF": "/nonexistent/libheif.so.1"]
        let info = try ImglabRun.run(["info", file], environment: absent)
        #expect(info.status == 0 && info.stdout.contains("6 (right) from HEIF irot/imir") && info.stdout.contains("HEVC"),
                "\(info.stdout)\(info.stderr)")
        let out = folder.appendingPathComponent("small.png").path
        let resize = try ImglabRun.run(["resize", file, "--size", "8x8", "-o", out], environment: absent)
        #expect(resize.status != 0 && resize.stderr.contains("/nonexistent/libheif.so.1 is not installed")
                && resize.stderr.contains("apt-get install libheif-dev"), "\(resize.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let avif = Self.fixtures.appendingPathComponent("gradient-rgba-lossy.avif").path
        let diff = try ImglabRun.run(["diff", avif, avif], environment: absent)
        #expect(diff.status != 0 && diff.stderr.contains("apt-get install libheif-dev"), "\(diff.stderr)")
        let png = folder.appendingPathComponent("a.png").path
        let made = try ImglabRun.run(["resize", Self.fixtures.appendingPathComponent("../webp/gradient-rgba-lossless.webp").path,
                                      "--size", "8x8", "-o", png])
        #expect(made.status == 0, "\(made.stderr)")
        let write = try ImglabRun.run(["resize", png, "--size", "4x4", "-o", folder.appendingPathComponent("b.avif").path],
                                      environment: absent)
        #expect(write.status != 0 && write.stderr.contains("apt-get install libheif-dev"), "\(write.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.avif").path))
    }

    @Test("with libheif: a thumbnail of the oriented HEIC is upright (24×16 stored, turned right → 8×12), AVIF written back reads the same",
          .enabled(if: HEIFFamily.availability.available, "needs libheif1 (apt-get install libheif-dev)"))
    func thumbnailAndWrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.fixtures.appendingPathComponent("gradient-rgb-orientation-6.heic").path
        let thumb = folder.appendingPathComponent("t.avif").path
        let run = try ImglabRun.run(["thumbnail", file, "--max-pixel-size", "12", "-o", thumb])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try ImglabRun.run(["info", thumb])
        #expect(info.stdout.contains("8×12") && info.stdout.contains("AV1"), "\(info.stdout)")
        let same = try ImglabRun.run(["diff", thumb, thumb])
        #expect(same.status == 0 && same.stdout.contains("identical"), "\(same.stdout)")
    }
}
