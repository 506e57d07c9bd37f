import Testing
import ImageCore
@testable import ImageCodecs

/// Builds BMP files byte by byte, independently of the codec.
enum BMPBytes {
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((UInt32(bitPattern: Int32(truncatingIfNeeded: v)) >> (8 * UInt32($0))) & 0xFF) } }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// A file with a 40-byte (or larger, zero-filled past the masks) info header.
    static func file(width: Int, height: Int, bitCount: Int, compression: Int = 0, headerSize: Int = 40,
                     masks: [UInt32] = [], palette: [[UInt8]] = [], colorsUsed: Int? = nil, pixels: [UInt8]) -> [UInt8] {
        var dib: [UInt8] = le32(headerSize) + le32(width) + le32(height)
        dib += le16(1) + le16(bitCount) + le32(compression)
        dib += le32(pixels.count) + le32(2835) + le32(2835)
        dib += le32(colorsUsed ?? palette.count) + le32(0)
        let maskBytes = masks.flatMap { le32(Int(Int32(bitPattern: $0))) }
        dib += maskBytes
        if dib.count < headerSize { dib += [UInt8](repeating: 0, count: headerSize - dib.count) }
        let table: [UInt8] = palette.flatMap { e -> [UInt8] in [e[2], e[1], e[0], 0] }
        let offset = 14 + dib.count + table.count
        var out: [UInt8] = Array("BM".utf8) + le32(offset + pixels.count)
        out += le32(0) + le32(offset)
        return out + dib + table + pixels
    }
}

@Suite("BMP codec")
struct BMPCodecTests {
    static func rgba(_ b: Bitmap) -> [[UInt8]] {
        (0..<b.height).flatMap { y in
            let row = b.straightRGBARow(y)
            return (0..<b.width).map { x in (0..<4).map { UInt8((row[x * 4 + $0] * 255).rounded()) } }
        }
    }

