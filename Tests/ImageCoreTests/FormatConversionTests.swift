import Testing
import ImageCore

/// Exact conversions: expected values come from integer arithmetic on the definitions.
@Suite("Format conversion")
struct FormatConversionTests {
    /// Bytes made by `pixel` for each index in `0..<count`.
    static func bytes(_ count: Int, _ pixel: (Int) -> [Int]) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<count { for v in pixel(i) { out.append(UInt8(v)) } }
        return out
    }

    static func row(_ format: PixelFormat, _ bytes: [UInt8], width: Int) throws -> Bitmap {
        try Bitmap(width: width, height: 1, format: format, bytes: bytes)
    }

    @Test("8 → 16 bits multiplies by 257 for every value")
    func widen() throws {
        let gray = try Self.row(.gray8, (0...255).map { UInt8($0) }, width: 256)
        let wide = try gray.converted(to: .gray16)
        for v in 0...255 {
            let w = Int(wide.bytes[2 * v]) << 8 | Int(wide.bytes[2 * v + 1])
            #expect(w == v * 257)
        }
    }

    @Test("16 → 8 bits is the rounded division by 257 for every value")
    func narrow() throws {
        var bytes: [UInt8] = []
        for v in 0...65535 { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let wide = try Self.row(.gray16, bytes, width: 65536)
        let narrow = try wide.converted(to: .gray8)
        for v in 0...65535 {
            // v / 257 never has a fractional part of exactly 1/2 (257 is odd), so (v + 128) / 257 is the rounding.
            #expect(Int(narrow.bytes[v]) == (v + 128) / 257, "value \(v)")
        }
    }

    @Test("premultiplying 8-bit rounds c·a/255 half up, for every (c, a)")
    func premultiply() throws {
        var bytes: [UInt8] = []
        for a in 0...255 { for c in 0...255 { bytes += [UInt8(c), UInt8(c), UInt8(c), UInt8(a)] } }
        let straight = try Self.row(.rgba8, bytes, width: 65536)
        let pre = try straight.converted(to: .rgba8Premultiplied)
        for a in 0...255 {
            for c in 0...255 {
                let i = (a * 256 + c) * 4
                #expect(Int(pre.bytes[i]) == (2 * c * a + 255) / 510, "c \(c) a \(a)")
                #expect(Int(pre.bytes[i + 3]) == a)
            }
        }
    }

    @Test("unpremultiplying 8-bit rounds p·255/a half up, clamped, and α = 0 gives 0")
    func unpremultiply() throws {
        var bytes: [UInt8] = []
        for a in 0...255 { for p in 0...255 { bytes += [UInt8(p), 0, 0, UInt8(a)] } }
        let pre = try Self.row(.rgba8Premultiplied, bytes, width: 65536)
        let straight = try pre.converted(to: .rgba8)
        for a in 0...255 {
            for p in 0...255 {
                let expected = a == 0 ? 0 : min(255, (2 * p * 255 + a) / (2 * a))
                #expect(Int(straight.bytes[(a * 256 + p) * 4]) == expected, "p \(p) a \(a)")
            }
        }
    }

    @Test("straight → premultiplied → straight is lossless where alpha is 255")
    func opaqueRoundTrip() throws {
        let bytes = Self.bytes(256) { [$0, 255 - $0, ($0 * 7) & 255, 255] }
        let img = try Self.row(.rgba8, bytes, width: 256)
        #expect(try img.converted(to: .rgba8Premultiplied).converted(to: .rgba8).bytes == bytes)
    }

    @Test("low bit depths expand exactly: 1-bit × 255, 2-bit × 85, 4-bit × 17")
    func lowDepths() throws {
        for (bits, factor) in [(1, 255), (2, 85), (4, 17)] {
            let count = 1 << bits
            // Pack the values 0..<count MSB-first.
            var bytes = [UInt8](repeating: 0, count: (count * bits + 7) / 8)
            for v in 0..<count { bytes[(v * bits) / 8] |= UInt8(v << (8 - bits - (v * bits) % 8)) }
            let packed = try Self.row(PixelFormat(colorModel: .gray, bitsPerComponent: bits), bytes, width: count)
            let wide = try packed.converted(to: .gray8)
            #expect(wide.bytes == (0..<count).map { UInt8($0 * factor) })
            // And back again, exactly.
            #expect(try wide.converted(to: packed.format).bytes == bytes)
        }
    }

    @Test("a palette expands to its entries, alpha included")
    func paletteExpansion() throws {
        let palette = Palette([.init(red: 255, green: 0, blue: 0), .init(red: 0, green: 0, blue: 255, alpha: 0),
                               .init(red: 1, green: 2, blue: 3, alpha: 128)])
        let format = PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 2)
        // indices 2, 0, 1 → 0b10_00_01_00
        let img = try Self.row(format, [0b1000_0100], width: 3)
        #expect(img.format.hasAlpha)
        #expect(try img.converted(to: .rgba8).bytes == [1, 2, 3, 128, 255, 0, 0, 255, 0, 0, 255, 0])
    }

    @Test("an exact palette is built from the distinct colours and converts back losslessly")
    func exactPalette() throws {
        let bytes: [UInt8] = [9, 9, 9, 255, 1, 2, 3, 0, 9, 9, 9, 255, 4, 5, 6, 77]
        let img = try Self.row(.rgba8, bytes, width: 4)
        let indexed = try img.withExactPalette(bitsPerComponent: 2)
        guard case .indexed(let p) = indexed.format.colorModel else { Issue.record("not indexed"); return }
        #expect(p.count == 3)
        #expect(try indexed.converted(to: .rgba8).bytes == bytes)
        #expect(throws: ConversionError.tooManyColors(count: 3, allowed: 2)) { try img.withExactPalette(bitsPerComponent: 1) }
    }

    @Test("32-bit little-endian ARGB is BGRA in memory")
    func byteOrder32() throws {
        let rgba = try Self.row(.rgba8Premultiplied, [10, 20, 30, 255], width: 1)
        let bgra = try rgba.converted(to: .bgra8Premultiplied)
        #expect(bgra.bytes == [30, 20, 10, 255])
        let xrgbBig = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst)
        #expect(try rgba.converted(to: xrgbBig).bytes == [255, 10, 20, 30])
        #expect(try bgra.converted(to: .rgba8Premultiplied).bytes == [10, 20, 30, 255])
    }

    @Test("16-bit little-endian swaps the bytes of each component")
    func byteOrder16() throws {
        let big = try Self.row(.gray16, [0x12, 0x34], width: 1)
        let little = try big.converted(to: PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16))
        #expect(little.bytes == [0x34, 0x12])
        #expect(try little.converted(to: .gray16).bytes == [0x12, 0x34])
    }

    @Test("the 16-bit 555 layout packs -RRRRRGGGGGBBBBB, 5-bit values scaled by 255/31")
    func rgb555() throws {
        let f555 = PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst)
        #expect(f555.bitsPerPixel == 16)
        // R = 31, G = 1, B = 16 → 0 11111 00001 10000 = 0x7C30
        let img = try Self.row(f555, [0x7C, 0x30], width: 1)
        let rgb = try img.converted(to: .rgb8)
        // round(v · 255 / 31) half up = (2·v·255 + 31) / 62
        let expected: [UInt8] = [255, UInt8((2 * 255 + 31) / 62), UInt8((2 * 16 * 255 + 31) / 62)]
        #expect(rgb.bytes == expected)
        #expect(try rgb.converted(to: f555).bytes == [0xFC, 0x30], "the spare bit is written set, as Quartz fills X")
    }

    @Test("float components round-trip 8-bit values exactly")
    func floats() throws {
        let bytes = Self.bytes(256) { [$0, 255 - $0, 7, $0] }
        let img = try Self.row(.rgba8, bytes, width: 256)
        let f = try img.converted(to: .rgbaFloat)
        #expect(f.format.bitsPerPixel == 128)
        #expect(try f.converted(to: .rgba8).bytes == bytes)
    }

    @Test("CMYK converts by the naive formula; Adobe-inverted CMYK stores 255 − ink")
    func cmyk() throws {
        // C = 0.2·255 = 51, K = 0.5·255 = 127.5 → use K = 102 (0.4): R = 255·0.8·0.6 = 122.4 → 122
        let plain = try Self.row(.cmyk8, [51, 0, 255, 102], width: 1)
        #expect(try plain.converted(to: .rgb8).bytes == [122, 153, 0])
        let adobe = try Self.row(PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8), [204, 255, 0, 153], width: 1)
        #expect(try adobe.converted(to: .rgb8).bytes == [122, 153, 0])
    }

    @Test("gray replicates into RGB and RGB reduces to gray by 0.299/0.587/0.114")
    func grayRGB() throws {
        let g = try Self.row(.gray8, [77], width: 1)
        #expect(try g.converted(to: .rgb8).bytes == [77, 77, 77])
        let c = try Self.row(.rgb8, [255, 0, 0, 0, 255, 0, 0, 0, 255], width: 3)
        // 0.299·255 = 76.245, 0.587·255 = 149.685, 0.114·255 = 29.07
        #expect(try c.converted(to: .gray8).bytes == [76, 150, 29])
    }

    @Test("indexed targets need every colour in the palette")
    func indexedTargetMiss() throws {
        let img = try Self.row(.rgb8, [1, 2, 3], width: 1)
        let palette = Palette([.init(red: 0, green: 0, blue: 0)])
        #expect(throws: ConversionError.colorNotInPalette(x: 0, y: 0)) {
            try img.converted(to: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8))
        }
    }

    @Test("invalid layouts are rejected with the rule they break")
    func invalidFormats() {
        #expect(throws: PixelFormatError.self) { try PixelFormat(colorModel: .rgb, bitsPerComponent: 4).validated() }
        #expect(throws: PixelFormatError.self) { try PixelFormat(colorModel: .rgb, bitsPerComponent: 32).validated() }
        #expect(throws: PixelFormatError.self) {
            try PixelFormat(colorModel: .gray, bitsPerComponent: 8, byteOrder: .little16).validated()
        }
        #expect(throws: PixelFormatError.self) { try Bitmap(width: 2, height: 2, format: .rgb8, bytesPerRow: 5, bytes: []) }
    }

    @Test("row padding is honoured and removed by tightlyPacked")
    func padding() throws {
        let padded = try Bitmap(width: 1, height: 2, format: .gray8, bytesPerRow: 4, bytes: [1, 9, 9, 9, 2, 9, 9, 9])
        #expect(try padded.converted(to: .gray8).bytes == [1, 2])
        #expect(padded.tightlyPacked().bytes == [1, 2])
    }
}

