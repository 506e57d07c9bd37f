extension Bitmap {
    /// How many samples of a 32-bit float bitmap are NaN or ±∞ (0 for any other format),
    /// read in the format's byte order: IEEE 754 binary32 values whose exponent bits are all ones.
    public var nonFiniteSampleCount: Int {
        guard format.isFloat, format.bitsPerComponent == 32 else { return 0 }
        let swapped = format.wordSwap == 4
        let rowBytes = width * format.slotCount * 4
        var count = 0
        bytes.withUnsafeBufferPointer { buf in
            for y in 0..<height {
                let start = y * bytesPerRow
                for i in Swift.stride(from: start, to: start + rowBytes, by: 4) {
                    // The exponent's 8 bits straddle the word's two most significant bytes.
                    let (high, next) = swapped ? (buf[i + 3], buf[i + 2]) : (buf[i], buf[i + 1])
                    if high & 0x7F == 0x7F && next & 0x80 == 0x80 { count += 1 }
                }
            }
        }
        return count
    }

    /// The warning a decoder records for a float image holding `count` NaN or infinite samples.
    public static func nonFiniteWarning(_ count: Int) -> String {
        "\(count) float sample\(count == 1 ? " is" : "s are") NaN or infinite: NaN reads as 0, +∞ as 1, −∞ as 0"
    }
}
