extension EXIF {
    /// Why a TIFF-structured EXIF block cannot be read, or `nil` when its structure holds:
    /// a byte-order mark `II`/`MM`, the magic 42, an IFD0 offset inside the block, and IFD0's
    /// entry count, entries and next-IFD offset inside the block (CIPA DC-008 §4.6.2).
    ///
    /// Decoders drop a block with a defect and record the reason as a warning
    /// (``ImageCore/ImageMetadata/warnings``): the pixels do not depend on it.
    /// - Parameter block: starts at the byte-order mark (for JPEG, after `Exif\0\0`).
    public static func defect(in block: [UInt8]) -> String? {
        guard block.count >= 8 else { return "the block is \(block.count) bytes, its TIFF header alone needs 8" }
        let little: Bool
        switch (block[0], block[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return "the block starts with \(hex(block[0])) \(hex(block[1])), not the byte-order mark II or MM"
        }
        var r = ByteReader(block, container: .tiff, littleEndian: little)
        do {
            r.offset = 2
            let magic = try r.u16()
            guard magic == 42 else { return "the TIFF magic number is \(magic), expected 42" }
            let ifd0 = Int(try r.u32())
            guard ifd0 >= 8, ifd0 <= block.count - 2 else {
                return "IFD0 offset \(ifd0) is outside the \(block.count)-byte block"
            }
            try r.seek(ifd0)
            let count = Int(try r.u16())
            guard count * 12 + 4 <= block.count - ifd0 - 2 else {
                return "IFD0 at byte \(ifd0) declares \(count) entries, which run past the \(block.count)-byte block"
            }
        } catch {
            return "\(error)"
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
