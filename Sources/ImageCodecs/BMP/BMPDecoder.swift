import Foundation
import ImageCore

/// Turns a parsed ``BMPHeader`` and the file's bytes into a bitmap in the most exact format.
///
/// - 1/2/4/8-bit palettes: `.indexed` at the stored depth, rows copied as stored.
/// - 16-bit x-555 (BI_RGB, or masks 7C00/03E0/001F with no or a 1-bit alpha mask):
///   5-bit `.noneSkipFirst` `.little16`, copied. 16-bit files never get alpha from a 1-bit
///   mask (Pillow's and browsers' reading of the bmpsuite 5551 files); wider alpha masks count.
/// - 24-bit: `.rgb8`, B and G and R reordered.
/// - 32-bit whose R, G, B (and alpha, or the unused byte) are whole bytes in one of the
///   Quartz orders: copied with the matching `alphaInfo` / `byteOrder` (BGRX → `.noneSkipFirst`
///   `.little32`, BGRA → `.first` `.little32`, RGBA → `.last`, …). BI_RGB 32-bit has no alpha.
/// - Any other masks (565, 4444, 1010102, 61754, …): each field scaled exactly to 8 bits,
///   `round(v · 255 / max)`, into `.rgb8`, or `.rgba8` when the alpha mask counts.
///   Alpha counts only with BI_BITFIELDS / BI_ALPHABITFIELDS and a non-zero alpha mask.
/// - RLE4 / RLE8: `.indexed` at the stored depth when every pixel is written; when runs skip
///   pixels, a transparent entry is added to the palette for them (8-bit indices if it no
///   longer fits the stored depth), or, with a full 256-entry palette or indices past the
///   table, `.rgba8` with the skipped pixels transparent. RLE24: `.rgb8`, or `.rgba8` with gaps.
enum BMPDecoder {
    /// How the pixels are delivered.
    enum Layout {
        /// Stored rows copied as they are.
        case copied(PixelFormat)
        /// 24-bit BGR reordered to RGB.
        case reorderedBGR
        /// 16/32-bit fields scaled to 8 bits.
        case expanded(hasAlpha: Bool)
        /// Run-length data: `format`, and the index given to skipped pixels when indexed.
        case runLength(PixelFormat, gapIndex: UInt8?)

        var format: PixelFormat {
            switch self {
            case .copied(let f), .runLength(let f, _): return f
            case .reorderedBGR: return .rgb8
            case .expanded(let hasAlpha): return hasAlpha ? .rgba8 : .rgb8
            }
        }
    }

