import ImageCore

/// Reading and writing the parts of an EXIF block imglab needs: the orientation.
///
/// An EXIF block is TIFF-structured: `II*\0` or `MM\0*`, the offset of IFD0, then IFD entries
/// of 12 bytes (tag, type, count, value-or-offset). Orientation is tag 0x0112 (SHORT) in
/// IFD0; IFD1 describes the embedded thumbnail and is ignored. Reading is tolerant: a broken
/// block gives `nil`, never an error, because viewers display such files anyway.
/// Spec: CIPA DC-008 (Exif 2.32) §4.6.
public enum EXIF {
    /// The orientation in IFD0 of a TIFF-structured EXIF block; `nil` when absent, out of
    /// range (0 is common and means "up") or unreadable.
    /// - Parameter block: starts at the byte-order mark (for JPEG, after `Exif\0\0`).
    public static func orientation(in block: [UInt8]) -> Orientation? {
        guard let value = orientationValue(in: block) else { return nil }
        return Orientation(exifValue: value)
    }

    /// The raw orientation value in IFD0, whatever it is, or `nil` when there is no readable tag.
    public static func orientationValue(in block: [UInt8]) -> Int? {
        guard block.count >= 8 else { return nil }
        let little: Bool
        switch (block[0], block[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        var r = ByteReader(block, container: .tiff, littleEndian: little)
        do {
            r.offset = 2
            guard try r.u16() == 42 else { return nil }
            let ifd0 = Int(try r.u32())
            try r.seek(ifd0)
            let count = Int(try r.u16())
            for _ in 0..<min(count, 1000) {
                let tag = try r.u16(), type = try r.u16()
                _ = try r.u32()
                let valueStart = r.offset
                if tag == 0x0112 {
                    switch type {
                    case 3: return Int(try r.u16())          // SHORT, the specified type
                    case 4: return Int(try r.u32())          // LONG, seen in the wild
                    case 1: return Int(try r.u8())           // BYTE
                    default: return nil
                    }
                }
                r.offset = valueStart + 4
            }
        } catch {
            return nil
        }
        return nil
    }

    /// The Exif signature that prefixes the block inside a JPEG APP1 segment.
    public static let jpegPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// A minimal big-endian EXIF block holding only the orientation (IFD0 with one entry).
    public static func block(orientation: Orientation) -> [UInt8] {
        var b: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // MM, 42, IFD0 at 8
        b += [0, 1]                                               // one entry
        b += [0x01, 0x12, 0, 3, 0, 0, 0, 1]                       // tag 0x0112, SHORT, count 1
        b += [0, UInt8(orientation.exifValue), 0, 0]             // value, left-justified
        b += [0, 0, 0, 0]                                         // no IFD1
        return b
    }

    /// `block` with its IFD0 orientation replaced in place, or a fresh block when `block`
    /// has no orientation tag to rewrite.
    public static func replacingOrientation(in block: [UInt8]?, with orientation: Orientation) -> [UInt8] {
        guard let block, let position = orientationValuePosition(in: block) else {
            return Self.block(orientation: orientation)
        }
        var out = block
        if block[0] == 0x49 { out[position] = UInt8(orientation.exifValue); out[position + 1] = 0 }
        else { out[position] = 0; out[position + 1] = UInt8(orientation.exifValue) }
        return out
    }

    private static func orientationValuePosition(in block: [UInt8]) -> Int? {
        guard block.count >= 8, block[0] == block[1], block[0] == 0x49 || block[0] == 0x4D else { return nil }
        var r = ByteReader(block, container: .tiff, littleEndian: block[0] == 0x49)
        do {
            r.offset = 4
            try r.seek(Int(try r.u32()))
            let count = Int(try r.u16())
            for _ in 0..<min(count, 1000) {
                let tag = try r.u16(), type = try r.u16()
                _ = try r.u32()
                if tag == 0x0112 && type == 3 && r.offset + 2 <= block.count { return r.offset }
                r.offset += 4
            }
        } catch { return nil }
        return nil
    }
}
