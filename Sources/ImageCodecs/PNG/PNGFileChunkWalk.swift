#if canImport(Glibc)
import Glibc
#endif

extension PNGChunkList {
    /// The chunk list of the PNG file at `path`, read without holding the file: chunk headers
    /// are read in turn and the data of every chunk but IDAT is loaded; IDAT data is skipped by
    /// seeking (libpng reads it, and checks its CRC, when the rows are decoded).
    ///
    /// IDAT chunks appear with empty data, their length in `skippedLength`, and `crcMatches` true. The structural rules are those of
    /// ``init(parsing:stoppingAfterFirstChunk:)``: signature, IHDR first, chunk types of four
    /// letters, lengths ≤ 2³¹ − 1, critical CRCs (IDAT excepted), consecutive IDATs, an IDAT,
    /// and IEND. A chunk other than IDAT larger than `maxChunkBytes` is refused as a byte limit.
    /// - Throws: as ``init(parsing:stoppingAfterFirstChunk:)``, and ``DecodeError/io(path:reason:)``.
    init(walkingFile path: String, maxChunkBytes: Int) throws(DecodeError) {
        guard let file = FileSystemName.withRepresentation(path, { fopen($0, "rb") }) else { throw .io(path: path, reason: "cannot open (errno \(errno))") }
        defer { fclose(file) }
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else { throw .io(path: path, reason: "cannot stat the file") }
        let fileSize = Int(status.st_size)
        func read(_ count: Int) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
            return n == count ? buffer : Array(buffer.prefix(n))
        }
        let signature = read(8)
        guard signature.count == 8 else {
            throw .truncated(.png, reason: "the 8-byte signature needs 8 bytes, the file has \(signature.count)", offset: 0)
        }
        guard signature == Self.signature else {
            throw .malformed(.png, reason: "signature is not 89 50 4E 47 0D 0A 1A 0A", offset: 0)
        }
        var chunks: [PNGChunk] = []
        var offset = 8
        var sawIEND = false, sawIDAT = false, idatRunEnded = false
        while true {
            let head = read(8)
            if head.isEmpty { break }
            guard head.count == 8 else {
                throw .truncated(.png, reason: "chunk header needs 8 bytes, \(head.count) left", offset: offset)
            }
            let length = Int(Self.u32(head, 0))
            let typeBytes = head[4..<8]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw .malformed(.png, reason: "chunk type at byte \(offset + 4) is not four ASCII letters (§5.3)", offset: offset + 4)
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else {
                throw .malformed(.png, reason: "\(type) length \(length) exceeds 2^31 - 1 (§5.3)", offset: offset)
            }
            if chunks.isEmpty, type != "IHDR" {
                throw .malformed(.png, reason: "first chunk is \(type), expected IHDR (§5.6)", offset: offset)
            }
            let chunk: PNGChunk
            if type == "IDAT" {
                if idatRunEnded {
                    throw .malformed(.png, reason: "IDAT chunks are not consecutive (§5.6): another chunk comes between them", offset: offset)
                }
                sawIDAT = true
                guard fseeko(file, off_t(length + 4), SEEK_CUR) == 0 else { throw .io(path: path, reason: "cannot seek") }
                chunk = PNGChunk(type: type, offset: offset, data: [], crcMatches: true, skippedLength: length)
            } else {
                if sawIDAT { idatRunEnded = true }
                guard length <= maxChunkBytes else {
                    throw .limitExceeded(.bytes, requested: length, allowed: maxChunkBytes)
                }
                // A length past the end of the file is refused before its buffer exists.
                guard length + 4 <= fileSize - offset - 8 else {
                    throw .truncated(.png, reason: "\(type) declares \(length) data bytes and a CRC, \(max(fileSize - offset - 8, 0)) bytes left", offset: offset)
                }
                let body = read(length + 4)
                guard body.count == length + 4 else {
                    throw .truncated(.png, reason: "\(type) declares \(length) data bytes and a CRC, \(body.count) bytes left", offset: offset)
                }
                let data = Array(body[0..<length])
                let stored = Self.u32(body, length)
                let matches = stored == Self.crc(typeBytes, data)
                chunk = PNGChunk(type: type, offset: offset, data: data[...], crcMatches: matches)
                if chunk.isCritical, !matches {
                    throw .malformed(.png, reason: "\(type) CRC does not match its data", offset: offset + 8 + length)
                }
            }
            chunks.append(chunk)
            offset += 12 + length
            if type == "IEND" { sawIEND = true; break }
        }
        // fseeko past the end succeeds; the position is checked against the file's size here.
        if offset > fileSize {
            throw .truncated(.png, reason: "a chunk runs past the end of the \(fileSize)-byte file", offset: fileSize)
        }
        guard sawIEND else { throw .truncated(.png, reason: "the file ends before the IEND chunk", offset: offset) }
        guard sawIDAT else { throw .malformed(.png, reason: "there is no IDAT chunk", offset: nil) }
        self.chunks = chunks
    }
}
