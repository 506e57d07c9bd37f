import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// `FileResizeRequest`, the one entry of `imglab resize` and `imglab thumbnail`: points to
/// pixels once, streamed and decoded routes alike, finishing steps, typed failures.
@Suite("File resize request")
struct FileResizeRequestTests {
    /// A 60×40 RGB PNG stored with orientation 6, so it is displayed 40×60.
    /// (In a folder of this test process, removed when it exits: the tests share it.)
    static let input: String = {
        var bytes: [UInt8] = []
        for y in 0..<40 { for x in 0..<60 { bytes += [UInt8(x * 4), UInt8(y * 6), 100] } }
        let folder = scratchFolder()
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FileResizeRequestTests.scratchFolder()) }
        let path = folder + "/input.png"
        do {
            let image = Image(bitmap: try Bitmap(width: 60, height: 40, format: .rgb8, bytes: bytes), orientation: .right)
            try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: .png), to: path)
        } catch { Issue.record("cannot write the input: \(error)") }
        return path
    }()

    static func scratchFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imglab-resize-request-\(getpid())").path
    }

    static func request(_ size: FileResizeRequest.Size, scale: Double = 1) -> FileResizeRequest {
        FileResizeRequest(input: input, output: "/dev/null", container: .png, size: size, scale: scale)
    }

    @Test("a box in points at scale 2 is a box of twice the pixels; the result is upright and records the scale")
    func pointsToPixels() throws {
        // Displayed 40×60 fitted in 15×15 pt at @2x = 30×30 px: 20×30 (exact).
        let image = try Self.request(.box(width: 15, height: 15, contentMode: .aspectFit), scale: 2).resized()
        #expect((image.width, image.height) == (20, 30))
        #expect(image.orientation == .up && image.metadata.scale == 2)
        // 7.25 pt at @2x = 14.5 px, rounded half up to 15.
        let half = try Self.request(.box(width: 7.25, height: 7.25, contentMode: .scaleToFill), scale: 2).resized()
        #expect((half.width, half.height) == (15, 15))
    }

    @Test("a square fill with a border and rounded corners rounds once: the same pixels as the library's squareThumbnail")
    func borderedFillRoundsOnce() throws {
        // Straight RGBA with alpha falling from 255 to 15 across the width, over varied colour.
        var bytes: [UInt8] = []
        for y in 0..<40 { for x in 0..<60 { bytes += [UInt8(x * 4), UInt8(y * 6), 100, UInt8(255 - x * 4)] } }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("resize-request-\(UUID().uuidString).png").path
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 60, height: 40, format: .rgba8, bytes: bytes)), as: .png), to: input)
        defer { try? FileManager.default.removeItem(atPath: input) }
        var request = FileResizeRequest(input: input, output: "/dev/null", container: .png, size: .box(width: 24, height: 24, contentMode: .aspectFill()))
        request.border = 2
        request.cornerRadius = 6
        let file = try request.resized()
        var options = ResizeOptions()
        options.straightAlpha = true
        let library = try ImageCodecs.decode(contentsOf: input).squareThumbnail(size: 24, border: 2, cornerRadius: 6, options: options)
        #expect((file.width, file.height) == (28, 28))
        #expect(file.bitmap.format == library.bitmap.format && file.bitmap.bytes == library.bitmap.bytes)
    }

    @Test("the streamed box gives the pixels of the decoded image resized by the library")
    func streamedEqualsDecoded() throws {
        let streamed = try Self.request(.box(width: 13, height: 9, contentMode: .aspectFill()), scale: 1.5).resized()
        let decoded = try ImageCodecs.decode(contentsOf: Self.input)
            .resized(pointWidth: 13, pointHeight: 9, scale: 1.5, contentMode: .aspectFill(), options: ResizeOptions(straightAlpha: true))
        #expect((streamed.width, streamed.height) == (20, 14))
        #expect(streamed.bitmap.bytes == decoded.bitmap.bytes)
    }

    @Test("a thumbnail's longer side is the limit; a rectangle goes to a box in points")
    func thumbnailAndRectangle() throws {
        // Displayed 40×60 → longer side 16: 40·16/60 = 10.67 → 11.
        let thumb = try Self.request(.maxPixelSize(16)).resized()
        #expect((thumb.width, thumb.height) == (11, 16))
        let rect = try Self.request(.rect(Rect(x: 0, y: 0, width: 20, height: 30), width: 5, height: 4), scale: 2).resized()
        #expect((rect.width, rect.height) == (10, 8))
        #expect(rect.metadata.scale == 2)
    }

    @Test("a border and rounded corners in points: the output grows by the border and its corner is transparent")
    func finishing() throws {
        var request = Self.request(.box(width: 10, height: 10, contentMode: .scaleToFill), scale: 2)
        request.border = 2
        request.cornerRadius = 3
        let image = try request.resized()
        #expect((image.width, image.height) == (24, 24))
        #expect(image.bitmap.straightRGBARow(0)[3] == 0)
        #expect(image.bitmap.straightRGBARow(12)[12 * 4 + 3] == 1)
    }

    @Test("writing: the file decodes to the result; a missing input, an unwritable output and an impossible size are typed errors")
    func writeAndFailures() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("resize-request-out-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var request = Self.request(.box(width: 8, height: 8, contentMode: .aspectFit))
        request.output = output
        try request.write()
        let written = try ImageCodecs.decode(contentsOf: output)
        #expect((written.width, written.height) == (5, 8))
        var missing = request
        missing.input = "/nonexistent/in.png"
        #expect { try missing.write() } throws: { error in
            guard case FileResizeError.read(let path, _) = error else { return false }
            return path == "/nonexistent/in.png"
        }
        var unwritable = request
        unwritable.output = "/nonexistent/folder/out.png"
        #expect { try unwritable.write() } throws: { error in
            guard case FileResizeError.write(let path, _) = error else { return false }
            return path == "/nonexistent/folder/out.png"
        }
        #expect(throws: FileResizeError.self) { try Self.request(.box(width: 1e300, height: 1, contentMode: .scaleToFill)).resized() }
        var bordered = Self.request(.box(width: 1e300, height: 1, contentMode: .scaleToFill))
        bordered.border = 1
        #expect(throws: FileResizeError.self) { try bordered.resized() }
    }
}
