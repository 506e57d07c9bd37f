import CImageShim

/// The chunk layer of a PNG file (PNG spec, 3rd ed., §5): the signature, then chunks of
/// length (4 bytes, ≤ 2³¹ − 1), type (4 ASCII letters), data and a CRC-32 of type and data.
///
/// The walker reads the file once, without inflating anything, so `readHeader` and the
/// metadata parsers stay cheap. It enforces the structural rules of §5.6 that libpng would
/// otherwise apply late or leniently, and reports each break with the chunk and byte offset.
struct PNGChunk: Sendable {
    /// The four-letter type, e.g. `IHDR`.
    var type: String
    /// Offset of the chunk's length field in the file.
    var offset: Int
    /// The chunk data (without length, type and CRC).
    var data: ArraySlice<UInt8>
    /// Whether the stored CRC matches type and data.
    var crcMatches: Bool
    /// Data bytes the file holds but `data` does not (IDAT skipped by
    /// ``PNGChunkList/init(walkingFile:maxChunkBytes:)``); 0 when `data` is the whole data.
    var skippedLength = 0

    /// The chunk's length field: its data bytes, loaded or skipped.
    var dataLength: Int { data.count + skippedLength }

    /// Offset of the first data byte in the file.
    var dataOffset: Int { offset + 8 }
    /// Whether bit 5 of the first type byte is clear (§5.4: critical chunk).
    var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? true }
}

/// The signature and chunk list of a PNG file.
struct PNGChunkList: Sendable {
    /// The eight signature bytes every PNG starts with (§5.2).
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Chunks from IHDR to IEND, in file order.
    var chunks: [PNGChunk]

    /// The first chunk of `type`, if any (ancillary chunks with a bad CRC are skipped, as libpng does).
    func first(_ type: String) -> PNGChunk? {
        chunks.first { $0.type == type && ($0.crcMatches || $0.isCritical) }
    }

    /// Every chunk of `type` whose CRC matches.
    func all(_ type: String) -> [PNGChunk] {
        chunks.filter { $0.type == type && $0.crcMatches }
    }

    /// Walks `bytes` from the signature to IEND.
    ///
    /// - Throws: `.malformed` for a bad signature, a first chunk other than IHDR, a chunk
    ///   length over 2³¹ − 1, a non-letter chunk type, a CRC mismatch in a critical chunk,
    ///   IDAT chunks that are not consecutive, or a missing IDAT; `.truncated` when a chunk
    ///   runs past the end or the file ends before IEND.
    /// - Parameter stoppingAfterFirstChunk: stop after IHDR (for reading the header first).
    init(parsing bytes: [UInt8], stoppingAfterFirstChunk: Bool = false) throws(DecodeError) {
        guard bytes.count >= 8 else {
            throw .truncated(.png, reason: "the 8-byte signature needs 8 bytes, the file has \(bytes.count)", offset: 0)
        }
        guard Array(bytes[0..<8]) == Self.signature else {
            throw .malformed(.png, reason: "signature is \(PNGChunkList.hex(bytes[0..<8])), expected 89 50 4E 47 0D 0A 1A 0A", offset: 0)
        }
        var chunks: [PNGChunk] = []
        var offset = 8
        var sawIEND = false
        var idatRunEnded = false
        var sawIDAT = false
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else {
                throw .truncated(.png, reason: "chunk header needs 8 bytes, \(bytes.count - offset) left", offset: offset)
            }
            let length = Int(PNGChunkList.u32(bytes, offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw .malformed(.png, reason: "chunk type \(PNGChunkList.hex(typeBytes)) is not four ASCII letters (§5.3)", offset: offset + 4)
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else {
                throw .malformed(.png, reason: "\(type) length \(length) exceeds 2^31 - 1 (§5.3)", offset: offset)
            }
            guard bytes.count - offset - 12 >= length else {
                throw .truncated(.png, reason: "\(type) declares \(length) data bytes and a CRC, \(bytes.count - offset - 8) bytes left", offset: offset)
            }
            let data = bytes[(offset + 8)..<(offset + 8 + length)]
            let stored = PNGChunkList.u32(bytes, offset + 8 + length)
            let computed = PNGChunkList.crc(typeBytes, data)
            let chunk = PNGChunk(type: type, offset: offset, data: data, crcMatches: stored == computed)
            if chunks.isEmpty, type != "IHDR" {
                throw .malformed(.png, reason: "first chunk is \(type), expected IHDR (§5.6)", offset: offset)
            }
            if chunk.isCritical, !chunk.crcMatches {
                throw .malformed(.png, reason: "\(type) CRC is \(PNGChunkList.hex32(stored)), its data gives \(PNGChunkList.hex32(computed))", offset: offset + 8 + length)
            }
            if type == "IDAT" {
                if idatRunEnded {
                    throw .malformed(.png, reason: "IDAT chunks are not consecutive (§5.6): another chunk comes between them", offset: offset)
                }
                sawIDAT = true
            } else if sawIDAT {
                idatRunEnded = true
            }
            chunks.append(chunk)
            offset += 12 + length
            if type == "IEND" { sawIEND = true; break }
            if stoppingAfterFirstChunk { self.chunks = chunks; return }
        }
        guard sawIEND else {
            throw .truncated(.png, reason: "the file ends before the IEND chunk", offset: bytes.count)
        }
        guard sawIDAT else {
            throw .malformed(.png, reason: "there is no IDAT chunk", offset: nil)
        }
        self.chunks = chunks
    }

    /// Reads a big-endian 32-bit value; the caller has checked the bounds.
    static func u32(_ bytes: some Collection<UInt8>, _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        var index = bytes.index(bytes.startIndex, offsetBy: offset)
        for _ in 0..<4 {
            value = value << 8 | UInt32(bytes[index])
            index = bytes.index(after: index)
        }
        return value
    }

    /// Reads a big-endian 16-bit value; the caller has checked the bounds.
    static func u16(_ bytes: some Collection<UInt8>, _ offset: Int) -> UInt16 {
        let index = bytes.index(bytes.startIndex, offsetBy: offset)
        return UInt16(bytes[index]) << 8 | UInt16(bytes[bytes.index(after: index)])
    }

    /// CRC-32 (ISO 3309, §5.5: the same CRC as zlib's `crc32`) over the chunk type and data,
    /// computed by libdeflate (carry-less multiplication where the CPU has it).
    static func crc(_ type: some Collection<UInt8>, _ data: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        // Contiguous collections (array slices of the file) are hashed in place, without a copy.
        func add(_ part: some Collection<UInt8>) {
            guard !part.isEmpty else { return }
            let hashed = part.withContiguousStorageIfAvailable { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
            crc = hashed ?? Array(part).withUnsafeBufferPointer { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
        }
        add(type)
        add(data)
        return crc
    }

    /// A serialised chunk: length, type, data and CRC.
    static func serialize(_ type: String, _ data: some Collection<UInt8>) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 12)
        out += bigEndian(UInt32(data.count))
        out += typeBytes
        out += data
        out += bigEndian(crc(typeBytes, data))
        return out
    }

    /// The four big-endian bytes of `value`.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The two big-endian bytes of `value`.
    static func bigEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    private static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
