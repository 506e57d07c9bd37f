import Testing
import ImageCore
@testable import ImageCodecs

/// Encode synthetic bitmaps with libjpeg-turbo, decode them again, and compare.
///
/// Tolerances: at quality 100 every quantiser step is 1, so the only losses are the rounding
/// of DCT coefficients (at most ½ per coefficient, ≤ 1 level after the inverse DCT) and, for
/// colour, the 8-bit RGB → YCbCr → RGB round trip (≤ 1 level each way). Hence 1 level for
/// gray and CMYK (no colour transform) and 3 levels for RGB.
@Suite("JPEG round trip")
struct JPEGRoundTripTests {
    static let q100 = EncodeOptions(jpegQuality: 100, jpegSubsampling: .s444)

    /// A width × height bitmap whose component c of pixel (x, y) is `value(x, y, c)`.
    static func bitmap(_ format: PixelFormat, width: Int, height: Int, _ value: (Int, Int, Int) -> Int) throws -> Bitmap {
        let n = format.slotCount
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * n)
        for y in 0..<height { for x in 0..<width { for c in 0..<n { bytes.append(UInt8(value(x, y, c))) } } }
        return try Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    /// A smooth gradient, different per component, with a few exact extremes.
    static func gradient(_ x: Int, _ y: Int, _ c: Int) -> Int {
        (x * 4 + y * 2 + c * 60) % 256
    }

