/// A device-independent bitmap without its 14-byte `BITMAPFILEHEADER`: what the Windows
/// clipboard holds as `CF_DIB` and what `.dib` files saved from it contain. It starts with the
/// DIB header itself, whose first field is its own size.
///
/// Recognised (``ContainerFormat/init(sniffing:)``) by that size field and the fields a real
/// header cannot get wrong: size 12 (BITMAPCOREHEADER) with 1 plane and 1/4/8/24 bits, or 40,
/// 52, 56, 64, 108 or 124 with a positive width, a non-zero height, 1 plane, 1…32 bits per
/// pixel and a compression code 0…6. It is then read as a BMP whose file header is rebuilt:
/// the pixels start after the DIB header, the BI_BITFIELDS masks of a 40-byte header, and the
/// colour table (`biClrUsed` entries, or 2^bits when that is 0 and bits ≤ 8). Byte offsets in
/// error messages then count the rebuilt 14 bytes.
enum BMPHeaderlessDIB {
    /// Bytes the recogniser needs.
    static let sniffLength = 20

    /// Whether `head` (the file's first bytes) starts with a plausible DIB header.
    static func matches(_ head: [UInt8]) -> Bool {
        guard head.count >= 12 else { return false }
        let size = u32(head, 0)
        if size == 12 {
            return u16(head, 4) > 0 && u16(head, 6) > 0 && u16(head, 8) == 1 && [1, 4, 8, 24].contains(u16(head, 10))
        }
        guard [40, 52, 56, 64, 108, 124].contains(size), head.count >= sniffLength else { return false }
        let width = Int32(bitPattern: UInt32(u32(head, 4))), height = Int32(bitPattern: UInt32(u32(head, 8)))
        return width > 0 && height != 0 && u16(head, 12) == 1
            && [1, 2, 4, 8, 16, 24, 32].contains(u16(head, 14)) && u32(head, 16) <= 6
    }

    /// `dib` with a `BITMAPFILEHEADER` in front, or `nil` when it does not look like a DIB.
    static func withFileHeader(_ dib: [UInt8]) -> [UInt8]? {
        guard matches(Array(dib.prefix(sniffLength))) else { return nil }
        let size = u32(dib, 0)
        var offset = 14 + size
        if size != 12, dib.count >= 36 {
            let bits = u16(dib, 14), compression = u32(dib, 16), colorsUsed = u32(dib, 32)
            if size == 40, compression == 3 { offset += 12 }       // BI_BITFIELDS: R, G, B masks
            if size == 40, compression == 6 { offset += 16 }       // BI_ALPHABITFIELDS: and A
            let entries = colorsUsed != 0 ? min(colorsUsed, 1 << 16) : (bits <= 8 ? 1 << bits : 0)
            offset += entries * 4
        } else if size == 12 {
            let bits = u16(dib, 10)
            if bits <= 8 { offset += (1 << bits) * 3 }
        }
        let total = dib.count + 14
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return Array("BM".utf8) + le32(total) + le32(0) + le32(offset) + dib
    }

    private static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }
}
