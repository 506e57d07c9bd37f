import Testing
import ImageCore
@testable import ImageCodecs

/// Encoder round trips: every format the PNG encoder writes, built by arithmetic, must come
/// back with identical pixels and metadata.
@Suite("PNG round trip")
struct PNGRoundTripTests {
    /// A storable format and a name for the test report.
    struct Case: CustomTestStringConvertible, Sendable {
        var format: PixelFormat
        var testDescription: String { format.description }
    }

    /// A palette of `count` entries whose alphas fall (255, 170, 85, 0, 255…) so tRNS is written.
    static func palette(_ count: Int) -> Palette {
        let alphas: [UInt8] = [255, 170, 85, 0]
        var entries: [Palette.Entry] = []
        for i in 0..<count {
            let red = UInt8((i * 37) % 256), green = UInt8((i * 91 + 7) % 256), blue = UInt8(255 - i % 256)
            entries.append(Palette.Entry(red: red, green: green, blue: blue, alpha: alphas[i % 4]))
        }
        return Palette(entries)
    }

    static let cases: [Case] = {
        var formats: [PixelFormat] = [1, 2, 4, 8, 16].map { PixelFormat(colorModel: .gray, bitsPerComponent: $0) }
        formats += [PixelFormat.grayAlpha8, .grayAlpha16, .rgb8, .rgb16, .rgba8, .rgba16]
        formats += [1, 2, 4, 8].map { PixelFormat(colorModel: .indexed(palette(1 << $0)), bitsPerComponent: $0) }
        formats.append(PixelFormat(colorModel: .indexed(palette(3)), bitsPerComponent: 2))  // a short palette
        return formats.map(Case.init)
    }()

    /// A 13 × 7 bitmap (odd, so Adam7 passes are partial and packed rows end mid-byte):
    /// sample (x, y, c) = (7x + 13y + 5c) mod (max + 1), except pixel (0, 0) all 0 and the
    /// last pixel all max. Indices cycle through the palette; padding bits stay 0.
    static func bitmap(_ format: PixelFormat, width: Int = 13, height: Int = 7) -> Bitmap {
        let bpc = format.bitsPerComponent
        let slots = format.slotCount
        let rowBytes = format.minimumBytesPerRow(width: width)
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        let levels: Int
        if case .indexed(let p) = format.colorModel { levels = p.count } else { levels = format.maxComponentValue + 1 }
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<slots {
                    var v = (7 * x + 13 * y + 5 * c) % levels
                    if x == 0 && y == 0 { v = 0 }
                    if x == width - 1 && y == height - 1 { v = levels - 1 }
                    let bit = (x * slots + c) * bpc
                    switch bpc {
                    case 16:
                        bytes[y * rowBytes + bit / 8] = UInt8(v >> 8)
                        bytes[y * rowBytes + bit / 8 + 1] = UInt8(v & 0xFF)
                    default:
                        bytes[y * rowBytes + bit / 8] |= UInt8(v << (8 - bpc - bit % 8))
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: rowBytes, bytes: bytes)
    }

    @Test("every storable format comes back with identical pixels and stored bit depth", arguments: cases, [false, true])
    func identicalPixels(_ c: Case, interlaced: Bool) throws {
        let original = Self.bitmap(c.format)
        let png = try PNGCodec.encode(Image(bitmap: original), options: EncodeOptions(interlaced: interlaced))
        let decoded = try PNGCodec.decode(png, options: DecodeOptions())
        #expect(decoded.bitmap == original)
        #expect(decoded.metadata.storedBitDepth == c.format.bitsPerComponent)
        #expect(decoded.metadata.properties["interlace"] == (interlaced ? "Adam7" : "none"))
        #expect(decoded.orientation == .up)
        #expect(decoded.metadata.orientationSource == nil)
        let header = try PNGCodec.readHeader(png, options: DecodeOptions())
        #expect(header.format == c.format)
        #expect((header.width, header.height) == (13, 7))
    }

    @Test("every orientation is written to eXIf and read back", arguments: Orientation.allCases)
    func orientation(_ orientation: Orientation) throws {
        let image = Image(bitmap: Self.bitmap(.rgb8), orientation: orientation)
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.orientation == orientation)
        #expect(decoded.metadata.orientationSource == (orientation == .up ? nil : .pngExif))
        #expect(decoded.bitmap == image.bitmap)
    }

