import Foundation
import Testing
import ImageCore
import ImageCodecs

/// `imglab resize` and `imglab thumbnail` end to end: files in, files out.
@Suite("resize and thumbnail commands")
struct ResizeCommandTests {
    static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imglab-\(UUID().uuidString).\(ext)").path
    }

    /// A 60×40 RGB gradient stored with orientation 6 (displayed 40×60), as a JPEG or PNG file.
    static func writeInput(_ container: ContainerFormat) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<40 { for x in 0..<60 { bytes += [UInt8(x * 4), UInt8(y * 6), 100] } }
        let image = Image(bitmap: try Bitmap(width: 60, height: 40, format: .rgb8, bytes: bytes), orientation: .right)
        let path = temporaryPath(container.fileExtension)
        try Data(try ImageCodecs.encode(image, as: container)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("resize --mode aspectFit writes an upright image of the rule's size")
    func resizeAspectFit() throws {
        let input = try Self.writeInput(.png), output = Self.temporaryPath("png")
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
        let run = try ImglabRun.run(["resize", input, "--size", "30x30", "--mode", "aspectFit", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try ImageCodecs.decode(contentsOf: output)
        // Displayed 40×60 fits 30×30 as 20×30 (exact), orientation baked in.
        #expect((out.width, out.height) == (20, 30))
        #expect(out.orientation == .up)
    }

    @Test("--border, --corner-radius and the modes stretch, fit, fill, fill-no-crop write the same files as --transparent-border, --rounded-corners, scaleToFill, aspectFit, aspectFill, aspectFillWithoutCrop")
    func otherSpellings() throws {
        let input = try Self.writeInput(.png)
        defer { try? FileManager.default.removeItem(atPath: input) }
        // Displayed 40×60: a 30×30 box stretched 30×30, fitted 20×30, filled 30×30, covered 30×45;
        // a 2-pixel border on the upright image 44×64.
        let cases: [(current: [String], other: [String], size: (Int, Int))] = [
            (["--size", "30x30", "--mode", "scaleToFill"], ["--size", "30x30", "--mode", "stretch"], (30, 30)),
            (["--size", "30x30", "--mode", "aspectFit"], ["--size", "30x30", "--mode", "fit"], (20, 30)),
            (["--size", "30x30", "--mode", "aspectFill"], ["--size", "30x30", "--mode", "fill"], (30, 30)),
            (["--size", "30x30", "--mode", "aspectFillWithoutCrop"], ["--size", "30x30", "--mode", "fill-no-crop"], (30, 45)),
            (["--transparent-border", "2", "--rounded-corners", "3"], ["--border", "2", "--corner-radius", "3"], (44, 64)),
        ]
        for c in cases {
            let current = Self.temporaryPath("png"), other = Self.temporaryPath("png")
            defer { [current, other].forEach { try? FileManager.default.removeItem(atPath: $0) } }
            let a = try ImglabRun.run(["resize", input] + c.current + ["-o", current])
            let b = try ImglabRun.run(["resize", input] + c.other + ["-o", other])
            #expect(a.status == 0 && b.status == 0, "\(c.current): \(a.stderr)\(b.stderr)")
            let out = try ImageCodecs.decode(contentsOf: current)
            #expect((out.width, out.height) == c.size, "\(c.current)")
            #expect(FileManager.default.contents(atPath: current) == FileManager.default.contents(atPath: other), "\(c.current) vs \(c.other)")
        }
    }

    @Test("thumbnail --max-pixel-size bounds the longer side and never enlarges")
    func thumbnail() throws {
        let input = try Self.writeInput(.jpeg), small = Self.temporaryPath("jpg"), same = Self.temporaryPath("jpg")
        defer { [input, small, same].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        #expect(try ImglabRun.run(["thumbnail", input, "--max-pixel-size", "16", "-o", small]).status == 0)
        let out = try ImageCodecs.decode(contentsOf: small)
        // Displayed 40×60 → longer side 16: 11×16 (40·16/60 = 10.67 → 11).
        #expect((out.width, out.height) == (11, 16))
        #expect(try ImglabRun.run(["thumbnail", input, "--max-pixel-size", "500", "-o", same]).status == 0)
        let unchanged = try ImageCodecs.decode(contentsOf: same)
        #expect((unchanged.width, unchanged.height) == (40, 60))
    }

    @Test("usage errors name the problem: bad size, unknown mode, missing output")
    func usageErrors() throws {
        let input = try Self.writeInput(.png)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let badSize = try ImglabRun.run(["resize", input, "--size", "0x5", "-o", Self.temporaryPath("png")])
        #expect(badSize.status == 2 && badSize.stderr.contains("--size needs WxH"))
        let badMode = try ImglabRun.run(["resize", input, "--size", "5x5", "--mode", "zoom", "-o", Self.temporaryPath("png")])
        #expect(badMode.status == 2 && badMode.stderr.contains("--mode must be scaleToFill, aspectFit, aspectFill or aspectFillWithoutCrop, not 'zoom'"))
        let noOutput = try ImglabRun.run(["resize", input, "--size", "5x5"])
        #expect(noOutput.status == 2 && noOutput.stderr.contains("--output FILE is required"))
        let noSize = try ImglabRun.run(["thumbnail", input, "-o", Self.temporaryPath("png")])
        #expect(noSize.status == 2 && noSize.stderr.contains("--max-pixel-size N is required"))
    }

    @Test("an animated GIF stays animated with its frame count, delays and loop count")
    func animated() throws {
        let palette = Palette([.init(red: 255, green: 0, blue: 0), .init(red: 0, green: 0, blue: 255)])
        let format = PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8)
        var frames: [AnimationFrame] = []
        for i in 0..<3 {
            let canvas = try Bitmap(width: 8, height: 8, format: format, bytes: [UInt8](repeating: UInt8(i % 2), count: 64))
            frames.append(AnimationFrame(canvas: canvas, delay: 0.1 * Double(i + 1), region: PixelRect(x: 0, y: 0, width: 8, height: 8)))
        }
        let image = Image(bitmap: frames[0].canvas, animation: Animation(loopCount: 3, frames: frames))
        let input = Self.temporaryPath("gif"), output = Self.temporaryPath("gif")
        defer { [input, output].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try Data(try ImageCodecs.encode(image, as: .gif)).write(to: URL(fileURLWithPath: input))
        let run = try ImglabRun.run(["resize", input, "--size", "4x4", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try ImageCodecs.decode(contentsOf: output)
        #expect(out.frameCount == 3)
        #expect(out.animation?.loopCount == 3)
        #expect(out.animation?.frames.map(\.delay) == [0.1, 0.2, 0.3])
        #expect((out.width, out.height) == (4, 4))
    }
}

@Suite("resize command operations")
struct ResizeCommandOperationTests {
    @Test("--from-rect scales a fractional rectangle to the size; --add-alpha adds an opaque alpha channel")
    func fromRectAndAlpha() throws {
        let input = try ResizeCommandTests.writeInput(.png)
        let a = ResizeCommandTests.temporaryPath("png"), b = ResizeCommandTests.temporaryPath("png")
        defer { [input, a, b].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let run = try ImglabRun.run(["resize", input, "--from-rect", "2.5,3,10,20.5", "--size", "7x9", "-o", a])
        #expect(run.status == 0, "\(run.stderr)")
        let scaled = try ImageCodecs.decode(contentsOf: a)
        #expect((scaled.width, scaled.height) == (7, 9))
        #expect(try ImglabRun.run(["resize", input, "--add-alpha", "-o", b]).status == 0)
        let withAlpha = try ImageCodecs.decode(contentsOf: b)
        #expect(withAlpha.format.alphaInfo.hasAlpha)
        // Upright (orientation 6 applied: 40×60) and fully opaque.
        #expect((withAlpha.width, withAlpha.height) == (40, 60))
        #expect((0..<withAlpha.height).allSatisfy { y in withAlpha.bitmap.straightRGBARow(y).enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 1 } })
    }
}
