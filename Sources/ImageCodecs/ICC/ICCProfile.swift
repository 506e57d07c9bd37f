/// The few facts `imglab info` shows about an embedded ICC profile, read tolerantly.
///
/// Layout (ICC.1:2022 §7): a 128-byte header (size, CMM, version at 8, class at 12, colour
/// space at 16, PCS at 20), a tag count at 128, then 12-byte tag entries (signature, offset,
/// size). The description is tag `desc`: type `desc` (v2, ASCII) or `mluc` (v4, UTF-16BE).
public struct ICCProfileSummary: Sendable, Hashable, Codable {
    /// Profile size in bytes.
    public var size: Int
    /// Version as "major.minor", e.g. "2.1" or "4.3".
    public var version: String?
    /// Data colour space signature, e.g. "RGB ", "GRAY", "CMYK".
    public var colorSpace: String?
    /// The profile description, e.g. "sRGB IEC61966-2.1".
    public var description: String?

    /// Reads what it can; a broken profile still gives its size.
    public init(_ bytes: [UInt8]) {
        size = bytes.count
        guard bytes.count >= 132 else { return }
        version = "\(bytes[8]).\(bytes[9] >> 4)"
        colorSpace = String(decoding: bytes[16..<20], as: UTF8.self)
        description = Self.description(bytes)
    }

    private static func be32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func description(_ b: [UInt8]) -> String? {
        guard let count = be32(b, 128) else { return nil }
        for i in 0..<min(count, 200) {
            let entry = 132 + 12 * i
            guard entry + 12 <= b.count else { return nil }
            guard String(decoding: b[entry..<(entry + 4)], as: UTF8.self) == "desc",
                  let offset = be32(b, entry + 4), let size = be32(b, entry + 8),
                  offset >= 0, size >= 12, offset + size <= b.count else { continue }
            let type = String(decoding: b[offset..<(offset + 4)], as: UTF8.self)
            if type == "desc", let n = be32(b, offset + 8), n > 0, offset + 12 + n <= b.count {
                let ascii = b[(offset + 12)..<(offset + 12 + n)].prefix { $0 != 0 }
                return String(decoding: ascii, as: UTF8.self)
            }
            if type == "mluc", let records = be32(b, offset + 8), records > 0,
               let length = be32(b, offset + 20), let start = be32(b, offset + 24),
               offset + start + length <= b.count {
                var units: [UInt16] = []
                var p = offset + start
                while p + 1 < offset + start + length { units.append(UInt16(b[p]) << 8 | UInt16(b[p + 1])); p += 2 }
                return String(decoding: units, as: UTF16.self)
            }
        }
        return nil
    }
}
