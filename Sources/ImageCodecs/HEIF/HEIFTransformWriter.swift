import ImageCore

/// Gives the primary image of a file libheif wrote upright HEIF's own orientation: an `irot`
/// and/or `imir` property appended to `ipco` and associated with the primary item in `ipma`,
/// marked essential as HEIF (ISO/IEC 23008-12 §6.5.10, §6.5.12) requires of transformative
/// properties, after its descriptive ones; `meta`'s size and the file offsets in `iloc` that
/// point past it are moved by the bytes added.
///
/// libheif 1.15 has an orientation option of its own, but it marks the properties non-essential
/// (Chromium then refuses the file) and, for quarter turns, writes the stored size swapped
/// while coding the picture unturned.
enum HEIFTransformWriter {
    /// The `irot` quarter turns (anticlockwise) and `imir` mode (nil: no mirror) whose rotation
    /// followed by the mirror is `orientation`.
    static func properties(for orientation: Orientation) -> (turns: Int, mirror: Int?) {
        for mirror in [nil, 1, 0] as [Int?] {
            for turns in 0..<4 {
                var o = HEIFStructure.rotation(anticlockwiseQuarterTurns: turns)
                if let mirror { o = o.followed(by: mirror == 0 ? .downMirrored : .upMirrored) }
                if o == orientation { return (turns, mirror) }
            }
        }
        return (0, nil)  // unreachable: every orientation is a rotation, or one followed by a mirror
    }

