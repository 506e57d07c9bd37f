/// Edits of a PNG file at the chunk level, for tools that make variants of a PNG (`imglab fuzz`
/// uses them so that its mutations get past the CRC check and reach the pixel decoders).
///
/// Every function is lenient: it takes any bytes, edits what it can recognise as chunks and
/// keeps the rest as it is, so an already damaged file stays damaged the same way.
public enum PNGChunkEditing {
    /// The file split into structural pieces: the first 8 bytes (the signature), then one piece
    /// per chunk (length, type, data and CRC as stored), then any bytes after the last complete
    /// chunk. A chunk whose length runs past the end takes the rest of the file.
    public static func pieces(_ bytes: [UInt8]) -> [[UInt8]] {
        guard bytes.count > 8 else { return [bytes] }
        var parts: [[UInt8]] = [Array(bytes.prefix(8))]
        var offset = 8
        while bytes.count - offset >= 12 {
            let length = Int(PNGChunkList.u32(bytes, offset))
            let end = length <= bytes.count - offset - 12 ? offset + 12 + length : bytes.count
            parts.append(Array(bytes[offset..<end]))
            offset = end
        }
        if offset < bytes.count { parts.append(Array(bytes[offset...])) }
        return parts
    }

    /// The file with the CRC of every complete chunk recomputed over its type and data
    /// (PNG spec §5.5); pieces that are not complete chunks are kept as they are.
    public static func recomputingChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (index, piece) in pieces(bytes).enumerated() {
            guard index > 0, piece.count >= 12, Int(PNGChunkList.u32(piece, 0)) == piece.count - 12 else {
                out += piece
                continue
            }
            out += piece.prefix(piece.count - 4)
            out += PNGChunkList.bigEndian(PNGChunkList.crc(piece[4..<8], piece[8..<(piece.count - 4)]))
        }
        return out
    }

    /// The zlib stream of the file's IDAT chunks, inflated: the filtered rows (each a filter-type
    /// byte, then the row's bytes), or nil when there is no IDAT chunk or the stream does not
    /// inflate to at most `maxBytes` bytes.
    public static func filteredRows(_ bytes: [UInt8], maxBytes: Int) -> [UInt8]? {
        let stream = pieces(bytes).dropFirst().filter(isIDAT).flatMap { $0[8..<($0.count - 4)] }
        guard !stream.isEmpty, case .data(let rows) = PNGZlib.inflate(stream[...], maxOutput: maxBytes) else { return nil }
        return rows
    }

    /// The file with its IDAT chunks replaced by one IDAT chunk, in the place of the first,
    /// holding `rows` deflated as one zlib stream; nil when the file has no IDAT chunk or
    /// zlib fails.
    public static func replacingFilteredRows(_ bytes: [UInt8], with rows: [UInt8]) -> [UInt8]? {
        guard let stream = PNGZlib.deflate(rows) else { return nil }
        var out: [UInt8] = []
        var replaced = false
        for (index, piece) in pieces(bytes).enumerated() {
            guard index > 0, isIDAT(piece) else { out += piece; continue }
            if !replaced { out += PNGChunkList.serialize("IDAT", stream) }
            replaced = true
        }
        return replaced ? out : nil
    }

    /// Whether `piece` is a complete IDAT chunk (its length field matches its size).
    private static func isIDAT(_ piece: [UInt8]) -> Bool {
        piece.count >= 12 && Int(PNGChunkList.u32(piece, 0)) == piece.count - 12 && piece[4..<8].elementsEqual("IDAT".utf8)
    }
}
