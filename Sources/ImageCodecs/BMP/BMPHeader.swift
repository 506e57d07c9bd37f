import ImageCore

/// The file header and DIB header of a BMP, validated, with the palette and channel masks.
///
/// Header kinds are told apart by their size field: 12 (BITMAPCOREHEADER, OS/2 1.x), 40
/// (BITMAPINFOHEADER), 52 / 56 (V2 / V3: INFO plus RGB / RGBA masks), 108 (V4), 124 (V5), and
/// 16…64 otherwise (OS/2 2.x BITMAPINFOHEADER2, whose fields past the declared size read as 0).
struct BMPHeader: Sendable {
    /// Which DIB header the file uses.
    enum Kind: Sendable {
        case core, os2v2, info, v2, v3, v4, v5
    }

    /// Pixel storage (`biCompression`), with the OS/2 2.x meanings of 3 and 4.
    enum Compression: Sendable, Equatable {
        case rgb, rle8, rle4, bitfields, alphaBitfields, jpeg, png, huffman1D, rle24
    }

    var kind: Kind
    var headerSize: Int
    /// Offset of the pixel data from the start of the file (`bfOffBits`).
    var pixelOffset: Int
    var width: Int
    /// Rows, always positive; see ``topDown``.
    var height: Int
    /// Whether the first stored row is the top one (negative `biHeight`).
    var topDown: Bool
    /// Bits per pixel (`biBitCount`).
    var bitCount: Int
    var compression: Compression
    /// The colour table (opaque entries), only for 1…8-bit images; at most 2^bitCount entries.
    var palette: [Palette.Entry]
    /// Channel masks over the little-endian pixel word (16 and 32-bit images).
    var masks: BMPChannelMasks?
    /// `bV4CSType` as four characters ("sRGB", "Win ", "MBED", "LINK"), when the header has it.
    var colorSpaceType: String?
    /// The embedded ICC profile of a V5 header with `PROFILE_EMBEDDED`.
    var iccProfile: [UInt8]?
    /// Broken metadata that was dropped (an embedded profile that lies outside the file).
    var warnings: [String] = []

    /// Bytes of one stored row of uncompressed pixels, padded to 4 bytes.
    var storedRowBytes: Int { (width * bitCount + 31) / 32 * 4 }

    var headerName: String {
        switch kind {
        case .core: return "BITMAPCOREHEADER (OS/2 1.x, 12 bytes)"
        case .os2v2: return "OS/2 2.x BITMAPINFOHEADER2 (\(headerSize) bytes)"
        case .info: return "BITMAPINFOHEADER (40 bytes)"
        case .v2: return "BITMAPV2INFOHEADER (52 bytes)"
        case .v3: return "BITMAPV3INFOHEADER (56 bytes)"
        case .v4: return "BITMAPV4HEADER (108 bytes)"
        case .v5: return "BITMAPV5HEADER (124 bytes)"
        }
    }

    var compressionName: String {
        switch compression {
        case .rgb: return "BI_RGB"
        case .rle8: return "BI_RLE8"
        case .rle4: return "BI_RLE4"
        case .bitfields: return "BI_BITFIELDS"
        case .alphaBitfields: return "BI_ALPHABITFIELDS"
        case .jpeg: return "BI_JPEG"
        case .png: return "BI_PNG"
        case .huffman1D: return "OS/2 Huffman 1D"
        case .rle24: return "OS/2 RLE24"
        }
    }