@Suite("Alpha-only bitmaps")
struct AlphaOnlyTests {
    @Test("an alpha-only mask has one component and converts to and from RGBA")
    func alphaOnly() throws {
        let format = PixelFormat(colorModel: .none, bitsPerComponent: 8, alphaInfo: .only)
        #expect(format.slotCount == 1 && format.bitsPerPixel == 8)
        let mask = try Bitmap(width: 3, height: 1, format: format, bytes: [0, 128, 255])
        #expect(try mask.converted(to: .rgba8).bytes == [0, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 255])
        let rgba = try Bitmap(width: 2, height: 1, format: .rgba8, bytes: [9, 9, 9, 7, 1, 2, 3, 200])
        #expect(try rgba.converted(to: format).bytes == [7, 200])
    }
}

@Suite("Packed rows")
struct PackedRowTests {
    @Test("tightlyPacked clears padding bits so equal pixels give equal bytes")
    func paddingBitsCleared() throws {
        // 3 pixels of 1-bit gray use the top 3 bits; the low 5 bits are padding.
        let a = try Bitmap(width: 3, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 1), bytes: [0b1010_0000])
        let b = try Bitmap(width: 3, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 1), bytes: [0b1011_1111])
        #expect(a != b)
        #expect(a.tightlyPacked() == b.tightlyPacked())
        #expect(b.tightlyPacked().bytes == [0b1010_0000])
    }
}
