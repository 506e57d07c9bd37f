import Testing
import ImageCore
import ImageCodecs
@testable import ImageCorpus

/// The oracle of a JPEG or WebP thumbnail decoded at the contract's scale averages each block in
/// gamma-encoded values, as libjpeg's scaled inverse DCT and libwebp's rescaler do; the full
/// decode's oracle averages in linear light. A one-pixel black and white checker tells them apart
/// by arithmetic.
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

    @Test("a still WebP: the checker at 1/2 is libwebp's encoded mean, 127.5, against the full decode's 187.5",
          .enabled(if: WebPCodec.availability.available, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func webpEncodedMean() throws {
        let file = try ImageCodecs.encode(try ImageCodecs.decode(try Self.checkerJPEG()), as: .webp)
        let placement = try OracleGeometry.placement(of: .maxPixelSize(32), width: 64, height: 48)
        let scaled = try #require(try ScaledThumbnailOracle.render(file: file, operation: .maxPixelSize(32), placement: placement))
        #expect(scaled.denominator == 2)
        #expect(abs(Self.mean(scaled.image) - 127.5) <= 3, "mean \(Self.mean(scaled.image))")
    }

    @Test("libwebp maps the whole picture onto its ⌈size/2⌉ pixels: a 65 × 49 thumbnail to 30 × 23 is the area average onto 33 × 25 and then onto 30 × 23, within 1 code",
          .enabled(if: WebPCodec.availability.available, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func webpWholePictureMapping() throws {
        // A steep vertical ramp with a white band from column 60: mapping 32.5 × 24.5 of the scaled
        // pixels instead of all 33 × 25 moves the band's edge and the ramp by half a pixel.
        func sample(_ x: Int, _ y: Int) -> Double { x >= 60 ? 255 : Double(y * 5) }
        var bytes: [UInt8] = []
        for y in 0..<49 { for x in 0..<65 { let v = UInt8(sample(x, y)); bytes += [v, v, v] } }
        let file = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 65, height: 49, format: .rgb8, bytes: bytes)), as: .webp)
        let placement = try OracleGeometry.placement(of: .maxPixelSize(30), width: 65, height: 49)
        #expect((placement.width, placement.height) == (30, 23))
        let scaled = try #require(try ScaledThumbnailOracle.render(file: file, operation: .maxPixelSize(30), placement: placement,
                                                                   design: KernelOracle.Design(kernel: .area, lightSpace: .srgb)))
        #expect(scaled.denominator == 2)
        // libwebp's rescaler (the area average onto 33 × 25), then the oracle's area average onto 30 × 23.
        let decoded = Self.areaAverage(65, 49, onto: 33, 25, sample)
        let expected = Self.areaAverage(33, 25, onto: 30, 23) { decoded[$1][$0] }
        let b = scaled.image.bitmap
        #expect((b.width, b.height) == (30, 23))
        var worst = 0.0
        for y in 0..<23 {
            for x in 0..<30 {
                let p = y * b.bytesPerRow + x * b.format.slotCount * 2
                worst = max(worst, abs(Double(UInt16(b.bytes[p]) << 8 | UInt16(b.bytes[p + 1])) / 257 - expected[y][x]))
            }
        }
        #expect(worst <= 1, "worst \(worst) codes")
    }

    /// The area average of a `w × h` picture onto `m × n` cells covering it all: cell `j` spans
    /// `[j·w/m, (j+1)·w/m)` across (likewise down), each sample weighted by its overlap. Rows of cells.
    static func areaAverage(_ w: Int, _ h: Int, onto m: Int, _ n: Int, _ sample: (Int, Int) -> Double) -> [[Double]] {
        func weights(_ count: Int, _ cells: Int) -> [[Double]] {
            let cell = Double(count) / Double(cells)
            return (0..<cells).map { j -> [Double] in
                let low = Double(j) * cell, high = Double(j + 1) * cell
                return (0..<count).map { k -> Double in max(0, min(high, Double(k + 1)) - max(low, Double(k))) / cell }
            }
        }
        let across = weights(w, m), down = weights(h, n)
        return (0..<n).map { y -> [Double] in
            (0..<m).map { x -> Double in
                var total = 0.0
                for k in 0..<h where down[y][k] > 0 { for c in 0..<w where across[x][c] > 0 { total += down[y][k] * across[x][c] * sample(c, k) } }
                return total
            }
        }
    }
}
