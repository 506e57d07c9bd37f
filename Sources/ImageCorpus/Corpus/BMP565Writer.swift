import ImageCore

/// Writes 16-bit BMPs with the R5 G6 B5 bit fields (BI_BITFIELDS, masks F800 / 07E0 / 001F),
/// which ImageCodecs' BMP encoder does not produce (it writes 5-5-5).
///
/// Layout (Microsoft "Bitmap Storage"): BITMAPFILEHEADER (14 bytes), BITMAPINFOHEADER
/// (40 bytes, biCompression = 3), the three DWORD masks, then bottom-up rows of little-endian
/// 16-bit words padded to 4 bytes.
public enum BMP565Writer {
    /// Encodes `bitmap` (any format; alpha is dropped): each straight channel value v in 0…1
    /// rounded half up to 5, 6, 5 bits, `round(v · 31)`, `round(v · 63)`, `round(v · 31)`.
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let w = bitmap.width, h = bitmap.height
        let rowBytes = (w * 2 + 3) / 4 * 4
        let pixelOffset = 14 + 40 + 12
        let fileSize = pixelOffset + rowBytes * h
        var out: [UInt8] = []
        out.reserveCapacity(fileSize)
        func u16(_ v: Int) { out.append(UInt8(v & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)) }
        func u32(_ v: Int) { for k in 0..<4 { out.append(UInt8((v >> (8 * k)) & 0xFF)) } }
        out += Array("BM".utf8)
        u32(fileSize); u32(0); u32(pixelOffset)
        u32(40); u32(w); u32(h); u16(1); u16(16); u32(3); u32(rowBytes * h); u32(2835); u32(2835); u32(0); u32(0)
        u32(0xF800); u32(0x07E0); u32(0x001F)
        for y in stride(from: h - 1, through: 0, by: -1) {
            let row = bitmap.straightRGBARow(y)
            for x in 0..<w {
                func q(_ v: Double, _ m: Double) -> Int { Int((min(max(v, 0), 1) * m + 0.5).rounded(.down)) }
                u16(q(row[x * 4], 31) << 11 | q(row[x * 4 + 1], 63) << 5 | q(row[x * 4 + 2], 31))
            }
            for _ in 0..<(rowBytes - w * 2) { out.append(0) }
        }
        return out
    }
}
