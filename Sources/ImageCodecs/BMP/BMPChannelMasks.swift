import ImageCore

/// The red, green, blue and alpha bit fields of a 16 or 32-bit BMP pixel, read as a
/// little-endian word (BI_BITFIELDS / BI_ALPHABITFIELDS masks, or the BI_RGB defaults).
struct BMPChannelMasks: Hashable, Sendable {
    /// One contiguous bit field.
    struct Field: Hashable, Sendable {
        /// The mask over the pixel word; 0 when the channel is absent.
        let mask: UInt32
        /// Position of the field's lowest bit.
        let shift: UInt32
        /// The field's largest value, `2^bits − 1` (0 when absent).
        let maximum: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask >> shift
        }

        /// Bits in the field.
        var bits: Int { mask.nonzeroBitCount }

        /// Whether the set bits form one run (a valid mask).
        var isContiguous: Bool { maximum & (maximum &+ 1) == 0 }

        /// The field of `word` scaled exactly to 8 bits: `round(v · 255 / max)`; 0 when absent.
        func eightBit(_ word: UInt32) -> UInt8 {
            guard maximum > 0 else { return 0 }
            let v = UInt64((word & mask) >> shift), m = UInt64(maximum)
            return UInt8((v * 510 + m) / (2 * m))
        }

        /// The byte (0…3, little-endian) the field fills exactly, if it is one whole byte.
        var wholeByte: Int? {
            guard maximum == 0xFF, shift % 8 == 0 else { return nil }
            return Int(shift / 8)
        }
    }

    let red: Field, green: Field, blue: Field, alpha: Field

    /// The BI_RGB 16-bit layout: x-RRRRR-GGGGG-BBBBB.
    static let rgb555 = BMPChannelMasks(uncheckedRed: 0x7C00, green: 0x03E0, blue: 0x001F, alpha: 0)
    /// The BI_RGB 32-bit layout: bytes B, G, R, unused.
    static let xrgb8888 = BMPChannelMasks(uncheckedRed: 0xFF0000, green: 0xFF00, blue: 0xFF, alpha: 0)

    private init(uncheckedRed red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        self.red = Field(red); self.green = Field(green); self.blue = Field(blue); self.alpha = Field(alpha)
    }

    /// Validates masks from the file: each contiguous, inside the pixel, not overlapping.
    init(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32, bitCount: Int) throws(DecodeError) {
        self.init(uncheckedRed: red, green: green, blue: blue, alpha: alpha)
        let limit: UInt32 = bitCount == 32 ? .max : (1 << UInt32(bitCount)) - 1
        for (name, field) in [("red", self.red), ("green", self.green), ("blue", self.blue), ("alpha", self.alpha)] {
            guard field.isContiguous else {
                throw .malformed(.bmp, reason: "\(name) mask 0x\(String(field.mask, radix: 16)) is not one run of bits", offset: 54)
            }
            guard field.mask & ~limit == 0 else {
                throw .malformed(.bmp, reason: "\(name) mask 0x\(String(field.mask, radix: 16)) lies outside a \(bitCount)-bit pixel", offset: 54)
            }
        }
        let fields = [self.red.mask, self.green.mask, self.blue.mask, self.alpha.mask]
        for i in 0..<4 { for j in (i + 1)..<4 where fields[i] & fields[j] != 0 {
            throw .malformed(.bmp, reason: "channel masks overlap (0x\(String(fields[i], radix: 16)) and 0x\(String(fields[j], radix: 16)))", offset: 54)
        } }
        guard red.nonzeroBitCount + green.nonzeroBitCount + blue.nonzeroBitCount > 0 else {
            throw .malformed(.bmp, reason: "all colour masks are zero", offset: 54)
        }
    }

    var description: String {
        "R 0x\(String(red.mask, radix: 16)), G 0x\(String(green.mask, radix: 16)), B 0x\(String(blue.mask, radix: 16)), A 0x\(String(alpha.mask, radix: 16))"
    }
}
