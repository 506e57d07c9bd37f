import Testing
import ImageCore
@testable import ImageCodecs

/// Issue 20: limits bound memory, not shapes. Any side PNG and TIFF can store (2³¹ − 1) is
/// allowed by default; pixels and bytes stay bounded; run-length data must write a share of
/// the image (``DecodeLimits/minimumRunLengthCoverage``).
@Suite("Memory-bound limits")
struct MemoryBoundLimitTests {
    @Test("a 1 × 65 537 bilevel TIFF decodes with the default limits (65 537 pixels, 65 537 bytes)")
    func tallBilevelTIFF() throws {
        let height = 65_537
        // Row y holds one bit, 1 when y is odd (MinIsBlack: white), so the bytes are 0x00, 0x80, …
        let rows = (0..<height).map { UInt8($0 % 2 == 1 ? 0x80 : 0x00) }
        let file = HandMadeTIFF.file(HandMadeTIFF.fields(width: 1, height: UInt32(height), bits: [1], photometric: 1), strip: rows)
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.width == 1 && image.height == height)
        #expect(image.bitmap.bytes == rows)
        #expect(try TIFFCodec.readHeader(file, options: DecodeOptions()).height == height)
    }

    @Test("a 70 000 × 1 PNG decodes with the default limits; the side limit applies only when asked for")
    func widePNG() throws {
        let width = 70_000
        let bitmap = Bitmap(uncheckedWidth: width, height: 1, format: .gray8, bytesPerRow: width,
                            bytes: (0..<width).map { UInt8($0 % 251) })
        let file = try PNGCodec.encode(Image(bitmap: bitmap), options: EncodeOptions())
        let image = try PNGCodec.decode(file, options: DecodeOptions())
        #expect(image.bitmap == bitmap)
        #expect(throws: DecodeError.limitExceeded(.dimension, requested: width, allowed: 65_535)) {
            try PNGCodec.decode(file, options: DecodeOptions(limits: DecodeLimits(maxDimension: 65_535)))
        }
    }

    @Test("the default side limit is 2³¹ − 1; pixels stay at 16383²")
    func defaults() {
        #expect(DecodeLimits.default.maxDimension == 2_147_483_647)
        #expect(DecodeLimits.default.maxPixels == 16_383 * 16_383)
        #expect(DecodeLimits.default.minimumRunLengthCoverage == 0.1)
    }

    /// A `width` × `height` RLE8 BMP whose first `rows` rows (from the bottom) are one run of
    /// index 1, then end of bitmap: it writes `rows × width` pixels.
    static func rle8(width: Int, height: Int, rows: Int) -> [UInt8] {
        var data: [UInt8] = []
        for _ in 0..<rows { data += [UInt8(width), 1, 0, 0] }
        data += [0, 1]
        return BMPBytes.file(width: width, height: height, bitCount: 8, compression: 1,
                             palette: [[0, 0, 0], [255, 255, 255]], pixels: data)
    }

    @Test("run-length data writing under a tenth of the image is refused as truncated; a tenth is enough")
    func runLengthCoverage() throws {
        // 100 × 100 = 10 000 pixels; 9 rows write 900 (9 %), 10 rows 1 000 (10 %).
        let short = Self.rle8(width: 100, height: 100, rows: 9)
        let error = try #require(throws: DecodeError.self) { try BMPCodec.decode(short, options: DecodeOptions()) }
        guard case .truncated(.bmp, let reason, _) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("900 of 100×100 = 10000 pixels"))
        #expect(throws: DecodeError.self) { try BMPCodec.readHeader(short, options: DecodeOptions()) }
        let tenth = try BMPCodec.decode(Self.rle8(width: 100, height: 100, rows: 10), options: DecodeOptions())
        #expect(tenth.width == 100 && tenth.height == 100)
    }

    @Test("the run-length share is configurable: 1 % accepts 100 of 10 000 pixels, 1.01 % does not")
    func runLengthCoverageConfigurable() throws {
        let file = Self.rle8(width: 100, height: 100, rows: 1)
        var limits = DecodeLimits()
        limits.minimumRunLengthCoverage = 0.01
        let image = try BMPCodec.decode(file, options: DecodeOptions(limits: limits))
        // Row 0 from the bottom is the image's last row; skipped pixels get the added transparent entry.
        #expect(image.width == 100 && image.height == 100)
        limits.minimumRunLengthCoverage = 0.0101
        #expect(throws: DecodeError.self) { try BMPCodec.decode(file, options: DecodeOptions(limits: limits)) }
    }

    @Test("the issue's bomb: an RLE4 BMP of a few hundred bytes declaring 2554 × 18803 is refused before allocating")
    func runLengthBomb() throws {
        // 4 runs of 255 pixels on the bottom row, then end of bitmap: 1 020 of 48 022 862 pixels.
        let data: [UInt8] = [255, 0x12, 255, 0x12, 255, 0x12, 255, 0x12, 0, 1]
        let file = BMPBytes.file(width: 2554, height: 18803, bitCount: 4, compression: 2,
                                 palette: (0..<16).map { [UInt8($0 * 16), 0, 0] }, pixels: data)
        #expect(file.count < 253)
        var limits = DecodeLimits()
        limits.maxBytes = 1 << 20  // a decode that allocated the 24 MB of indices would fail on this instead
        let error = try #require(throws: DecodeError.self) { try BMPCodec.decode(file, options: DecodeOptions(limits: limits)) }
        guard case .truncated(.bmp, let reason, _) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("writes 1020 of 2554×18803 = 48022862 pixels"))
    }
}