    @Test("16-bit 565 fields are scaled exactly to 8 bits")
    func rgb565() throws {
        // Pixels: pure red, pure green, and R 16 / G 32 / B 1 (→ round(16·255/31) = 132, round(32·255/63) = 130, round(255/31) = 8).
        let words = [0xF800, 0x07E0, 16 << 11 | 32 << 5 | 1]
        let bytes = BMPBytes.file(width: 3, height: 1, bitCount: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F],
                                  pixels: words.flatMap(BMPBytes.le16) + [0, 0])
        let image = try BMPCodec.decode(bytes, options: DecodeOptions())
        #expect(image.format == .rgb8)
        #expect(image.bitmap.bytes == [255, 0, 0, 0, 255, 0, 132, 130, 8])
        #expect(image.metadata.storedBitDepth == 16)
    }

    @Test("32-bit BI_RGB is BGRX without alpha; V4 with an alpha mask is BGRA with alpha")
    func thirtyTwoBit() throws {
        let pixels: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]  // B G R A/X, bottom row only (height 1)
        let plain = try BMPCodec.decode(BMPBytes.file(width: 2, height: 1, bitCount: 32, pixels: pixels), options: DecodeOptions())
        #expect(plain.format == PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32))
        #expect(Self.rgba(plain.bitmap) == [[3, 2, 1, 255], [7, 6, 5, 255]])
        let v4 = BMPBytes.file(width: 2, height: 1, bitCount: 32, compression: 3, headerSize: 108,
                               masks: [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000], pixels: pixels)
        let alpha = try BMPCodec.decode(v4, options: DecodeOptions())
        #expect(alpha.format == PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32))
        #expect(Self.rgba(alpha.bitmap) == [[3, 2, 1, 4], [7, 6, 5, 8]])
    }

    @Test("RLE8 runs, literals, delta and end of line; skipped pixels are transparent")
    func runLength() throws {
        // 4×3, stored bottom-up. Bottom row: a run of 4 × index 1, end of line. Middle row: a literal
        // 2, 3, 1 (padded to an even length), end of line. Top row: a delta right by 2, one pixel of
        // index 2, end of bitmap; the top row's other three pixels are never written.
        let data: [UInt8] = [4, 1, 0, 0,  0, 3, 2, 3, 1, 0, 0, 0,  0, 2, 2, 0, 1, 2, 0, 1]
        let bytes = BMPBytes.file(width: 4, height: 3, bitCount: 8, compression: 1,
                                  palette: [[0, 0, 0], [10, 10, 10], [20, 20, 20], [30, 30, 30]], pixels: data)
        let image = try BMPCodec.decode(bytes, options: DecodeOptions())
        let c: [UInt8] = [0, 0, 0, 0], p1: [UInt8] = [10, 10, 10, 255], p2: [UInt8] = [20, 20, 20, 255], p3: [UInt8] = [30, 30, 30, 255]
        #expect(Self.rgba(image.bitmap) == [c, c, p2, c,  p2, p3, p1, c,  p1, p1, p1, p1])
        #expect(image.format.hasAlpha)
        let header = try BMPCodec.readHeader(bytes, options: DecodeOptions())
        #expect(header.format == image.format)
    }

    @Test("malformed headers give typed errors without large allocations", arguments: [
        ("100000 × 100000", BMPBytes.file(width: 100_000, height: 100_000, bitCount: 24, pixels: [0, 0, 0, 0])),
        ("bit count 30000", BMPBytes.file(width: 2, height: 2, bitCount: 30000, pixels: [0, 0, 0, 0])),
        ("palette of 2^32 − 2^24 entries", BMPBytes.file(width: 2, height: 2, bitCount: 8, palette: [[0, 0, 0]], colorsUsed: 0xFF00_0000, pixels: [0, 0, 0, 0, 0, 0, 0, 0])),
        ("negative width", BMPBytes.file(width: -5, height: 2, bitCount: 24, pixels: [0, 0, 0, 0])),
        ("pixels missing", BMPBytes.file(width: 40, height: 40, bitCount: 24, pixels: [0, 0, 0, 0])),
        ("BI_JPEG", BMPBytes.file(width: 2, height: 2, bitCount: 0, compression: 4, pixels: [0xFF, 0xD8, 0xFF, 0xD9])),
        ("overlapping masks", BMPBytes.file(width: 1, height: 1, bitCount: 16, compression: 3, masks: [0xF800, 0x0FE0, 0x001F], pixels: [0, 0, 0, 0])),
    ])
    func rejections(name: String, bytes: [UInt8]) throws {
        do {
            _ = try BMPCodec.decode(bytes, options: DecodeOptions())
            Issue.record("\(name) decoded")
        } catch {
            switch (name, error) {
            case ("100000 × 100000", .limitExceeded), ("BI_JPEG", .unsupported), ("pixels missing", .truncated): break
            case (_, .malformed) where !["100000 × 100000", "BI_JPEG", "pixels missing"].contains(name): break
            default: Issue.record("\(name): unexpected \(error)")
            }
        }
    }

    // MARK: Round trips

    static func bitmap(_ format: PixelFormat, width: Int = 11, height: Int = 7) throws -> Bitmap {
        var b = try Bitmap(width: width, height: height, format: format)
        for i in b.bytes.indices { b.bytes[i] = UInt8(truncatingIfNeeded: i * 37 + i / 5) }
        if case .indexed(let p) = format.colorModel, format.bitsPerComponent == 8 {
            for i in b.bytes.indices { b.bytes[i] = UInt8(Int(b.bytes[i]) % p.count) }
        }
        // Bits after the last pixel of a packed row are padding: keep them zero so bytes compare.
        let used = width * format.bitsPerPixel % 8
        if used != 0 {
            for y in 0..<height { b.bytes[y * b.bytesPerRow + b.bytesPerRow - 1] &= UInt8(0xFF << (8 - used) & 0xFF) }
        }
        return b
    }

    static func palette(_ count: Int) -> Palette {
        var entries: [Palette.Entry] = []
        for i in 0..<count {
            entries.append(Palette.Entry(red: UInt8(i * 3 % 256), green: UInt8(255 - i), blue: UInt8(i * 11 % 256)))
        }
        return Palette(entries)
    }

    /// Formats the encoder stores without any conversion, so decoding gives back the same bitmap.
    static let exactFormats: [PixelFormat] = [
        PixelFormat(colorModel: .indexed(palette(2)), bitsPerComponent: 1),
        PixelFormat(colorModel: .indexed(palette(16)), bitsPerComponent: 4),
        PixelFormat(colorModel: .indexed(palette(256)), bitsPerComponent: 8),
        PixelFormat(colorModel: .indexed(palette(100)), bitsPerComponent: 8),
        .rgb8,
        PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst, byteOrder: .little16),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32),
    ]

    @Test("exact formats round-trip to identical bitmaps, both row orders", arguments: exactFormats, [false, true])
    func exactRoundTrip(format: PixelFormat, topDown: Bool) throws {
        let source = try Self.bitmap(format)
        let bytes = try BMPCodec.encode(Image(bitmap: source), options: EncodeOptions(bmpTopDown: topDown))
        let decoded = try BMPCodec.decode(bytes, options: DecodeOptions())
        #expect(decoded.bitmap == source.tightlyPacked())
        #expect(decoded.metadata.properties["bmp.rowOrder"] == (topDown ? "top-down" : "bottom-up"))
        #expect(decoded.metadata.storedBitDepth == (format.bitsPerComponent == 5 ? 16 : format.bitsPerPixel))
    }

    @Test("converted formats keep their pixels", arguments: [
        PixelFormat.rgba8, .gray8, PixelFormat(colorModel: .gray, bitsPerComponent: 2),
        PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast),
    ])
    func convertedRoundTrip(format: PixelFormat) throws {
        let source = try Self.bitmap(format)
        let decoded = try BMPCodec.decode(BMPCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(Self.rgba(decoded.bitmap) == Self.rgba(source))
        #expect(decoded.format.hasAlpha == format.hasAlpha)
    }

    @Test("an ICC profile is embedded through a V5 header and read back")
    func iccRoundTrip() throws {
        let icc: [UInt8] = (0..<333).map { UInt8($0 % 256) }
        let source = try Self.bitmap(.rgb8)
        let image = Image(bitmap: source, metadata: ImageMetadata(iccProfile: icc))
        let decoded = try BMPCodec.decode(BMPCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.metadata.iccProfile == icc)
        #expect(decoded.bitmap == source)
        #expect(decoded.metadata.properties["bmp.header"]?.contains("V5") == true)
    }
}
