/// The run-length encodings of BMP: BI_RLE8, BI_RLE4 and OS/2 RLE24.
///
/// A stream of runs, always bottom-up: `n v` repeats a pixel n times (RLE4 alternates the two
/// nibbles of v; RLE24 follows n with three bytes B, G, R); `0 0` ends the line, `0 1` ends
/// the bitmap, `0 2 dx dy` moves right dx and up dy, `0 c` is c literal pixels padded to an
/// even byte count. Pixels a run puts past the row's end are dropped; pixels no run reaches
/// (skipped by a delta, an early end of line or bitmap, or a truncated stream) are left to
/// the caller, which makes them transparent as bmpsuite documents.
enum BMPRunLength {
    /// Walks the runs from `offset`, calling `emit(x, y, value)` for every pixel inside the
    /// bitmap, with `y` counted from the top. `value` is the palette index, or `0xRRGGBB` for
    /// RLE24. Stops at end of bitmap, after the last row, or where the data runs out; every
    /// step consumes input, so the walk is bounded by the file's length.
    static func walk(_ bytes: [UInt8], from offset: Int, header: BMPHeader, emit: (Int, Int, UInt32) -> Void) {
        let w = header.width, h = header.height
        let compression = header.compression
        var i = offset, x = 0, y = 0
        func put(_ value: UInt32) {
            if x < w { emit(x, h - 1 - y, value) }
            x += 1
        }
        func color(at j: Int) -> UInt32 {
            UInt32(bytes[j + 2]) << 16 | UInt32(bytes[j + 1]) << 8 | UInt32(bytes[j])
        }
        while y < h, i < bytes.count {
            let n = Int(bytes[i])
            if n > 0 {
                switch compression {
                case .rle24:
                    guard i + 4 <= bytes.count else { return }
                    let c = color(at: i + 1)
                    for _ in 0..<n { put(c) }
                    i += 4
                case .rle4:
                    guard i + 2 <= bytes.count else { return }
                    let v = bytes[i + 1]
                    for k in 0..<n { put(UInt32(k % 2 == 0 ? v >> 4 : v & 0x0F)) }
                    i += 2
                default:
                    guard i + 2 <= bytes.count else { return }
                    let v = UInt32(bytes[i + 1])
                    for _ in 0..<n { put(v) }
                    i += 2
                }
                continue
            }
            guard i + 2 <= bytes.count else { return }
            let escape = Int(bytes[i + 1])
            i += 2
            switch escape {
            case 0:
                x = 0; y += 1
            case 1:
                return
            case 2:
                guard i + 2 <= bytes.count else { return }
                x += Int(bytes[i]); y += Int(bytes[i + 1])
                i += 2
            default:
                let count = escape
                let dataBytes: Int
                switch compression {
                case .rle24: dataBytes = count * 3
                case .rle4: dataBytes = (count + 1) / 2
                default: dataBytes = count
                }
                guard i + dataBytes <= bytes.count else { return }
                for k in 0..<count {
                    switch compression {
                    case .rle24: put(color(at: i + k * 3))
                    case .rle4: put(UInt32(k % 2 == 0 ? bytes[i + k / 2] >> 4 : bytes[i + k / 2] & 0x0F))
                    default: put(UInt32(bytes[i + k]))
                    }
                }
                i += (dataBytes + 1) & ~1
            }
        }
    }
}