    /// `file` with `orientation` stated by `irot`/`imir` on its primary item.
    static func adding(_ orientation: Orientation, to file: [UInt8], container: ContainerFormat) throws(EncodeError) -> [UInt8] {
        let (turns, mirror) = properties(for: orientation)
        var added: [[UInt8]] = []
        if turns != 0 { added.append(box("irot", [UInt8(turns)])) }
        if let mirror { added.append(box("imir", [UInt8(mirror)])) }
        guard !added.isEmpty else { return file }
        func refuse(_ why: String) -> EncodeError { .library(container, "cannot add irot/imir to libheif's file: \(why)") }
        let top = children(file, from: 0, to: file.count)
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw refuse("no meta box") }
        let inMeta = children(file, from: meta.payload + 4, to: meta.end)
        guard let pitm = inMeta.first(where: { $0.type == "pitm" }), pitm.end - pitm.payload >= 6 else { throw refuse("no pitm box") }
        let primary = file[pitm.payload] == 0 ? Int(u16(file, pitm.payload + 4)) : Int(u32(file, pitm.payload + 4))
        var metaBody: [UInt8] = Array(file[meta.payload..<meta.payload + 4])
        var ilocAt: Int?
        for child in inMeta {
            guard child.type == "iprp" else {
                if child.type == "iloc" { ilocAt = 8 + metaBody.count }
                metaBody += file[child.start..<child.end]
                continue
            }
            var iprpBody: [UInt8] = []
            let inIprp = children(file, from: child.payload, to: child.end)
            guard let ipco = inIprp.first(where: { $0.type == "ipco" }) else { throw refuse("no ipco box") }
            let firstNew = children(file, from: ipco.payload, to: ipco.end).count + 1
            for part in inIprp {
                switch part.type {
                case "ipco": iprpBody += box("ipco", Array(file[part.payload..<part.end]) + added.flatMap { $0 })
                case "ipma":
                    iprpBody += box("ipma", try associating(Array(file[part.payload..<part.end]), item: primary,
                                                            with: Array(firstNew..<firstNew + added.count), refuse: refuse))
                default: iprpBody += file[part.start..<part.end]
                }
            }
            metaBody += box("iprp", iprpBody)
        }
        var newMeta = box("meta", metaBody)
        let delta = newMeta.count - (meta.end - meta.start)
        if let ilocAt { try shiftLocations(&newMeta, at: ilocAt, by: delta, pastOffset: meta.end, refuse: refuse) }
        return Array(file[0..<meta.start]) + newMeta + file[meta.end...]
    }

    /// An `ipma` payload with `indices` (essential) appended to `item`'s associations.
    private static func associating(_ body: [UInt8], item: Int, with indices: [Int],
                                    refuse: (String) -> EncodeError) throws(EncodeError) -> [UInt8] {
        guard body.count >= 8 else { throw refuse("ipma is too short") }
        let version = Int(body[0]), wide = body[3] & 1 != 0
        var out = Array(body[0..<8]), r = 8
        var found = false
        for _ in 0..<u32(body, 4) {
            let idSize = version < 1 ? 2 : 4
            guard r + idSize < body.count else { throw refuse("ipma is truncated") }
            let id = idSize == 2 ? Int(u16(body, r)) : Int(u32(body, r))
            let count = Int(body[r + idSize]), entrySize = idSize + 1 + count * (wide ? 2 : 1)
            guard r + entrySize <= body.count else { throw refuse("ipma is truncated") }
            var entry = Array(body[r..<r + entrySize])
            if id == item {
                guard count + indices.count <= 255, indices.allSatisfy({ $0 <= (wide ? 0x7FFF : 0x7F) }) else {
                    throw refuse("too many properties")
                }
                found = true
                entry[idSize] = UInt8(count + indices.count)
                for index in indices { entry += wide ? [UInt8(0x80 | index >> 8), UInt8(index & 0xFF)] : [UInt8(0x80 | index)] }
            }
            out += entry
            r += entrySize
        }
        guard found else { throw refuse("the primary item has no ipma entry") }
        return out
    }

    /// Adds `delta` to the file offsets (construction method 0) of an `iloc` box starting at
    /// `at` in `meta` that point at or past `pastOffset`.
    private static func shiftLocations(_ meta: inout [UInt8], at: Int, by delta: Int, pastOffset: Int,
                                       refuse: (String) -> EncodeError) throws(EncodeError) {
        guard at + 16 <= meta.count, at + Int(u32(meta, at)) <= meta.count else { throw refuse("iloc is truncated") }
        var r = at + 8
        let version = Int(meta[r])
        r += 4
        let sizes = u16(meta, r)
        r += 2
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 15), baseSize = Int(sizes >> 4 & 15)
        let indexSize = version >= 1 ? Int(sizes & 15) : 0
        guard [offsetSize, lengthSize, baseSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw refuse("iloc field sizes \(sizes)")
        }
        func read(_ size: Int, _ at: Int) -> Int { size == 0 ? 0 : size == 4 ? Int(u32(meta, at)) : Int(u32(meta, at)) << 32 | Int(u32(meta, at + 4)) }
        func write(_ value: Int, _ size: Int, _ at: Int) {
            for i in 0..<size { meta[at + i] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - i))) }
        }
        let count = version < 2 ? Int(u16(meta, r)) : Int(u32(meta, r))
        r += version < 2 ? 2 : 4
        let end = at + Int(u32(meta, at))
        for _ in 0..<count {
            guard r + 8 + baseSize <= end else { throw refuse("iloc is truncated") }
            r += version < 2 ? 2 : 4
            let method = version >= 1 ? Int(u16(meta, r) & 15) : 0
            r += (version >= 1 ? 2 : 0) + 2
            let baseAt = r, base = read(baseSize, r)
            r += baseSize
            let extents = Int(u16(meta, r))
            r += 2
            var shiftedBase = false
            for _ in 0..<extents {
                guard r + indexSize + offsetSize + lengthSize <= end else { throw refuse("iloc is truncated") }
                r += indexSize
                let offset = read(offsetSize, r)
                if method == 0, base + offset >= pastOffset {
                    if baseSize > 0 {
                        if !shiftedBase { write(base + delta, baseSize, baseAt) }
                        shiftedBase = true
                    } else {
                        guard offsetSize > 0 else { throw refuse("an extent without an offset") }
                        write(offset + delta, offsetSize, r)
                    }
                }
                r += offsetSize + lengthSize
            }
        }
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 8
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + payload
    }

    private static func children(_ bytes: [UInt8], from start: Int, to end: Int) -> [(type: String, start: Int, payload: Int, end: Int)] {
        var found: [(type: String, start: Int, payload: Int, end: Int)] = []
        var at = start
        while at + 8 <= end {
            let size = Int(u32(bytes, at))
            guard size >= 8, at + size <= end else { break }
            found.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), at, at + 8, at + size))
            at += size
        }
        return found
    }

    private static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) << 8 | UInt16(b[at + 1]) }
    private static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}