/// Issue 20: a DIB without its 14-byte file header (CF_DIB, `.dib`) is recognised by its
/// header-size field and read as the BMP it came from.
@Suite("Headerless DIB")
struct HeaderlessDIBTests {
    @Test("every good bmpsuite file without its file header decodes to the same pixels", SharedData.needsCorpus,
          arguments: Manifest.inputs.filter { $0.path.hasPrefix("bmpsuite/g/") }.map(\.path))
    func bmpsuiteWithoutFileHeader(path: String) throws {
        let file = try #require(Manifest.bytes(path))
        let dib = Array(file.dropFirst(14))
        #expect(ContainerFormat(sniffing: dib) == .bmp)
        let whole = try ImageCodecs.decode(file)
        let headerless = try ImageCodecs.decode(dib)
        #expect(headerless.bitmap == whole.bitmap)
        #expect(try ImageCodecs.readHeader(dib).format == whole.format)
    }

    @Test("hand-made DIBs: 24-bit, 8-bit palette with biClrUsed, 16-bit BI_BITFIELDS masks", arguments: [
        BMPBytes.file(width: 2, height: 2, bitCount: 24, pixels: [1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0]),
        BMPBytes.file(width: 3, height: 1, bitCount: 8, palette: [[10, 20, 30], [40, 50, 60], [70, 80, 90]],
                      colorsUsed: 3, pixels: [2, 1, 0, 0]),
        BMPBytes.file(width: 2, height: 1, bitCount: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
                      pixels: [0x00, 0xF8, 0xE0, 0x07]),
    ])
    func handMade(file: [UInt8]) throws {
        let dib = Array(file.dropFirst(14))
        #expect(try ImageCodecs.decode(dib).bitmap == ImageCodecs.decode(file).bitmap)
    }

    @Test("text and other headers are not taken for a DIB", arguments: [
        Array("hello world, this is text".utf8),
        [40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 8, 0, 0, 0, 0, 0] as [UInt8],   // 2 planes
        [40, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0] as [UInt8],   // width 0
        [40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0] as [UInt8],   // 7 bits
        [40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 9, 0, 0, 0] as [UInt8],   // compression 9
        [41, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0] as [UInt8],   // size 41
    ])
    func notADIB(bytes: [UInt8]) {
        #expect(ContainerFormat(sniffing: bytes) == nil)
    }
}
