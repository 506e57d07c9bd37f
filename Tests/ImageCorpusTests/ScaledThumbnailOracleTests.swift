import Testing
import ImageCore
import ImageCodecs
@testable import ImageCorpus

/// The oracle of a JPEG thumbnail decoded at the contract's DCT scale averages each block in
/// gamma-encoded values, as libjpeg's scaled inverse DCT does; the full decode's oracle averages
/// in linear light. A one-pixel black and white checker tells them apart by arithmetic.
@Suite("Scaled thumbnail oracle")
struct ScaledThumbnailOracleTests {
    /// A 64 × 48 grey checker of one-pixel squares, 0 and 255, as a quality-100 4:4:4 JPEG.
    static func checkerJPEG() throws -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<48 { for x in 0..<64 { let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255; bytes += [v, v, v] } }
        let bitmap = try Bitmap(width: 64, height: 48, format: .rgb8, bytes: bytes)
        return try ImageCodecs.encode(Image(bitmap: bitmap), as: .jpeg, options: EncodeOptions(jpegQuality: 100, jpegSubsampling: .s444))
    }

    /// The mean of the colour samples (alpha left out), in 8-bit code values.
    static func mean(_ image: Image) -> Double {
        let b = image.bitmap, bytesPerSample = b.format.bitsPerComponent / 8, slots = b.format.slotCount
        var sum = 0.0, count = 0
        for (i, start) in stride(from: 0, to: b.bytes.count, by: bytesPerSample).enumerated() where i % slots < 3 {
            sum += bytesPerSample == 2 ? Double(UInt16(b.bytes[start]) << 8 | UInt16(b.bytes[start + 1])) / 257 : Double(b.bytes[start])
            count += 1
        }
        return sum / Double(count)
    }

    @Test("at 1/2 the checker is the encoded mean, 127.5; the full decode's box oracle is the linear mean, sRGB 0.5 = 187.5")
    func encodedAgainstLinearMean() throws {
        let file = try Self.checkerJPEG()
        let placement = try OracleGeometry.placement(of: .maxPixelSize(32), width: 64, height: 48)
        #expect((placement.width, placement.height) == (32, 24))
        let scaled = try #require(try ScaledThumbnailOracle.render(file: file, operation: .maxPixelSize(32), placement: placement))
        #expect(scaled.denominator == 2)
        #expect(abs(Self.mean(scaled.image) - 127.5) <= 3, "mean \(Self.mean(scaled.image))")
        let full = try KernelOracle.render(source: try ImageCodecs.decode(file), placement: placement, kernel: .box)
        let fullMean = Self.mean(Image(bitmap: full.bitmap16()))
        #expect(abs(fullMean - 187.5) <= 3, "mean \(fullMean)")
    }

    @Test("no contract scale: a thumbnail that needs the full decode, and a file that is not a JPEG")
    func noScaleNoOracle() throws {
        let file = try Self.checkerJPEG()
        // 48 of 64 pixels: ceil(64/2) = 32 < 48, so only the full decode leaves the output's pixels.
        let placement = try OracleGeometry.placement(of: .maxPixelSize(48), width: 64, height: 48)
        #expect(try ScaledThumbnailOracle.render(file: file, operation: .maxPixelSize(48), placement: placement) == nil)
        let png = try ImageCodecs.encode(try ImageCodecs.decode(file), as: .png)
        let half = try OracleGeometry.placement(of: .maxPixelSize(32), width: 64, height: 48)
        #expect(try ScaledThumbnailOracle.render(file: png, operation: .maxPixelSize(32), placement: half) == nil)
    }
}
