/// A bounds-checked cursor over bytes, for the parsers written in Swift (BMP, EXIF, chunk walkers).
/// Every read past the end throws ``DecodeError/truncated(_:reason:offset:)``.
public struct ByteReader: Sendable {
    /// The bytes read.
    public let bytes: [UInt8]
    /// The container named in errors.
    public let container: ContainerFormat
    /// The next byte to read.
    public var offset: Int
    /// Whether multi-byte integers are little-endian.
    public var littleEndian: Bool

    public init(_ bytes: [UInt8], container: ContainerFormat, offset: Int = 0, littleEndian: Bool = false) {
        self.bytes = bytes
        self.container = container
        self.offset = offset
        self.littleEndian = littleEndian
    }

    /// Bytes left after the cursor.
    public var remaining: Int { max(bytes.count - offset, 0) }

    private func need(_ n: Int, _ what: String) throws(DecodeError) {
        guard n >= 0, offset >= 0, offset <= bytes.count, bytes.count - offset >= n else {
            throw .truncated(container, reason: "\(what) needs \(n) bytes, \(remaining) left", offset: offset)
        }
    }

    /// Reads one byte.
    public mutating func u8(_ what: String = "byte") throws(DecodeError) -> UInt8 {
        try need(1, what)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a 16-bit unsigned integer in the reader's byte order.
    public mutating func u16(_ what: String = "16-bit field") throws(DecodeError) -> UInt16 {
        try need(2, what)
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        offset += 2
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    /// Reads a 32-bit unsigned integer in the reader's byte order.
    public mutating func u32(_ what: String = "32-bit field") throws(DecodeError) -> UInt32 {
        try need(4, what)
        var v: UInt32 = 0
        for i in 0..<4 {
            let b = UInt32(bytes[offset + i])
            v |= littleEndian ? b << (8 * UInt32(i)) : b << (8 * UInt32(3 - i))
        }
        offset += 4
        return v
    }

    /// Reads `n` bytes.
    public mutating func take(_ n: Int, _ what: String = "data") throws(DecodeError) -> ArraySlice<UInt8> {
        try need(n, what)
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }

    /// Moves the cursor to `position`, which must lie within the bytes.
    public mutating func seek(_ position: Int, _ what: String = "offset") throws(DecodeError) {
        guard position >= 0, position <= bytes.count else {
            throw .truncated(container, reason: "\(what) points to byte \(position), past the end (\(bytes.count))", offset: offset)
        }
        offset = position
    }
}
