import Foundation
import Testing
import CImageShim
import ImageCore
@testable import ImageCodecs

/// Issue 20: the TIFF sample formats beyond 1…16-bit unsigned and 16/32-bit float, with the
/// documented mapping (docs/tiff-samples.md). Files are written byte by byte
/// (``HandMadeTIFF``) in both byte orders; expected values come from the formulas.
@Suite("TIFF sample formats")
struct TIFFSampleFormatTests {
    typealias T = HandMadeTIFF

    /// A 4 × 1 gray file of `samples` (each already `bits / 8` bytes in little-endian order).
    static func gray(bits: Int, sampleFormat: Int, little: [[UInt8]], bigEndian: Bool) -> [UInt8] {
        let strip = little.flatMap { bigEndian ? Array($0.reversed()) : $0 }
        return T.file(T.fields(width: UInt32(little.count), height: 1, bits: [UInt32(bits)], photometric: 1)
                      + [T.short(339, UInt32(sampleFormat))], strip: strip, bigEndian: bigEndian)
    }

    static func le<V: FixedWidthInteger>(_ v: V) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    static func floats(_ b: Bitmap) -> [Float] {
        stride(from: 0, to: b.bytes.count, by: 4).map { i in Float(bitPattern: UInt32(b.bytes[i]) | UInt32(b.bytes[i + 1]) << 8 | UInt32(b.bytes[i + 2]) << 16 | UInt32(b.bytes[i + 3]) << 24) }
    }