    /// Parses and validates everything but the pixels; checks `limits` against the size.
    init(parsing bytes: [UInt8], limits: DecodeLimits) throws(DecodeError) {
        var r = ByteReader(bytes, container: .bmp, littleEndian: true)
        guard try r.u8("signature") == 0x42, try r.u8("signature") == 0x4D else {
            throw .malformed(.bmp, reason: "signature is not \"BM\"", offset: 0)
        }
        _ = try r.u32("bfSize")  // often wrong in the wild; the real length is what counts
        _ = try r.u32("bfReserved")
        pixelOffset = Int(try r.u32("bfOffBits"))
        headerSize = Int(try r.u32("DIB header size"))
        guard headerSize >= 12, headerSize <= bytes.count - 14 else {
            throw .malformed(.bmp, reason: "DIB header size \(headerSize) does not fit a \(bytes.count)-byte file", offset: 14)
        }
        switch headerSize {
        case 12: kind = .core
        case 40: kind = .info
        case 52: kind = .v2
        case 56: kind = .v3
        case 108: kind = .v4
        case 124: kind = .v5
        case 16...64: kind = .os2v2
        default: throw .unsupported(.bmp, feature: "DIB header of \(headerSize) bytes")
        }
        // Fields past an OS/2 2.x header's declared size are zero (the format allows truncation).
        var field = Array(bytes[18..<(14 + headerSize)])
        if kind == .os2v2 { field += [UInt8](repeating: 0, count: 64 - field.count) }
        var h = ByteReader(field, container: .bmp, littleEndian: true)
        let rawWidth: Int, rawHeight: Int, planes: Int
        var compressionCode = 0, colorsUsed = 0
        if kind == .core {
            rawWidth = Int(try h.u16("bcWidth")); rawHeight = Int(try h.u16("bcHeight"))
            planes = Int(try h.u16("bcPlanes")); bitCount = Int(try h.u16("bcBitCount"))
        } else {
            rawWidth = Int(Int32(bitPattern: try h.u32("biWidth")))
            rawHeight = Int(Int32(bitPattern: try h.u32("biHeight")))
            planes = Int(try h.u16("biPlanes")); bitCount = Int(try h.u16("biBitCount"))
            compressionCode = Int(try h.u32("biCompression"))
            _ = try h.u32("biSizeImage"); _ = try h.u32("biXPelsPerMeter"); _ = try h.u32("biYPelsPerMeter")
            colorsUsed = Int(try h.u32("biClrUsed"))
        }
        _ = planes  // bmpsuite b/badplanes: readers ignore it, as Windows does
        guard rawWidth > 0 else { throw .malformed(.bmp, reason: "width \(rawWidth) is not positive", offset: 18) }
        guard rawHeight != 0 else { throw .malformed(.bmp, reason: "height is 0", offset: 22) }
        width = rawWidth
        height = abs(rawHeight)
        topDown = rawHeight < 0
        try limits.check(width: width, height: height)

        switch (compressionCode, kind) {
        case (0, _): compression = .rgb
        case (1, _): compression = .rle8
        case (2, _): compression = .rle4
        case (3, .os2v2): compression = .huffman1D
        case (3, _): compression = .bitfields
        case (4, .os2v2): compression = .rle24
        case (4, _): compression = .jpeg
        case (5, _): compression = .png
        case (6, _): compression = .alphaBitfields
        default: throw .malformed(.bmp, reason: "unknown compression \(compressionCode)", offset: 30)
        }
        switch compression {
        case .jpeg, .png:
            throw .unsupported(.bmp, feature: "embedded \(compression == .jpeg ? "JPEG" : "PNG") image (\(compression == .jpeg ? "BI_JPEG" : "BI_PNG"))")
        case .huffman1D:
            throw .unsupported(.bmp, feature: "OS/2 Huffman 1D compression")
        default: break
        }
        let validDepths: [Compression: Set<Int>] = [
            .rgb: [1, 2, 4, 8, 16, 24, 32], .rle8: [8], .rle4: [4], .rle24: [24],
            .bitfields: [16, 32], .alphaBitfields: [16, 32],
        ]
        guard validDepths[compression]?.contains(bitCount) == true else {
            throw .malformed(.bmp, reason: "\(bitCount) bits per pixel with compression \(compressionCode)", offset: 28)
        }
        if topDown, [.rle4, .rle8, .rle24].contains(compression) {
            throw .malformed(.bmp, reason: "a compressed bitmap cannot be top-down (negative height)", offset: 22)
        }

        // Masks: inside V2+ headers, else right after a 40-byte header for the BITFIELDS kinds.
        var paletteStart = 14 + headerSize
        masks = nil
        if bitCount == 16 || bitCount == 32 {
            if compression == .bitfields || compression == .alphaBitfields {
                var m = ByteReader(bytes, container: .bmp, offset: 14 + 40, littleEndian: true)
                let red = try m.u32("red mask"), green = try m.u32("green mask"), blue = try m.u32("blue mask")
                var alpha: UInt32 = 0
                if headerSize >= 56 || compression == .alphaBitfields { alpha = try m.u32("alpha mask") }
                if headerSize == 40 || kind == .os2v2 { paletteStart = max(paletteStart, m.offset) }
                masks = try BMPChannelMasks(red: red, green: green, blue: blue, alpha: alpha, bitCount: bitCount)
            } else {
                masks = bitCount == 16 ? .rgb555 : .xrgb8888
            }
        }

        // The colour table: 4-byte entries (3 for OS/2 1.x), B, G, R(, reserved).
        let entrySize = kind == .core ? 3 : 4
        palette = []
        if bitCount <= 8 {
            var count = colorsUsed
            if count == 0 {
                count = 1 << bitCount
                // A table without a declared count ends where the pixels start (bmpsuite pal8os2sp).
                if pixelOffset > paletteStart { count = min(count, (pixelOffset - paletteStart) / entrySize) }
            }
            let (tableBytes, overflow) = count.multipliedReportingOverflow(by: entrySize)
            guard !overflow, count >= 1, tableBytes <= bytes.count - paletteStart else {
                throw .malformed(.bmp, reason: "colour table of \(colorsUsed == 0 ? count : colorsUsed) entries does not fit the file", offset: 46)
            }
            var p = ByteReader(bytes, container: .bmp, offset: paletteStart, littleEndian: true)
            for _ in 0..<min(count, 1 << bitCount) {
                let b = try p.u8(), g = try p.u8(), red = try p.u8()
                if entrySize == 4 { _ = try p.u8() }
                palette.append(Palette.Entry(red: red, green: g, blue: b))
            }
        }

        guard pixelOffset >= 14 + 12, pixelOffset < bytes.count else {
            throw .malformed(.bmp, reason: "pixel data offset \(pixelOffset) is outside the \(bytes.count)-byte file", offset: 10)
        }

        colorSpaceType = nil
        iccProfile = nil
        if headerSize >= 108 {
            let cs = Array(bytes[(14 + 56)..<(14 + 60)])
            colorSpaceType = String(decoding: cs.reversed(), as: UTF8.self)
            if headerSize >= 124, colorSpaceType == "MBED" {
                var v = ByteReader(bytes, container: .bmp, offset: 14 + 112, littleEndian: true)
                let start = 14 + Int(try v.u32("bV5ProfileData")), size = Int(try v.u32("bV5ProfileSize"))
                if size > 0, start <= bytes.count, size <= bytes.count - start {
                    iccProfile = Array(bytes[start..<(start + size)])
                } else {
                    warnings.append("BMP embedded ICC profile ignored: \(size) bytes at byte \(start) lie outside the \(bytes.count)-byte file")
                }
            }
        }
    }
}
