import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// Streamed resizes into formats with an unused padding slot write every pixel in place and
/// the padding as fully set. The padding's offset once assumed four RGB slots: a gray format
/// with padding had it written past its pixel, into the next one and past the row's end
/// (AddressSanitizer, `imglab fuzz --pipeline thumbnail`).
@Suite("padded output formats")
struct PaddedOutputTests {
    static let formats: [PixelFormat] = [
        PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .noneSkipLast),
        PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .noneSkipFirst),
        PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .noneSkipLast),
        PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .noneSkipFirst),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .noneSkipLast),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .noneSkipFirst),
    ]

    @Test("the streamed result equals the exact resample converted by ImageCore, padding set", arguments: formats)
    func streamedEqualsExact(format: PixelFormat) throws {
        var bytes = [UInt8](repeating: 0, count: 24 * 10 * 4)
        for i in 0..<(24 * 10) { bytes[4 * i] = UInt8(i % 24 * 10); bytes[4 * i + 1] = UInt8(i / 24 * 25); bytes[4 * i + 2] = UInt8(i % 7 * 30); bytes[4 * i + 3] = 255 }
        let source = try Bitmap(width: 24, height: 10, format: .rgba8, bytes: bytes)
        let streamed = try StreamingResample.resample(BitmapRowReader(source), width: 9, height: 4, kernel: .lanczos3, lightSpace: .linear, format: format)
        let exact = try Resample.resample(WorkingImage(source, lightSpace: .linear), width: 9, height: 4, kernel: .lanczos3).bitmap(format: format)
        #expect(streamed.format == exact.format)
        // Codes may differ by one where the table-based and the exact paths round a tie apart.
        let differences = zip(streamed.bytes, exact.bytes).map { abs(Int($0) - Int($1)) }
        #expect(streamed.bytes.count == exact.bytes.count)
        #expect(differences.allSatisfy { $0 <= 1 }, "\(format): largest difference \(differences.max() ?? 0)")
        // Every padding slot holds all ones.
        let layout = try #require(ComponentLayout(format))
        let skip = try #require(layout.skip)
        let width = format.bitsPerComponent / 8
        for y in 0..<streamed.height {
            for x in 0..<streamed.width {
                let at = y * streamed.bytesPerRow + x * layout.pixelBytes + skip
                #expect(streamed.bytes[at..<(at + width)].allSatisfy { $0 == 255 }, "\(format) pixel (\(x), \(y))")
            }
        }
    }
}