    @Test("signed 8-bit: −128…127 → 0…255 by adding 128 (8-bit gray)", arguments: [false, true])
    func signed8(bigEndian: Bool) throws {
        let values: [Int8] = [-128, -1, 0, 127]
        let image = try TIFFCodec.decode(Self.gray(bits: 8, sampleFormat: 2, little: values.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(image.format == .gray8)
        #expect(image.bitmap.bytes == values.map { UInt8(Int($0) + 128) })
        #expect(image.metadata.storedFormatNote?.contains("signed") == true)
    }

    @Test("signed 16-bit: −32768…32767 → 0…65535 by adding 32768 (16-bit gray, little-endian)", arguments: [false, true])
    func signed16(bigEndian: Bool) throws {
        let values: [Int16] = [-32768, -1, 0, 32767]
        let image = try TIFFCodec.decode(Self.gray(bits: 16, sampleFormat: 2, little: values.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(image.format == PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16))
        #expect(image.bitmap.bytes == values.flatMap { Self.le(UInt16(Int($0) + 32768)) })
    }

    @Test("signed 32-bit: (v + 2³¹) / (2³² − 1) as 32-bit float", arguments: [false, true])
    func signed32(bigEndian: Bool) throws {
        let values: [Int32] = [.min, -1, 0, .max]
        let image = try TIFFCodec.decode(Self.gray(bits: 32, sampleFormat: 2, little: values.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(image.format.isFloat && image.format.bitsPerComponent == 32)
        #expect(Self.floats(image.bitmap) == values.map { Float((Double($0) + 2_147_483_648) / 4_294_967_295) })
        #expect(Self.floats(image.bitmap).first == 0 && Self.floats(image.bitmap).last == 1)
    }

    @Test("unsigned 24-bit: v / (2²⁴ − 1) as 32-bit float", arguments: [false, true])
    func unsigned24(bigEndian: Bool) throws {
        let values: [UInt32] = [0, 1, 0x80_0000, 0xFF_FFFF]
        let image = try TIFFCodec.decode(Self.gray(bits: 24, sampleFormat: 1, little: values.map { Array(Self.le($0).prefix(3)) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(image.format.isFloat && image.format.bitsPerComponent == 32)
        #expect(Self.floats(image.bitmap) == values.map { Float(Double($0) / 16_777_215) })
    }

    @Test("unsigned 32-bit: v / (2³² − 1) as 32-bit float", arguments: [false, true])
    func unsigned32(bigEndian: Bool) throws {
        let values: [UInt32] = [0, 1, 0x8000_0000, .max]
        let image = try TIFFCodec.decode(Self.gray(bits: 32, sampleFormat: 1, little: values.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(Self.floats(image.bitmap) == values.map { Float(Double($0) / 4_294_967_295) })
    }

    @Test("64-bit float: rounded to 32-bit float, values kept", arguments: [false, true])
    func double64(bigEndian: Bool) throws {
        let values: [Double] = [0, 0.25, 1.0 / 3.0, -2.5]
        let image = try TIFFCodec.decode(Self.gray(bits: 64, sampleFormat: 3, little: values.map { Self.le($0.bitPattern) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(image.format.isFloat && image.format.bitsPerComponent == 32)
        #expect(Self.floats(image.bitmap) == values.map { Float($0) })
    }

    @Test("64-bit integers: v / (2⁶⁴ − 1) unsigned, (v + 2⁶³) / (2⁶⁴ − 1) signed, as 32-bit float", arguments: [false, true])
    func integers64(bigEndian: Bool) throws {
        let unsigned: [UInt64] = [0, 1 << 32, 1 << 63, .max]
        let u = try TIFFCodec.decode(Self.gray(bits: 64, sampleFormat: 1, little: unsigned.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(Self.floats(u.bitmap) == unsigned.map { Float(Double($0) / 18_446_744_073_709_551_615) })
        let signed: [Int64] = [.min, -1, 0, .max]
        let s = try TIFFCodec.decode(Self.gray(bits: 64, sampleFormat: 2, little: signed.map { Self.le($0) }, bigEndian: bigEndian), options: DecodeOptions())
        #expect(Self.floats(s.bitmap) == signed.map { Float((Double($0) + 9_223_372_036_854_775_808) / 18_446_744_073_709_551_615) })
        #expect(Self.floats(s.bitmap).first == 0 && Self.floats(s.bitmap).last == 1)
    }

    @Test("signed 8-bit RGB with MinIsBlack semantics per channel: (−128, 0, 127) → (0, 128, 255)")
    func signedRGB() throws {
        let file = T.file(T.fields(width: 1, height: 1, bits: [8, 8, 8], photometric: 2) + [T.short(339, 2, 2, 2)],
                          strip: [0x80, 0x00, 0x7F])
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.format == .rgb8)
        #expect(image.bitmap.bytes == [0, 128, 255])
    }

    @Test("what the encoder writes reads back exactly: 8/16-bit gray and RGB(A), 32-bit float, in every compression it writes",
          arguments: TIFFCompression.allCases)
    func encoderRoundTrip(compression: TIFFCompression) throws {
        let formats: [PixelFormat] = [.gray8, .rgba8, PixelFormat(colorModel: .rgb, bitsPerComponent: 16, byteOrder: .little16),
                                      PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true)]
        for format in formats {
            let rowBytes = format.minimumBytesPerRow(width: 5)
            let bytes: [UInt8]
            if format.isFloat {
                bytes = (0..<15).flatMap { Self.le(Float(Double($0) / 7 - 0.5).bitPattern) }
            } else {
                bytes = (0..<(rowBytes * 3)).map { UInt8(($0 * 37 + 11) % 256) }
            }
            let image = Image(bitmap: Bitmap(uncheckedWidth: 5, height: 3, format: format, bytesPerRow: rowBytes, bytes: bytes))
            let decoded = try TIFFCodec.decode(TIFFCodec.encode(image, options: EncodeOptions(tiffCompression: compression)), options: DecodeOptions())
            #expect(decoded.bitmap == image.bitmap, "\(format) \(compression)")
        }
    }
}

/// Issue 20: every compression scheme this libtiff was built with decodes. Lossless schemes
/// round-trip exactly; JPEG and WebP (lossy) stay within a bound on a smooth ramp.
@Suite("TIFF compressions")
struct TIFFCompressionTests {
    /// A scheme, its Compression tag value, whether it is lossy, and whether its data is bilevel.
    struct Scheme: Sendable, CustomStringConvertible {
        var name: String
        var code: UInt16
        var lossy: Bool = false
        var bilevel: Bool = false
        var description: String { "\(name) (\(code))" }
    }

    static let schemes: [Scheme] = [
        Scheme(name: "LZW", code: 5), Scheme(name: "Adobe Deflate", code: 8), Scheme(name: "Deflate", code: 32946),
        Scheme(name: "PackBits", code: 32773), Scheme(name: "JPEG", code: 7, lossy: true),
        Scheme(name: "CCITT RLE", code: 2, bilevel: true), Scheme(name: "CCITT Group 3", code: 3, bilevel: true),
        Scheme(name: "CCITT Group 4", code: 4, bilevel: true), Scheme(name: "LZMA", code: 34925),
        Scheme(name: "Zstandard", code: 50000), Scheme(name: "WebP", code: 50001, lossy: true),
        Scheme(name: "LERC", code: 34887),
    ]

    /// The list: these must be configured in the libtiff imglab is built against.
    static let required: Set<UInt16> = [5, 8, 32946, 32773, 7, 3, 4, 34925, 50000, 50001]

    @Test("the schemes the issue names are all configured in this libtiff")
    func configured() {
        let missing = Self.schemes.filter { Self.required.contains($0.code) && imglab_tiff_codec_configured($0.code) == 0 }
        #expect(missing.isEmpty, "libtiff lacks \(missing)")
    }

    @Test("every configured scheme decodes what libtiff encoded with it", arguments: schemes)
    func decodes(_ scheme: Scheme) throws {
        guard imglab_tiff_codec_configured(scheme.code) != 0 else {
            print("  TIFF compression \(scheme): not configured in this libtiff, not checked")
            return
        }
        let (width, height) = (16, 16)
        var params = imglab_tiff_encode_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.compression = scheme.code
        params.planar_config = 1
        params.rows_per_strip = UInt32(height)
        params.sample_format = 1
        var pixels: [UInt8] = []
        if scheme.bilevel {
            // 1-bit MinIsWhite: 4 × 4 checks, bit 1 = black.
            params.bits_per_sample = 1; params.samples_per_pixel = 1; params.photometric = 0
            params.row_bytes = 2
            for y in 0..<height {
                let byte: UInt8 = y / 4 % 2 == 0 ? 0xF0 : 0x0F
                pixels += [byte, byte]
            }
        } else {
            // 8-bit RGB ramp: R = 16x, G = 16y, B = 8(x + y).
            params.bits_per_sample = 8; params.samples_per_pixel = 3; params.photometric = 2
            params.row_bytes = width * 3
            for y in 0..<height {
                for x in 0..<width {
                    let red = UInt8(16 * x), green = UInt8(16 * y), blue = UInt8(8 * (x + y))
                    pixels += [red, green, blue]
                }
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(IMGLAB_MESSAGE_SIZE))
        let ok = pixels.withUnsafeBufferPointer { imglab_tiff_encode(&params, $0.baseAddress, $0.count, &out, &size, &message) }
        guard ok != 0, let out else {
            // libtiff decodes some schemes it cannot write (CCITT RLE): a corpus file stands in.
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let entry = try #require(Manifest.inputs.first { Self.compression(of: $0.path) == Int(scheme.code) },
                                     "libtiff cannot write \(scheme) (\(text)) and no corpus file uses it")
            let image = try ImageCodecs.decode(try #require(Manifest.bytes(entry.path)))
            #expect(image.width == entry.expected?.width && image.height == entry.expected?.height, "\(entry.path)")
            return
        }
        let file = Array(UnsafeBufferPointer(start: out, count: size))
        imglab_tiff_free(out)
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.width == width && image.height == height)
        if scheme.bilevel {
            #expect(image.format.bitsPerComponent == 1)
            // Delivered 0 = black: MinIsWhite bit 1 (black) becomes 0.
            #expect(image.bitmap.bytes == pixels.map { ~$0 })
        } else if scheme.lossy {
            #expect(image.format == .rgb8)
            let errors = zip(image.bitmap.bytes, pixels).map { abs(Int($0) - Int($1)) }
            #expect(errors.max() ?? 0 <= 24, "largest error \(errors.max() ?? 0)")
            #expect(Double(errors.reduce(0, +)) / Double(errors.count) <= 4, "mean error")
        } else {
            #expect(image.bitmap.bytes == pixels)
        }
    }

    /// The Compression value of a classic TIFF's first IFD, or `nil`.
    static func compression(of path: String) -> Int? {
        guard path.hasSuffix(".tif") || path.hasSuffix(".tiff"), let b = Manifest.bytes(path), b.count > 8,
              b[2] == 42 || b[3] == 42 else { return nil }
        let little = b[0] == 0x49
        func u(_ at: Int, _ n: Int) -> Int? {
            guard at >= 0, at + n <= b.count else { return nil }
            return (0..<n).reduce(0) { $0 | Int(b[at + (little ? $1 : n - 1 - $1)]) << (8 * $1) }
        }
        guard let ifd = u(4, 4), let count = u(ifd, 2) else { return nil }
        for i in 0..<count {
            guard let tag = u(ifd + 2 + 12 * i, 2) else { return nil }
            if tag == 259 { return u(ifd + 2 + 12 * i + 8, 2) }
        }
        return nil
    }
}
