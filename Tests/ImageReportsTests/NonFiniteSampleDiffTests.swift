import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics

/// `imglab diff` of a float TIFF holding NaN, ±∞, −0, a subnormal, 1.5 and −0.5 against the
/// 8-bit PNG of the codes those samples stand for (NaN → 0, +∞ → 255, −∞ → 0, the rest
/// clamped to 0…1 and rounded half up): no trap, no difference, the report written.
@Suite("Non-finite float samples in a diff")
struct NonFiniteSampleDiffTests {
    /// Column k of the image holds special k in every colour component.
    static let specials: [(value: Float, code: UInt8)] = [
        (.nan, 0), (.infinity, 255), (-.infinity, 0), (-0.0, 0), (.leastNonzeroMagnitude, 0), (1.5, 255), (-0.5, 0),
    ]

    static let layouts: [PixelFormat] = [
        PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true),
        .rgbaFloat,
        PixelFormat(colorModel: .rgb, bitsPerComponent: 32, alphaInfo: .premultipliedLast, isFloat: true),
    ]

    @Test("a float TIFF of special samples equals the PNG of their codes (exact.max <= 0), with a report", arguments: layouts)
    func specialsEqualTheirCodes(format: PixelFormat) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nonfinite-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let width = Self.specials.count, height = 3
        var floats: [UInt8] = [], codes: [UInt8] = []
        for _ in 0..<height {
            for special in Self.specials {
                for s in 0..<format.slotCount {
                    let v: Float = format.alphaInfo.hasAlpha && s == format.slotCount - 1 ? 1 : special.value
                    withUnsafeBytes(of: v.bitPattern.littleEndian) { floats += $0 }
                }
                codes += [special.code, special.code, special.code]
            }
        }
        let tiff = dir.appendingPathComponent("special.tiff").path, png = dir.appendingPathComponent("codes.png").path
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: width, height: height, format: format, bytes: floats)), as: .tiff), to: tiff)
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: width, height: height, format: .rgb8, bytes: codes)), as: .png), to: png)
        let report = dir.appendingPathComponent("report/index.html").path
        let outcome = try FileDiff(expected: png, actual: tiff, gate: try GateExpression("exact.max <= 0"),
                                   reportFolder: dir.appendingPathComponent("report").path).run()
        #expect(outcome.problem == nil)
        #expect(outcome.exitStatus == 0, "\(outcome.screen)")
        #expect(FileManager.default.fileExists(atPath: report))
    }
}