    /// Largest absolute difference between two equally sized byte arrays.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    static func roundTrip(_ image: Image, _ options: EncodeOptions = q100) throws -> Image {
        let bytes = try JPEGCodec.encode(image, options: options)
        return try JPEGCodec.decode(bytes, options: DecodeOptions())
    }

    @Test("RGB gradient at quality 100, 4:4:4 comes back within 3 levels")
    func rgb() throws {
        // A ramp per channel that saturates at 255 in the lower right: smooth, plus exact extremes.
        let source = try Self.bitmap(.rgb8, width: 48, height: 40) { x, y, c in min(x * 5 + y * 2 + c * 10, 255) }
        let decoded = try Self.roundTrip(Image(bitmap: source))
        #expect(decoded.format == .rgb8)
        #expect(decoded.width == 48 && decoded.height == 40)
        #expect(decoded.metadata.storedBitDepth == 8)
        #expect(decoded.metadata.properties["jpeg.colorSpace"] == "YCbCr")
        #expect(Self.maxDifference(decoded.bitmap.bytes, source.bytes) <= 3)
    }

    @Test("gray gradient comes back as 8-bit gray within 1 level")
    func gray() throws {
        let source = try Self.bitmap(.gray8, width: 33, height: 17) { x, y, _ in (x * 7 + y * 3) % 256 }
        let decoded = try Self.roundTrip(Image(bitmap: source))
        #expect(decoded.format == .gray8)
        #expect(decoded.metadata.properties["jpeg.components"] == "1")
        #expect(Self.maxDifference(decoded.bitmap.bytes, source.bytes) <= 1)
    }

    @Test("16-bit gray is stored as its rounded 8-bit value")
    func gray16() throws {
        // Values v·257 + 100 narrow to round((v·257 + 100) / 257) = v; v = 8x + y ≤ 247.
        let width = 31, height = 8
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width {
            let v = (x * 8 + y) * 257 + 100
            bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
        } }
        let source = try Bitmap(width: width, height: height, format: .gray16, bytes: bytes)
        let decoded = try Self.roundTrip(Image(bitmap: source))
        let expected = (0..<height).flatMap { y in (0..<width).map { x in UInt8(x * 8 + y) } }
        #expect(decoded.format == .gray8)
        #expect(Self.maxDifference(decoded.bitmap.bytes, expected) <= 1)
    }

    @Test("RGBA is stored without its alpha: the colour comes back, alpha is gone")
    func alphaDropped() throws {
        let source = try Self.bitmap(.rgba8, width: 24, height: 24) { x, y, c in c == 3 ? (x * 10) % 256 : min(x * 6 + y + c * 20, 255) }
        let decoded = try Self.roundTrip(Image(bitmap: source))
        #expect(decoded.format == .rgb8)
        #expect(!decoded.format.hasAlpha)
        let colour = try Self.bitmap(.rgb8, width: 24, height: 24) { x, y, c in min(x * 6 + y + c * 20, 255) }
        #expect(Self.maxDifference(decoded.bitmap.bytes, colour.bytes) <= 3)
    }

    @Test("plain CMYK is written Adobe-inverted and decodes to the same ink, flagged inverted")
    func cmykPlain() throws {
        let ink = try Self.bitmap(.cmyk8, width: 16, height: 16) { x, y, c in (x * 16 + y * 3 + c * 50) % 256 }
        let decoded = try Self.roundTrip(Image(bitmap: ink))
        #expect(decoded.format.colorModel == .cmyk(inverted: true))
        #expect(decoded.metadata.properties["jpeg.adobeTransform"]?.hasPrefix("0") == true)
        let inkBack = decoded.bitmap.bytes.map { 255 - $0 }
        #expect(Self.maxDifference(inkBack, ink.bytes) <= 1)
    }

    @Test("Adobe-inverted CMYK is written as is")
    func cmykInverted() throws {
        let format = PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8)
        let stored = try Self.bitmap(format, width: 16, height: 8) { x, y, c in (x * 9 + y * 20 + c * 40) % 256 }
        let decoded = try Self.roundTrip(Image(bitmap: stored))
        #expect(decoded.format == format)
        #expect(Self.maxDifference(decoded.bitmap.bytes, stored.bytes) <= 1)
    }

    @Test("quality outside 1…100 is an invalid option", arguments: [0, 101, -5])
    func quality(_ q: Int) throws {
        let source = try Self.bitmap(.gray8, width: 8, height: 8) { x, _, _ in x }
        let error = #expect(throws: EncodeError.self) {
            try JPEGCodec.encode(Image(bitmap: source), options: EncodeOptions(jpegQuality: q))
        }
        guard case .invalidOption = error else { Issue.record("expected invalidOption, got \(String(describing: error))"); return }
    }

    @Test("each subsampling option is what the decoder reads back", arguments: ChromaSubsampling.allCases)
    func subsampling(_ s: ChromaSubsampling) throws {
        let source = try Self.bitmap(.rgb8, width: 32, height: 32, Self.gradient)
        let decoded = try Self.roundTrip(Image(bitmap: source), EncodeOptions(jpegQuality: 90, jpegSubsampling: s))
        #expect(decoded.metadata.properties["jpeg.subsampling"] == s.rawValue)
        #expect(decoded.width == 32 && decoded.height == 32)
    }

    @Test("a progressive encode decodes as progressive with the same pixels as baseline")
    func progressive() throws {
        let source = try Self.bitmap(.rgb8, width: 40, height: 24, Self.gradient)
        let baseline = try Self.roundTrip(Image(bitmap: source))
        let progressive = try Self.roundTrip(Image(bitmap: source), EncodeOptions(jpegQuality: 100, jpegSubsampling: .s444, jpegProgressive: true))
        #expect(progressive.metadata.properties["jpeg.process"] == "progressive")
        #expect(baseline.metadata.properties["jpeg.process"] == "baseline")
        // Same quantised coefficients, only the scan order differs.
        #expect(progressive.bitmap.bytes == baseline.bitmap.bytes)
    }

    @Test("EXIF orientation survives a round trip", arguments: Orientation.allCases)
    func orientation(_ o: Orientation) throws {
        let source = try Self.bitmap(.gray8, width: 8, height: 4) { x, y, _ in x * 20 + y }
        let decoded = try Self.roundTrip(Image(bitmap: source, orientation: o))
        #expect(decoded.orientation == o)
        // Nothing is written for .up, so nothing is declared.
        #expect(decoded.metadata.orientationSource == (o == .up ? nil : .jpegExif))
        let written = decoded.metadata.exif.flatMap { EXIF.orientationValue(in: $0) }
        #expect(written == (o == .up ? nil : o.exifValue))
    }

    /// A little-endian EXIF block: IFD0 with Make ("imglab\0", 7 ASCII bytes at offset 38)
    /// and Orientation 6, no IFD1.
    static let littleEndianEXIF: [UInt8] = {
        var b: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]        // II, 42, IFD0 at 8
        b += [2, 0]                                                  // two entries
        b += [0x0F, 0x01, 2, 0, 7, 0, 0, 0, 38, 0, 0, 0]             // Make, ASCII, 7, at 38
        b += [0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]              // Orientation, SHORT, 1, value 6
        b += [0, 0, 0, 0]                                            // no IFD1 (ends at 38)
        b += Array("imglab".utf8) + [0]
        return b
    }()

    @Test("little- and big-endian EXIF blocks are kept byte for byte with their orientation")
    func exifByteOrders() throws {
        let source = try Self.bitmap(.gray8, width: 8, height: 8) { x, y, _ in x + y }
        let big = EXIF.block(orientation: .left)
        for (block, orientation) in [(Self.littleEndianEXIF, Orientation.right), (big, Orientation.left)] {
            var image = Image(bitmap: source, orientation: orientation)
            image.metadata.exif = block
            let decoded = try Self.roundTrip(image)
            #expect(decoded.metadata.exif == block)
            #expect(decoded.orientation == orientation)
        }
    }

    @Test("an ICC profile over 2 × 65519 bytes is split into 3 APP2 markers and joined back exactly")
    func iccSplit() throws {
        let size = 2 * 65_519 + 1_000
        let profile = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 >> 8) }
        let source = try Self.bitmap(.rgb8, width: 8, height: 8, Self.gradient)
        var image = Image(bitmap: source)
        image.metadata.iccProfile = profile
        let bytes = try JPEGCodec.encode(image, options: Self.q100)
        #expect(Self.iccMarkerCount(bytes) == 3)
        let decoded = try JPEGCodec.decode(bytes, options: DecodeOptions())
        #expect(decoded.metadata.iccProfile == profile)
    }

    /// APP2 segments starting with "ICC_PROFILE\0", counted by walking the segments before SOS.
    static func iccMarkerCount(_ bytes: [UInt8]) -> Int {
        var i = 2, count = 0
        let signature = Array("ICC_PROFILE".utf8) + [0]
        while i + 4 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xDA {
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if bytes[i + 1] == 0xE2, Array(bytes[(i + 4)..<min(i + 16, bytes.count)]) == signature { count += 1 }
            i += 2 + length
        }
        return count
    }

    @Test("ICC chunks join by sequence number whatever their file order")
    func iccOrder() throws {
        let chunks: [(offset: Int, data: ArraySlice<UInt8>)] = [
            (30, [3, 3, 7, 8][...]), (10, [1, 3, 1, 2, 3][...]), (20, [2, 3, 4, 5, 6][...]),
        ]
        #expect(try JPEGMetadata.joinICC(chunks).get().profile == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test("a chunk repeated byte for byte is read once, with a note")
    func iccRepeated() throws {
        let chunks: [(offset: Int, data: ArraySlice<UInt8>)] = [(10, [1, 1, 5, 6][...]), (20, [1, 1, 5, 6][...])]
        let joined = try JPEGMetadata.joinICC(chunks).get()
        #expect(joined.profile == [5, 6])
        #expect(joined.note != nil)
    }

    @Test("an ICC set with a missing chunk, or a repeat with other bytes, is dropped with a reason")
    func iccBroken() {
        let missing: [(offset: Int, data: ArraySlice<UInt8>)] = [(10, [1, 3, 0][...]), (20, [3, 3, 0][...])]
        let repeated: [(offset: Int, data: ArraySlice<UInt8>)] = [(10, [1, 2, 0][...]), (20, [1, 2, 1][...])]
        let outOfRange: [(offset: Int, data: ArraySlice<UInt8>)] = [(10, [0, 1, 0][...])]
        for chunks in [missing, repeated, outOfRange] {
            if case .success = JPEGMetadata.joinICC(chunks) { Issue.record("joined an inconsistent set") }
        }
    }
}
