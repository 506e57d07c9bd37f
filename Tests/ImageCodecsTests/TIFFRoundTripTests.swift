import Testing
import ImageCore
@testable import ImageCodecs

/// Encoder → decoder round trips: TIFF is lossless, so every format the encoder stores as it is
/// must come back with identical pixels, format (alpha kind included) and metadata.
@Suite("TIFF round trip")
struct TIFFRoundTripTests {
    /// A named pixel format for test output.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var format: PixelFormat
        var description: String { name }
    }

    static let palette: Palette = {
        var entries: [Palette.Entry] = []
        for i in 0..<256 {
            let green: Int = (255 - i) / 2, blue: Int = (i * 7) % 256
            entries.append(Palette.Entry(red: UInt8(i), green: UInt8(green), blue: UInt8(blue)))
        }
        return Palette(entries)
    }()
    static func indexed(_ bits: Int) -> PixelFormat {
        PixelFormat(colorModel: .indexed(Palette(Array(palette.entries.prefix(1 << bits)))), bitsPerComponent: bits)
    }
    static func format(_ model: ColorModel, _ bits: Int, _ alpha: AlphaInfo = .none) -> PixelFormat {
        PixelFormat(colorModel: model, bitsPerComponent: bits, alphaInfo: alpha,
                    byteOrder: bits == 16 ? .little16 : .default, isFloat: bits == 32)
    }

    /// Every format the encoder writes without conversion, in the byte order the decoder delivers.
    static let storedFormats: [Case] = [
        Case(name: "gray 1", format: format(.gray, 1)),
        Case(name: "gray 2", format: format(.gray, 2)),
        Case(name: "gray 4", format: format(.gray, 4)),
        Case(name: "gray 8", format: format(.gray, 8)),
        Case(name: "gray 16", format: format(.gray, 16)),
        Case(name: "gray+alpha 8 straight", format: format(.gray, 8, .last)),
        Case(name: "gray+alpha 8 premultiplied", format: format(.gray, 8, .premultipliedLast)),
        Case(name: "gray+alpha 16 straight", format: format(.gray, 16, .last)),
        Case(name: "gray+alpha 16 premultiplied", format: format(.gray, 16, .premultipliedLast)),
        Case(name: "RGB 8", format: format(.rgb, 8)),
        Case(name: "RGB 16", format: format(.rgb, 16)),
        Case(name: "RGBX 8", format: format(.rgb, 8, .noneSkipLast)),
        Case(name: "RGBA 8 straight", format: format(.rgb, 8, .last)),
        Case(name: "RGBA 8 premultiplied", format: format(.rgb, 8, .premultipliedLast)),
        Case(name: "RGBA 16 straight", format: format(.rgb, 16, .last)),
        Case(name: "RGBA 16 premultiplied", format: format(.rgb, 16, .premultipliedLast)),
        Case(name: "gray float", format: format(.gray, 32)),
        Case(name: "RGB float", format: format(.rgb, 32)),
        Case(name: "RGBA float straight", format: format(.rgb, 32, .last)),
        Case(name: "RGBA float premultiplied", format: format(.rgb, 32, .premultipliedLast)),
        Case(name: "CMYK 8", format: format(.cmyk(inverted: false), 8)),
        Case(name: "CMYK 16", format: format(.cmyk(inverted: false), 16)),
        Case(name: "CMYK+alpha 8 straight", format: format(.cmyk(inverted: false), 8, .last)),
        Case(name: "palette 1", format: indexed(1)),
        Case(name: "palette 2", format: indexed(2)),
        Case(name: "palette 4", format: indexed(4)),
        Case(name: "palette 8", format: indexed(8)),
    ]

    /// A bitmap whose every component is a gradient of x, y and the slot, with the extremes
    /// (0 and the maximum; for floats also values outside 0…1) at fixed pixels.
    /// Premultiplied colour is kept ≤ alpha so the bitmap is a valid premultiplied image.
    static func synthetic(_ format: PixelFormat, width: Int = 7, height: Int = 5) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height, format: format)
        let slots = format.slotCount
        let bits = format.bitsPerComponent
        let maxValue = format.isFloat ? 1 : (1 << bits) - 1
        func value(_ x: Int, _ y: Int, _ s: Int) -> Int {
            if x == 0 && y == 0 { return 0 }
            if x == 1 && y == 0 { return maxValue }
            return ((x * 37 + y * 101 + s * 53 + x * y * 11) * (bits == 16 ? 263 : 1)) % (maxValue + 1)
        }
        for y in 0..<height {
            for x in 0..<width {
                var v = (0..<slots).map { value(x, y, $0) }
                if format.isPremultiplied { for c in 0..<(slots - 1) { v[c] = min(v[c], v[slots - 1]) } }
                if bits == 5 {  // one big-endian 16-bit word per pixel
                    let word = (x * 1234 + y * 4321) & 0x7FFF
                    bitmap.bytes[y * bitmap.bytesPerRow + x * 2] = UInt8(word >> 8)
                    bitmap.bytes[y * bitmap.bytesPerRow + x * 2 + 1] = UInt8(word & 0xFF)
                    continue
                }
                for s in 0..<slots {
                    switch bits {
                    case 1, 2, 4:
                        let bit = x * bits
                        bitmap.bytes[y * bitmap.bytesPerRow + bit / 8] |= UInt8(v[s] << (8 - bits - bit % 8))
                    case 8:
                        bitmap.bytes[y * bitmap.bytesPerRow + x * slots + s] = UInt8(v[s])
                    case 16:
                        let o = y * bitmap.bytesPerRow + (x * slots + s) * 2
                        let w = UInt16(v[s])
                        bitmap.bytes[o] = UInt8(w & 0xFF); bitmap.bytes[o + 1] = UInt8(w >> 8)
                    default:
                        let f: Float = x == 2 && y == 1 ? 1.5 : x == 3 && y == 1 ? -0.25 : Float(x * 5 + y * 3 + s) / 40
                        let o = y * bitmap.bytesPerRow + (x * slots + s) * 4
                        withUnsafeBytes(of: f.bitPattern.littleEndian) { for k in 0..<4 { bitmap.bytes[o + k] = $0[k] } }
                    }
                }
            }
        }
        return bitmap
    }

    static func roundTrip(_ image: Image, _ options: EncodeOptions) throws -> Image {
        let bytes = try TIFFCodec.encode(image, options: options)
        #expect(ContainerFormat(sniffing: bytes) == .tiff)
        return try TIFFCodec.decode(bytes, options: DecodeOptions())
    }

    @Test("every stored format comes back identical, whatever the compression and planar configuration",
          arguments: storedFormats, TIFFCompression.allCases)
    func storedFormatsRoundTrip(_ testCase: Case, compression: TIFFCompression) throws {
        let bitmap = try Self.synthetic(testCase.format)
        for planar in [false, true] {
            let options = EncodeOptions(tiffCompression: compression, tiffPlanar: planar)
            let decoded = try Self.roundTrip(Image(bitmap: bitmap), options)
            #expect(decoded.bitmap == bitmap, "\(testCase) planar \(planar)")
            #expect(decoded.format.alphaInfo == testCase.format.alphaInfo)
            #expect(decoded.metadata.storedBitDepth == testCase.format.bitsPerComponent)
            #expect(decoded.metadata.properties["planar"] == (planar ? "separate" : "contiguous"))
            #expect(decoded.metadata.properties["compression"] == ["none": "none", "lzw": "LZW", "deflate": "Adobe Deflate"][compression.rawValue])
            #expect(decoded.metadata.storedFormatNote == nil)
        }
    }

    @Test("a multi-strip image survives planar LZW with the horizontal predictor")
    func multiStrip() throws {
        // 300 × 16-bit RGBA = 2400 bytes a row: 27 rows a strip, so 8 strips per plane.
        let bitmap = try Self.synthetic(Self.format(.rgb, 16, .last), width: 300, height: 200)
        for planar in [false, true] {
            let decoded = try Self.roundTrip(Image(bitmap: bitmap), EncodeOptions(tiffCompression: .lzw, tiffPlanar: planar))
            #expect(decoded.bitmap == bitmap)
            #expect(decoded.metadata.properties["predictor"] == "horizontal differencing")
        }
    }

    @Test("a premultiplied image comes back premultiplied and a straight one straight")
    func alphaKindIsKept() throws {
        let straight = try Self.synthetic(.rgba8)
        let premultiplied = try Self.synthetic(.rgba8Premultiplied)
        #expect(try Self.roundTrip(Image(bitmap: straight), EncodeOptions()).format.alphaInfo == .last)
        #expect(try Self.roundTrip(Image(bitmap: premultiplied), EncodeOptions()).format.alphaInfo == .premultipliedLast)
    }

    @Test("the orientation is written to tag 274 and read back, pixels untouched", arguments: Orientation.allCases)
    func orientation(_ orientation: Orientation) throws {
        let bitmap = try Self.synthetic(.rgb8)
        let decoded = try Self.roundTrip(Image(bitmap: bitmap, orientation: orientation), EncodeOptions())
        #expect(decoded.orientation == orientation)
        #expect(decoded.metadata.orientationSource == (orientation == .up ? nil : .tiffTag))
        #expect(decoded.bitmap == bitmap)
        let unwritten = try Self.roundTrip(Image(bitmap: bitmap, orientation: orientation), EncodeOptions(writeOrientation: false))
        #expect(unwritten.orientation == .up)
    }

    @Test("the ICC profile is written to tag 34675 and read back byte for byte")
    func iccProfile() throws {
        let profile = (0..<300).map { UInt8(($0 * 13 + 7) % 256) }
        for format in [PixelFormat.rgb8, Self.format(.gray, 16), Self.indexed(4)] {
            let image = Image(bitmap: try Self.synthetic(format), metadata: ImageMetadata(iccProfile: profile))
            for compression in TIFFCompression.allCases {
                let decoded = try Self.roundTrip(image, EncodeOptions(tiffCompression: compression))
                #expect(decoded.metadata.iccProfile == profile)
                #expect(decoded.bitmap == image.bitmap)
            }
        }
        let plain = try Self.roundTrip(Image(bitmap: try Self.synthetic(.rgb8)), EncodeOptions())
        #expect(plain.metadata.iccProfile == nil)
    }

    @Test("orientation, ICC, planar and compression together")
    func everythingAtOnce() throws {
        let profile: [UInt8] = Array(repeating: 0x42, count: 64)
        for testCase in Self.storedFormats {
            let image = Image(bitmap: try Self.synthetic(testCase.format), orientation: .leftMirrored,
                              metadata: ImageMetadata(iccProfile: profile))
            let decoded = try Self.roundTrip(image, EncodeOptions(tiffCompression: .deflate, tiffPlanar: true))
            #expect(decoded.bitmap == image.bitmap, "\(testCase)")
            #expect(decoded.orientation == .leftMirrored)
            #expect(decoded.metadata.iccProfile == profile)
        }
    }

    @Test("palette entries survive the 16-bit ColorMap exactly (entry × 257, then the rounded ÷ 257)")
    func paletteEntries() throws {
        let decoded = try Self.roundTrip(Image(bitmap: try Self.synthetic(Self.indexed(8))), EncodeOptions())
        guard case .indexed(let palette) = decoded.format.colorModel else {
            Issue.record("decoded \(decoded.format), expected an indexed format")
            return
        }
        #expect(palette == Self.palette)
    }

    @Test("formats TIFF cannot store as they are are converted exactly to the documented format",
          arguments: [
            (PixelFormat.bgra8Premultiplied, PixelFormat.rgba8Premultiplied),
            (PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first), .rgba8),
            (PixelFormat.rgb16, TIFFRoundTripTests.format(.rgb, 16)),
            (PixelFormat(colorModel: .rgb, bitsPerComponent: 32, alphaInfo: .last, byteOrder: .big32, isFloat: true), .rgbaFloat),
            (PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8), .cmyk8),
            (PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst), .rgb8),
          ])
    func convertedFormats(_ source: PixelFormat, _ written: PixelFormat) throws {
        #expect(TIFFEncoder.writtenFormat(for: source) == written)
        let bitmap = try Self.synthetic(source)
        let decoded = try Self.roundTrip(Image(bitmap: bitmap), EncodeOptions())
        #expect(decoded.bitmap == (try bitmap.converted(to: written)))
    }

    @Test("a palette with transparent entries is written as straight 8-bit RGBA")
    func transparentPalette() throws {
        var entries = Self.palette.entries.prefix(16).map { $0 }
        entries[3].alpha = 0
        entries[5].alpha = 128
        let bitmap = try Self.synthetic(PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: 4))
        let decoded = try Self.roundTrip(Image(bitmap: bitmap), EncodeOptions())
        #expect(decoded.format == PixelFormat.rgba8)
        #expect(decoded.bitmap == (try bitmap.converted(to: PixelFormat.rgba8)))
    }
}