    /// Decides the layout; for run-length data this walks the runs once without storing pixels.
    /// - Throws: ``DecodeError/truncated(_:reason:offset:)`` when the runs write fewer than
    ///   `limits.minimumRunLengthCoverage` of the pixels (a stream that ends, or skips, before
    ///   then is taken for a truncated file or a bomb, not for an image of skipped pixels).
    static func layout(of header: BMPHeader, bytes: [UInt8], limits: DecodeLimits) throws(DecodeError) -> Layout {
        let indexed = PixelFormat(colorModel: .indexed(Palette(header.palette)), bitsPerComponent: header.bitCount)
        switch header.compression {
        case .rle4, .rle8, .rle24:
            var covered = 0
            var largest: UInt32 = 0
            BMPRunLength.walk(bytes, from: header.pixelOffset, header: header) { _, _, value in
                covered += 1
                largest = max(largest, value)
            }
            let pixels = header.width * header.height
            if Double(covered) < limits.minimumRunLengthCoverage * Double(pixels) {
                let share = Double(covered) / Double(pixels) * 100
                throw .truncated(.bmp, reason: "the run-length data writes \(covered) of \(header.width)×\(header.height) = \(pixels) pixels (\(String(format: "%.2f", share))%), less than the \(String(format: "%g", limits.minimumRunLengthCoverage * 100))% DecodeLimits.minimumRunLengthCoverage requires", offset: header.pixelOffset)
            }
            let gaps = covered < pixels
            if header.compression == .rle24 { return .runLength(gaps ? .rgba8 : .rgb8, gapIndex: nil) }
            if !gaps { return .runLength(indexed, gapIndex: nil) }
            let count = header.palette.count
            guard count < 256, Int(largest) < count else { return .runLength(.rgba8, gapIndex: nil) }
            var entries = header.palette
            entries.append(Palette.Entry(red: 0, green: 0, blue: 0, alpha: 0))
            let bits = entries.count <= 1 << header.bitCount ? header.bitCount : 8
            return .runLength(PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: bits), gapIndex: UInt8(count))
        default:
            break
        }
        switch header.bitCount {
        case 1, 2, 4, 8: return .copied(indexed)
        case 24: return .reorderedBGR
        default: break
        }
        let masks = header.masks ?? (header.bitCount == 16 ? .rgb555 : .xrgb8888)
        let alphaCounts = (header.compression == .bitfields || header.compression == .alphaBitfields)
            && masks.alpha.mask != 0 && !(header.bitCount == 16 && masks.alpha.bits == 1)
        if header.bitCount == 16 {
            if masks.red.mask == 0x7C00, masks.green.mask == 0x03E0, masks.blue.mask == 0x001F, !alphaCounts {
                return .copied(PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst, byteOrder: .little16))
            }
            return .expanded(hasAlpha: alphaCounts)
        }
        if let r = masks.red.wholeByte, let g = masks.green.wholeByte, let b = masks.blue.wholeByte {
            // The fourth byte holds alpha when it counts, else it is padding.
            let a = alphaCounts ? masks.alpha.wholeByte : 6 - r - g - b
            if let a, Set([r, g, b, a]) == [0, 1, 2, 3] {
                let withAlpha: (first: AlphaInfo, last: AlphaInfo) = alphaCounts ? (.first, .last) : (.noneSkipFirst, .noneSkipLast)
                // Memory byte orders Quartz can name: RGBA, ARGB (default order), BGRA, ABGR (32-bit little).
                switch (r, g, b, a) {
                case (0, 1, 2, 3): return .copied(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: withAlpha.last))
                case (1, 2, 3, 0): return .copied(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: withAlpha.first))
                case (2, 1, 0, 3): return .copied(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: withAlpha.first, byteOrder: .little32))
                case (3, 2, 1, 0): return .copied(PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: withAlpha.last, byteOrder: .little32))
                default: break
                }
            }
        }
        return .expanded(hasAlpha: alphaCounts)
    }

    /// Produces the bitmap for `layout`, spending `limits` on it first.
    static func bitmap(_ header: BMPHeader, layout: Layout, bytes: [UInt8], limits: inout DecodeLimits) throws(DecodeError) -> Bitmap {
        let w = header.width, h = header.height
        let format = layout.format
        let outRow = format.minimumBytesPerRow(width: w)
        if case .runLength(_, let gapIndex) = layout {
            return try runLengthBitmap(header, format: format, gapIndex: gapIndex, bytes: bytes, limits: &limits)
        }
        // Uncompressed: the stored rows must all be there (the last one may lack its padding).
        let stride = header.storedRowBytes
        let lastRow = (w * header.bitCount + 7) / 8
        let needed = stride * (h - 1) + lastRow
        guard needed <= bytes.count - header.pixelOffset else {
            throw .truncated(.bmp, reason: "\(h) rows of \(stride) bytes need \(needed) bytes of pixels, \(bytes.count - header.pixelOffset) present",
                             offset: header.pixelOffset)
        }
        try limits.reserve(bytes: outRow * h)
        var out = [UInt8](repeating: 0, count: outRow * h)
        bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                for y in 0..<h {
                    let src = header.pixelOffset + (header.topDown ? y : h - 1 - y) * stride
                    let dst = y * outRow
                    convertRow(header, layout: layout, from: UnsafeRawBufferPointer(rebasing: source[src..<(src + lastRow)]),
                               into: UnsafeMutableRawBufferPointer(rebasing: destination[dst..<(dst + outRow)]))
                }
            }
        }
        return Bitmap(uncheckedWidth: w, height: h, format: format, bytesPerRow: outRow, bytes: out)
    }

    /// One uncompressed stored row (`source`: at least the row's pixel bytes, padding not
    /// needed) in the layout's delivered format (`destination`: one delivered row).
    static func convertRow(_ header: BMPHeader, layout: Layout, from source: UnsafeRawBufferPointer,
                           into destination: UnsafeMutableRawBufferPointer) {
        let w = header.width
        switch layout {
        case .copied:
            destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<destination.count]))
        case .reorderedBGR:
            for x in 0..<w {
                destination[x * 3] = source[x * 3 + 2]
                destination[x * 3 + 1] = source[x * 3 + 1]
                destination[x * 3 + 2] = source[x * 3]
            }
        case .expanded(let hasAlpha):
            let masks = header.masks ?? .xrgb8888
            let channels = hasAlpha ? 4 : 3
            let bytesPerPixel = header.bitCount / 8
            for x in 0..<w {
                var word: UInt32 = 0
                for k in 0..<bytesPerPixel { word |= UInt32(source[x * bytesPerPixel + k]) << (8 * UInt32(k)) }
                let o = x * channels
                destination[o] = masks.red.eightBit(word)
                destination[o + 1] = masks.green.eightBit(word)
                destination[o + 2] = masks.blue.eightBit(word)
                if hasAlpha { destination[o + 3] = masks.alpha.eightBit(word) }
            }
        case .runLength:
            break
        }
    }

    static func runLengthBitmap(_ header: BMPHeader, format: PixelFormat, gapIndex: UInt8?, bytes: [UInt8],
                                limits: inout DecodeLimits) throws(DecodeError) -> Bitmap {
        let w = header.width, h = header.height
        let outRow = format.minimumBytesPerRow(width: w)
        if case .indexed = format.colorModel {
            try limits.reserve(bytes: w * h + outRow * h)
            var indices = [UInt8](repeating: gapIndex ?? 0, count: w * h)
            BMPRunLength.walk(bytes, from: header.pixelOffset, header: header) { x, y, value in
                indices[y * w + x] = UInt8(truncatingIfNeeded: value)
            }
            let bits = format.bitsPerComponent
            var out = [UInt8](repeating: 0, count: outRow * h)
            for y in 0..<h {
                for x in 0..<w {
                    let bit = x * bits
                    out[y * outRow + bit / 8] |= indices[y * w + x] << UInt8(8 - bits - bit % 8)
                }
            }
            return Bitmap(uncheckedWidth: w, height: h, format: format, bytesPerRow: outRow, bytes: out)
        }
        let channels = format.alphaInfo.hasAlpha ? 4 : 3
        try limits.reserve(bytes: outRow * h)
        var out = [UInt8](repeating: 0, count: outRow * h)
        let palette = header.palette
        BMPRunLength.walk(bytes, from: header.pixelOffset, header: header) { x, y, value in
            let o = y * outRow + x * channels
            if header.compression == .rle24 {
                out[o] = UInt8(value >> 16); out[o + 1] = UInt8((value >> 8) & 0xFF); out[o + 2] = UInt8(value & 0xFF)
            } else if Int(value) < palette.count {
                let e = palette[Int(value)]
                out[o] = e.red; out[o + 1] = e.green; out[o + 2] = e.blue
            }  // an index past the table stays black, as the pixel model reads it
            if channels == 4 { out[o + 3] = 255 }
        }
        return Bitmap(uncheckedWidth: w, height: h, format: format, bytesPerRow: outRow, bytes: out)
    }

    /// What the header says besides pixels.
    static func metadata(of header: BMPHeader, layout: Layout) -> ImageMetadata {
        var properties: [String: String] = [
            "bmp.header": header.headerName,
            "compression": header.compressionName,
            "bmp.rowOrder": header.topDown ? "top-down" : "bottom-up",
        ]
        if let masks = header.masks, header.compression == .bitfields || header.compression == .alphaBitfields {
            properties["bmp.masks"] = masks.description
        }
        if header.bitCount <= 8 { properties["bmp.paletteEntries"] = String(header.palette.count) }
        if let cs = header.colorSpaceType { properties["bmp.colorSpace"] = cs }
        if case .runLength(let format, _) = layout, format.hasAlpha {
            properties["bmp.skippedPixels"] = "transparent (runs leave pixels unset)"
        }
        return ImageMetadata(iccProfile: header.iccProfile, storedBitDepth: header.bitCount, properties: properties,
                             warnings: header.warnings)
    }
}
