import ImageCore

/// The thumbnail an EXIF block embeds: a small JPEG that IFD1 points to (JPEGInterchangeFormat,
/// tag 0x0201, and its length, 0x0202; CIPA DC-008 §4.5.8), which cameras write at 160 × 120
/// and editors often leave stale. A reader that returns it instead of the image (ImageIO's
/// `kCGImageSourceCreateThumbnailFromImageIfAbsent`) shows whatever it holds.
public struct EXIFThumbnail: Sendable, Hashable {
    /// The embedded JPEG, from its SOI marker.
    public var jpeg: [UInt8]
    /// IFD1's own orientation tag, when it has one (rare; readers apply IFD0's).
    public var orientationValue: Int?

    public init(jpeg: [UInt8], orientationValue: Int? = nil) {
        self.jpeg = jpeg
        self.orientationValue = orientationValue
    }

    /// The thumbnail of `block` (TIFF-structured, from the byte-order mark); `nil` when IFD1 is
    /// absent, points outside the block, or does not hold a JPEG.
    public static func reading(_ block: [UInt8]) -> EXIFThumbnail? {
        guard block.count >= 8, block[0] == block[1], block[0] == 0x49 || block[0] == 0x4D else { return nil }
        var r = ByteReader(block, container: .tiff, littleEndian: block[0] == 0x49)
        do {
            r.offset = 4
            try r.seek(Int(try r.u32()))
            let count0 = Int(try r.u16())
            guard count0 <= 1000 else { return nil }
            try r.seek(r.offset + 12 * count0)
            let ifd1 = Int(try r.u32())
            guard ifd1 > 8, ifd1 < block.count else { return nil }
            try r.seek(ifd1)
            var offset: Int?, length: Int?, orientation: Int?
            for _ in 0..<min(Int(try r.u16()), 1000) {
                let tag = try r.u16(), type = try r.u16()
                _ = try r.u32()
                let start = r.offset
                let value = type == 3 ? Int(try r.u16()) : Int(try r.u32())
                switch tag {
                case 0x0201: offset = value
                case 0x0202: length = value
                case 0x0112: orientation = value
                default: break
                }
                r.offset = start + 4
            }
            guard let offset, let length, length >= 4, offset >= 8, offset <= block.count - length,
                  block[offset] == 0xFF, block[offset + 1] == 0xD8 else { return nil }
            return EXIFThumbnail(jpeg: Array(block[offset..<(offset + length)]), orientationValue: orientation)
        } catch {
            return nil
        }
    }

    /// A big-endian EXIF block with IFD0 holding `orientation` and IFD1 pointing to this
    /// thumbnail (compression 6, JPEG; its own orientation tag when it has one).
    public func block(orientation: Orientation) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] {
            u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + [0, 0] : u32(value))
        }
        let ifd1Entries = 3 + (orientationValue == nil ? 0 : 1)
        let ifd1 = 8 + 2 + 12 + 4
        let data = ifd1 + 2 + 12 * ifd1Entries + 4
        var b: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + u32(8)
        b += u16(1) + entry(0x0112, 3, orientation.exifValue) + u32(ifd1)
        b += u16(ifd1Entries) + entry(0x0103, 3, 6)
        if let orientationValue { b += entry(0x0112, 3, orientationValue) }
        b += entry(0x0201, 4, data) + entry(0x0202, 4, jpeg.count) + u32(0)
        return b + jpeg
    }
}
