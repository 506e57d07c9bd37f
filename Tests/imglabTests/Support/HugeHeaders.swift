/// Minimal files in each container whose headers declare an enormous image, built byte by
/// byte from the format specifications. Only the header is meaningful; the pixel data is absent.
enum HugeHeaders {
    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// PNG: IHDR 8-bit RGBA, then a tiny IDAT (a zlib stream of one empty stored block) and IEND.
    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + pngChunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
            + pngChunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01])
            + pngChunk("IEND", [])
    }

    /// JPEG: SOI, a quantisation table, SOF0 (3 components, 8-bit) and a Huffman-less SOS, EOI.
    /// SOF stores 16-bit sizes, so the largest declarable image is 65535×65535.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        let dqt: [UInt8] = [0xFF, 0xDB] + be16(67) + [0] + [UInt8](repeating: 1, count: 64)
        let sof: [UInt8] = [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]
        return [0xFF, 0xD8] + dqt + sof + [0xFF, 0xD9]
    }

    /// GIF: logical screen and one image descriptor of the given size (16-bit, so ≤ 65535), a
    /// 2-entry global palette, and a truncated LZW stream.
    static func gif(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0] + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    /// TIFF (little-endian): one IFD with width, height (LONG), 8-bit RGB, one strip at offset 8.
    static func tiff(width: Int, height: Int) -> [UInt8] {
        let entries: [(tag: Int, type: Int, value: Int)] = [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 2),
            (273, 4, 8), (277, 3, 3), (278, 4, height), (279, 4, width * 3), (284, 3, 1),
        ]
        var ifd = le16(entries.count)
        for e in entries {
            ifd += le16(e.tag) + le16(e.type) + le32(e.type == 3 && e.tag == 258 ? 3 : 1)
            ifd += e.type == 3 ? le16(e.value) + [0, 0] : le32(e.value)
        }
        ifd += le32(0)
        // BitsPerSample with count 3 needs an offset; point it at three SHORTs after the IFD.
        let ifdOffset = 16
        let bpsOffset = ifdOffset + ifd.count
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(ifdOffset) + [UInt8](repeating: 0, count: 8)
        var patched = ifd
        let bpsEntry = 2 + 12 * 2 + 8
        patched.replaceSubrange(bpsEntry..<(bpsEntry + 4), with: le32(bpsOffset))
        out += patched + le16(8) + le16(8) + le16(8)
        return out
    }

    /// BMP: BITMAPINFOHEADER, 24-bit, bottom-up, no pixel data.
    static func bmp(width: Int, height: Int) -> [UInt8] {
        let header = le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(0)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Array("BM".utf8) + le32(14 + 40) + le32(0) + le32(14 + 40) + header
    }
}
