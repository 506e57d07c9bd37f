import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// The memory budget (`--max-memory`, docs/safe-writes.md): `info` reads headers only; a file
/// that declares a huge image is refused or handled within the budget by every command; a
/// comparison or a resize that would need more than the budget is refused with the budget in
/// the message, before its buffers exist.
@Suite("memory budget from the command line")
struct MemoryBudgetCommandTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-budget-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Files of a few hundred bytes whose headers are well formed and declare 16000 × 16000
    /// pixels (within the pixel limit of 16383²), their data far too short: (name, bytes).
    static var bombs: [(String, [UInt8])] {
        get throws {
            [("png", HugeHeaders.png(width: 16_000, height: 16_000)),
             ("jpeg", try jpeg(width: 16_000, height: 16_000)),
             ("gif", HugeHeaders.gif(width: 16_000, height: 16_000)),
             ("tiff", HugeHeaders.tiff(width: 16_000, height: 16_000)),
             ("bmp", HugeHeaders.bmp(width: 16_000, height: 16_000) + [0, 0, 0, 0])]
        }
    }

    /// A baseline JPEG of 16 × 16 gray pixels from the encoder, its SOF0 patched to declare `width × height`.
    static func jpeg(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 16, height: 16, format: .gray8, bytes: [UInt8](repeating: 128, count: 256))), as: .jpeg)
        let sof = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: HugeHeaders.be16(height) + HugeHeaders.be16(width))
        return bytes
    }

    @Test("info reads only the header of a file declaring 16000², whatever the container: exit 0, the size shown, little memory", arguments: 0..<5)
    func infoHeaderOnly(index: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (name, bytes) = try Self.bombs[index]
        let path = dir + "/bomb." + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try ImglabRun.run(["info", path])
        #expect(run.status == 0, "\(name): \(run.stderr)")
        #expect(run.stdout.contains("16000×16000"), "\(name): \(run.stdout)")
        #expect(run.peakRSSMiB < 64, "\(name): \(run.peakRSSMiB) MiB")
    }

    @Test("thumbnail, resize and diff of a file declaring 16000² under --max-memory 256M: refused with a typed error or done, within the budget", arguments: 0..<5)
    func bombsWithinBudget(index: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (name, bytes) = try Self.bombs[index]
        let path = dir + "/bomb." + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let budget = ["--max-memory", "256M"]
        let commands = [["thumbnail", path, "--max-pixel-size", "64", "-o", dir + "/t.png"],
                        ["resize", path, "--size", "64x64", "-o", dir + "/r.png"],
                        ["resize", path, "--size", "64x64", "--rounded-corners", "4", "-o", dir + "/c.png"],
                        ["diff", path, path],
                        ["info", "--decode", path]]
        for command in commands {
            let run = try ImglabRun.run(command + budget)
            #expect([0, 1, 2].contains(run.status), "\(name) \(command[0]): exit \(run.status), \(run.stderr)")
            if run.status != 0 { #expect(!run.stderr.isEmpty, "\(name) \(command[0]): refused without a message") }
            // The budget plus the process's own baseline (code, libraries, corpus-free start-up).
            #expect(run.peakRSSMiB < 256 + 48, "\(name) \(command[0]): peak \(run.peakRSSMiB) MiB")
        }
    }

    /// The shapes and bombs a probe found breaking the budget, as (name, file bytes): rows of
    /// 2,000,000 and 16,000,000 RGB pixels, a column of 16,000,000 gray ones (real PNGs of
    /// constant colour, a few KB each), a TIFF whose header says 1 × 16,777,216 RGB with a few
    /// bytes of data, a 10000² GIF (LZW of one colour) and a 16000² run-length BMP (RLE8).
    static func extremeShapes() throws -> [(String, [UInt8])] {
        // Written here: libpng's writer refuses rows over 1,000,000 pixels.
        func png(_ width: Int, _ height: Int, _ format: PixelFormat) throws -> [UInt8] {
            let row = [0] + [UInt8](repeating: 90, count: format.minimumBytesPerRow(width: width))
            var filtered: [UInt8] = []
            filtered.reserveCapacity(row.count * height)
            for _ in 0..<height { filtered += row }
            let colourType: UInt8 = format.colorModel == .gray ? 0 : 2
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + HugeHeaders.pngChunk("IHDR", HugeHeaders.be32(width) + HugeHeaders.be32(height) + [8, colourType, 0, 0, 0])
                + HugeHeaders.pngChunk("IDAT", try #require(PNGZlib.deflate(filtered))) + HugeHeaders.pngChunk("IEND", [])
        }
        var entries: [Palette.Entry] = []
        for i in 0..<4 { entries.append(Palette.Entry(red: UInt8(i * 60), green: 40, blue: 200)) }
        let indexed = PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: 8)
        let gif = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 10_000, height: 10_000, format: indexed,
                                                                  bytes: [UInt8](repeating: 1, count: 100_000_000))), as: .gif)
        return [("wide-2m.png", try png(2_000_000, 1, .rgb8)), ("wide-16m.png", try png(16_000_000, 1, .rgb8)),
                ("tall-16m.png", try png(1, 16_000_000, .gray8)), ("lying.tif", HugeHeaders.tiff(width: 1, height: 16_777_216)),
                ("bomb.gif", gif), ("bomb-rle8.bmp", rle8BMP(side: 16_000))]
    }

    /// A `side²` 8-bit BMP compressed with RLE8: every row runs of 255 pixels of index 1, then an end of line.
    static func rle8BMP(side: Int) -> [UInt8] {
        var rows: [UInt8] = []
        for _ in 0..<side {
            var left = side
            while left > 0 { let n = min(255, left); rows += [UInt8(n), 1]; left -= n }
            rows += [0, 0]
        }
        rows += [0, 1]
        var palette: [UInt8] = []
        for i in 0..<256 { palette += [UInt8(i), UInt8(255 - i), 0, 0] }
        let info = HugeHeaders.le32(40) + HugeHeaders.le32(side) + HugeHeaders.le32(side) + HugeHeaders.le16(1) + HugeHeaders.le16(8)
            + HugeHeaders.le32(1) + HugeHeaders.le32(rows.count) + HugeHeaders.le32(2835) + HugeHeaders.le32(2835)
            + HugeHeaders.le32(256) + HugeHeaders.le32(0)
        let offset = 14 + 40 + palette.count
        return Array("BM".utf8) + HugeHeaders.le32(offset + rows.count) + HugeHeaders.le32(0) + HugeHeaders.le32(offset)
            + info + palette + rows
    }

    @Test("under --max-memory 64M, rows of 2,000,000 and 16,000,000 pixels, a 16,000,000-pixel column, a lying TIFF header and GIF/RLE-BMP bombs are thumbnailed and resized within 64 MiB or refused (exit 1, the budget named)")
    func extremeShapesWithinBudget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, bytes) in try Self.extremeShapes() {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let commands = [["thumbnail", path, "--max-pixel-size", "64", "-o", dir + "/t.png"],
                            ["resize", path, "--size", "100x100", "--mode", "fit", "-o", dir + "/r.png"]]
            for command in commands {
                let run = try ImglabRun.run(command + ["--max-memory", "64M"])
                #expect(run.status == 0 || (run.status == 1 && ["memory budget", "truncated", "malformed"].contains { run.stderr.contains($0) }),
                        "\(name) \(command[0]): exit \(run.status), \(run.stderr)")
                #expect(run.peakRSSMiB < 64, "\(name) \(command[0]): peak \(run.peakRSSMiB) MiB")
                if name == "wide-2m.png" {
                    // Small enough to be done, not refused: the longer side 64 (100 for the box), the other at least 1.
                    #expect(run.status == 0, "\(name) \(command[0]): \(run.stderr)")
                    let info = try ImglabRun.run(["info", command[command.count - 1]])
                    #expect(info.stdout.contains(command[0] == "thumbnail" ? "64×1" : "100×1"), "\(info.stdout)")
                }
            }
        }
    }

    @Test("with the default budget, the 10000² GIF and the 16000² RLE8 BMP are thumbnailed (decoded whole, resampled streaming), not refused")
    func bombsFitTheDefaultBudget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, bytes) in try Self.extremeShapes() where name.hasPrefix("bomb") {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let run = try ImglabRun.run(["thumbnail", path, "--max-pixel-size", "64", "-o", dir + "/t-\(name).png"])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            // The decoded image (one byte a pixel, and one for the GIF's mask) and a few rows: not the 3,242 MiB once estimated.
            #expect(run.peakRSSMiB < 700, "\(name): peak \(run.peakRSSMiB) MiB")
        }
    }

    @Test("a 12000×9000 RGBA PNG (108 megapixels) is thumbnailed to 800 and resized to 800×600 within BENCHMARKS.md's 64 MiB, streamed from the file")
    func bigImageWithinStatedMemory() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/big.png"
        // Written 500 rows at a time (a gradient with a diagonal pattern), never whole: 432 MB decoded.
        let (width, height) = (12_000, 9_000)
        let writer = try PNGRowWriter(width: width, height: height, format: .rgba8)
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        var band = [UInt8](repeating: 255, count: width * 500 * 4)
        for top in stride(from: 0, to: height, by: 500) {
            for y in 0..<500 {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    band[i] = UInt8(truncatingIfNeeded: x >> 5); band[i + 1] = UInt8(truncatingIfNeeded: (top + y) >> 5)
                    band[i + 2] = UInt8(truncatingIfNeeded: (x + top + y) & 0x3F)
                }
            }
            try handle.write(contentsOf: try writer.write(try Bitmap(width: width, height: 500, format: .rgba8, bytes: band)))
        }
        try handle.write(contentsOf: try writer.finish())
        for command in [["thumbnail", path, "--max-pixel-size", "800", "-o", dir + "/t.png"],
                        ["resize", path, "--size", "800x600", "-o", dir + "/r.png"]] {
            let run = try ImglabRun.run(command)
            #expect(run.status == 0, "\(command[0]): \(run.stderr)")
            #expect(run.peakRSSMiB < 64, "\(command[0]): peak \(run.peakRSSMiB) MiB")
        }
    }

    /// A 400 × 300 RGBA image as BMP, or (`interlaced`) as an Adam7 PNG, which is decoded whole
    /// (uncompressed BMP and plain PNG stream their rows from the file).
    static func image(_ path: String, seed: UInt8, interlaced: Bool = false) throws {
        var pixels = [UInt8](repeating: 0, count: 400 * 300 * 4)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i &* 7 &+ Int(seed)) }
        let image = Image(bitmap: try Bitmap(width: 400, height: 300, format: .rgba8, bytes: pixels))
        let bytes = interlaced ? try ImageCodecs.encode(image, as: .png, options: EncodeOptions(interlaced: true))
                               : try ImageCodecs.encode(image, as: .bmp)
        try ImageCodecs.writeAtomically(bytes, to: path)
    }

    @Test("diff of two 400×300 images needs more than 1 MiB: exit 2 naming the budget; with the default budget it compares")
    func diffOverBudget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.image(dir + "/a.bmp", seed: 0)
        try Self.image(dir + "/b.bmp", seed: 1)
        let tight = try ImglabRun.run(["diff", dir + "/a.bmp", dir + "/b.bmp", "--max-memory", "1M"])
        #expect(tight.status == 2)
        #expect(tight.stderr.contains("over the memory budget of 1 MiB; raise it with --max-memory"), "\(tight.stderr)")
        let roomy = try ImglabRun.run(["diff", dir + "/a.bmp", dir + "/b.bmp"])
        #expect(roomy.status == 1, "\(roomy.stderr)")
    }

    @Test("a whole-image resize that needs more than the budget is refused (exit 1) with the budget in the message, and nothing is written")
    func resizeOverBudget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.image(dir + "/a.png", seed: 0, interlaced: true)
        // 400×300 RGBA: 600,000 bytes decoded (with its mask), then a 200×150 result with its float rows (720,000): over 1 MiB.
        let run = try ImglabRun.run(["resize", dir + "/a.png", "--size", "200x150", "-o", dir + "/out.png", "--max-memory", "1M"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("memory budget exceeded"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test("--max-memory takes sizes with binary suffixes and refuses anything else (exit 2)",
          arguments: [("512K", false), ("0", false), ("2T", false), ("1.5G", false), ("lots", false), ("64M", true), ("1GiB", true), ("1073741824", true)])
    func sizes(text: String, accepted: Bool) throws {
        let run = try ImglabRun.run(["info", "--max-memory", text, RunCommandTests.corpus + "/sources/" + (try FileManager.default.contentsOfDirectory(atPath: RunCommandTests.corpus + "/sources").sorted()[0])])
        #expect((run.status != 2) == accepted, "\(text): \(run.stderr)")
    }
}