    @Test("writeOrientation false writes no orientation")
    func orientationSuppressed() throws {
        let image = Image(bitmap: Self.bitmap(.gray8), orientation: .right)
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions(writeOrientation: false)), options: DecodeOptions())
        #expect(decoded.orientation == .up)
    }

    @Test("an iCCP without a name it was read with is named by the profile's description")
    func iccNamedByDescription() throws {
        let profile = try #require(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.68, 0.32), (0.265, 0.69), (0.15, 0.06)],
                                                         curve: .sRGB, description: "  Display P3-like (test)  "))
        let image = Image(bitmap: Self.bitmap(.rgb8), metadata: ImageMetadata(iccProfile: profile))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.metadata.properties["icc profile name"] == "Display P3-like (test)")
        #expect(decoded.metadata.iccProfile == profile)
    }

    @Test("ICC profile, gamma and orientation survive together, with tRNS palette and interlace",
          arguments: [PixelFormat(colorModel: .indexed(palette(16)), bitsPerComponent: 4), .rgba16, .gray8])
    func metadata(_ format: PixelFormat) throws {
        // Any bytes: the profile is stored verbatim (deflated) and read back verbatim.
        let profile = (0..<600).map { UInt8(($0 * 31 + 3) % 256) }
        var metadata = ImageMetadata(iccProfile: profile, gamma: 0.45455)
        metadata.properties["icc profile name"] = "Display P3"
        let image = Image(bitmap: Self.bitmap(format), orientation: .leftMirrored, metadata: metadata)
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions(interlaced: true)), options: DecodeOptions())
        #expect(decoded.bitmap == image.bitmap)
        #expect(decoded.metadata.iccProfile == profile)
        #expect(decoded.metadata.properties["icc profile name"] == "Display P3")
        #expect(decoded.metadata.gamma == 0.45455)
        #expect(decoded.metadata.sRGBIntent == nil)
        #expect(decoded.orientation == .leftMirrored)
        #expect(decoded.format.hasAlpha == format.hasAlpha)
    }

    @Test("sRGB intent and gamma round trip when there is no ICC profile", arguments: 0...3)
    func sRGB(_ intent: Int) throws {
        let image = Image(bitmap: Self.bitmap(.rgb8), metadata: ImageMetadata(gamma: 1.0, sRGBIntent: intent))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.metadata.sRGBIntent == intent)
        #expect(decoded.metadata.gamma == 1.0)
    }

    @Test("an existing EXIF block keeps its other bytes and gets the new orientation")
    func exifMerge() throws {
        // Little-endian block: IFD0 with Orientation (SHORT 1) and ImageDescription-like tag 0x010E (ASCII "ab").
        let exif: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 2, 0,
                             0x12, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                             0x0E, 0x01, 2, 0, 3, 0, 0, 0, 0x61, 0x62, 0, 0,
                             0, 0, 0, 0]
        let image = Image(bitmap: Self.bitmap(.gray8), orientation: .down, metadata: ImageMetadata(exif: exif))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        var expected = exif
        expected[18] = 3  // the Orientation value, little-endian
        #expect(decoded.metadata.exif == expected)
        #expect(decoded.orientation == .down)
    }

    // MARK: formats PNG cannot store, converted to the nearest one (values worked out by hand)

    @Test("premultiplied RGBA is written as straight RGBA")
    func premultiplied() throws {
        // Premultiplied (51, 17, 0, 51) is straight (255, 85, 0, 51): 51·255/51 = 255, 17·255/51 = 85.
        let source = try Bitmap(width: 2, height: 1, format: .rgba8Premultiplied, bytes: [51, 17, 0, 51, 10, 20, 30, 255])
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .rgba8)
        #expect(decoded.bitmap.bytes == [255, 85, 0, 51, 10, 20, 30, 255])
    }

    @Test("BGRA little-endian premultiplied is written as RGBA")
    func bgra() throws {
        let source = try Bitmap(width: 1, height: 1, format: .bgra8Premultiplied, bytes: [10, 20, 30, 255])
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .rgba8)
        #expect(decoded.bitmap.bytes == [30, 20, 10, 255])
    }

    @Test("little-endian 16-bit gray is written big-endian")
    func littleEndian16() throws {
        let format = PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16)
        let source = try Bitmap(width: 2, height: 1, format: format, bytes: [0x34, 0x12, 0xFF, 0x00])
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .gray16)
        #expect(decoded.bitmap.bytes == [0x12, 0x34, 0x00, 0xFF])
    }

    @Test("RGBX padding is dropped")
    func padding() throws {
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast)
        let source = try Bitmap(width: 1, height: 1, format: format, bytes: [1, 2, 3, 99])
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .rgb8)
        #expect(decoded.bitmap.bytes == [1, 2, 3])
    }

    @Test("CMYK is written as RGB by the naive formula")
    func cmyk() throws {
        // C = 0, M = Y = 255, K = 0 → pure red; K = 255 → black.
        let source = try Bitmap(width: 2, height: 1, format: .cmyk8, bytes: [0, 255, 255, 0, 0, 0, 0, 255])
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .rgb8)
        #expect(decoded.bitmap.bytes == [255, 0, 0, 0, 0, 0])
    }

    @Test("float RGBA is written as 16-bit RGBA")
    func float() throws {
        // 0.5 · 65535 = 32767.5, rounded half up to 32768 = 0x8000; 1.0 → 0xFFFF; 0 → 0.
        let floats: [Float] = [0.5, 1.0, 0.0, 1.0]
        let bytes = floats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let source = try Bitmap(width: 1, height: 1, format: .rgbaFloat, bytes: bytes)
        let decoded = try PNGCodec.decode(PNGCodec.encode(Image(bitmap: source), options: EncodeOptions()), options: DecodeOptions())
        #expect(decoded.format == .rgba16)
        #expect(decoded.bitmap.bytes == [0x80, 0x00, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF])
    }
}
