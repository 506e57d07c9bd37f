import ImageCore

/// The animation chunks of an APNG (acTL, fcTL, fdAT) and the rules that bind them
/// (APNG spec, https://wiki.mozilla.org/APNG_Specification, and PNG 3rd ed. §11.3.6).
///
/// - acTL comes before the first IDAT; `num_frames` counts frames, `num_plays` 0 = forever.
/// - fcTL and fdAT share one sequence, starting at 0 and rising by one with no gaps.
/// - An fcTL before IDAT makes the default image frame 0; it must cover the whole canvas.
///   Otherwise the default image is not part of the animation.
/// - Every frame's region lies inside the canvas; each fcTL is followed by its image data.
struct APNGStructure: Sendable {
    /// One frame: its fcTL fields and its compressed image data.
    struct Frame: Sendable {
        /// The fcTL sequence number.
        var sequence: Int
        /// Where the frame's pixels go on the canvas.
        var region: PixelRect
        /// delay_num / delay_den seconds; a denominator of 0 means 100 (APNG spec).
        var delay: Double
        var disposal: FrameDisposal
        var blend: FrameBlend
        /// Whether the frame's data is the IDAT default image.
        var isDefaultImage: Bool
        /// The zlib stream pieces: IDAT data, or fdAT data after the sequence number.
        var data: [ArraySlice<UInt8>]
        /// Offset of the fcTL chunk.
        var offset: Int
    }

    /// acTL num_frames: the declared frame count.
    var declaredFrameCount: Int
    /// acTL num_plays: 0 = loop forever.
    var plays: Int
    /// The frames found, in sequence order.
    var frames: [Frame]

    /// Whether the file is an APNG, and whether its animation chunks follow the rules.
    enum Parsed: Sendable {
        /// No acTL before the first IDAT: an ordinary PNG (stray fcTL/fdAT are ignored).
        case notAnimated
        /// A well-formed animation.
        case animated(APNGStructure)
        /// acTL is present but the animation breaks a rule; the default image still stands.
        case broken(reason: String, offset: Int?)
    }

    /// Reads the animation chunks of `list`.
    static func parse(_ list: PNGChunkList, header: PNGImageHeader) -> Parsed {
        var control: (frames: Int, plays: Int)?
        var frames: [Frame] = []
        var nextSequence = 0
        var seenIDAT = false
        for chunk in list.chunks {
            let d = chunk.data
            switch chunk.type {
            case "acTL":
                if seenIDAT { continue } // too late to make the file an APNG (spec: before IDAT)
                guard control == nil else { return .broken(reason: "more than one acTL chunk", offset: chunk.offset) }
                guard chunk.crcMatches else { return .broken(reason: "acTL CRC mismatch", offset: chunk.offset) }
                guard d.count == 8 else { return .broken(reason: "acTL is \(d.count) bytes, expected 8", offset: chunk.offset) }
                let count = Int(PNGChunkList.u32(d, 0)), plays = Int(PNGChunkList.u32(d, 4))
                guard count > 0 else { return .broken(reason: "acTL num_frames is 0", offset: chunk.dataOffset) }
                control = (count, plays)
            case "IDAT":
                seenIDAT = true
                guard control != nil else { continue }
                if let last = frames.indices.last, frames[last].isDefaultImage { frames[last].data.append(d) }
            case "fcTL":
                guard control != nil else { continue }
                guard chunk.crcMatches else { return .broken(reason: "fcTL CRC mismatch", offset: chunk.offset) }
                guard d.count == 26 else { return .broken(reason: "fcTL is \(d.count) bytes, expected 26", offset: chunk.offset) }
                if let last = frames.last, last.data.isEmpty {
                    return .broken(reason: "fcTL \(last.sequence) has no image data before the next fcTL", offset: chunk.offset)
                }
                let sequence = Int(PNGChunkList.u32(d, 0))
                guard sequence == nextSequence else {
                    return .broken(reason: "fcTL sequence number \(sequence), expected \(nextSequence)", offset: chunk.dataOffset)
                }
                nextSequence += 1
                let width = Int(PNGChunkList.u32(d, 4)), height = Int(PNGChunkList.u32(d, 8))
                let x = Int(PNGChunkList.u32(d, 12)), y = Int(PNGChunkList.u32(d, 16))
                let numerator = Int(PNGChunkList.u16(d, 20)), denominator = Int(PNGChunkList.u16(d, 22))
                let disposeOp = d[d.startIndex + 24], blendOp = d[d.startIndex + 25]
                guard width > 0, height > 0, x <= header.width - width, y <= header.height - height else {
                    return .broken(reason: "fcTL \(sequence) region \(width)×\(height)+\(x)+\(y) is empty or leaves the \(header.width)×\(header.height) canvas", offset: chunk.dataOffset + 4)
                }
                guard disposeOp <= 2 else { return .broken(reason: "fcTL \(sequence) dispose_op \(disposeOp) is not 0, 1 or 2", offset: chunk.dataOffset + 24) }
                guard blendOp <= 1 else { return .broken(reason: "fcTL \(sequence) blend_op \(blendOp) is not 0 or 1", offset: chunk.dataOffset + 25) }
                if !seenIDAT, (x, y, width, height) != (0, 0, header.width, header.height) {
                    return .broken(reason: "fcTL \(sequence) before IDAT must cover the whole canvas", offset: chunk.dataOffset + 4)
                }
                frames.append(Frame(sequence: sequence, region: PixelRect(x: x, y: y, width: width, height: height),
                                    delay: Double(numerator) / Double(denominator == 0 ? 100 : denominator),
                                    disposal: [FrameDisposal.none, .background, .previous][Int(disposeOp)],
                                    blend: blendOp == 0 ? .source : .over,
                                    isDefaultImage: !seenIDAT, data: [], offset: chunk.offset))
            case "fdAT":
                guard control != nil else { continue }
                guard chunk.crcMatches else { return .broken(reason: "fdAT CRC mismatch", offset: chunk.offset) }
                guard d.count >= 4 else { return .broken(reason: "fdAT is \(d.count) bytes, too short for its sequence number", offset: chunk.offset) }
                let sequence = Int(PNGChunkList.u32(d, 0))
                guard sequence == nextSequence else {
                    return .broken(reason: "fdAT sequence number \(sequence), expected \(nextSequence)", offset: chunk.dataOffset)
                }
                nextSequence += 1
                guard let last = frames.indices.last, !frames[last].isDefaultImage else {
                    return .broken(reason: "fdAT \(sequence) has no fcTL of its own", offset: chunk.offset)
                }
                frames[last].data.append(d.dropFirst(4))
            default:
                continue
            }
        }
        guard let control else { return .notAnimated }
        guard let last = frames.last else { return .broken(reason: "acTL is present but there is no fcTL", offset: nil) }
        guard !last.data.isEmpty else {
            return .broken(reason: "fcTL \(last.sequence) has no image data", offset: last.offset)
        }
        return .animated(APNGStructure(declaredFrameCount: control.frames, plays: control.plays, frames: frames))
    }

    /// A standalone PNG holding one fdAT frame: IHDR resized to the frame, the file's PLTE
    /// and tRNS, one IDAT with the frame's data, IEND. libpng decodes it like any PNG.
    static func standalonePNG(for frame: Frame, in list: PNGChunkList) -> [UInt8] {
        var out = PNGChunkList.signature
        var ihdr = Array(list.chunks[0].data)
        ihdr.replaceSubrange(0..<8, with: PNGChunkList.bigEndian(UInt32(frame.region.width)) + PNGChunkList.bigEndian(UInt32(frame.region.height)))
        out += PNGChunkList.serialize("IHDR", ihdr)
        for chunk in list.chunks.prefix(while: { $0.type != "IDAT" }) where (chunk.type == "PLTE" || chunk.type == "tRNS") && chunk.crcMatches {
            out += PNGChunkList.serialize(chunk.type, chunk.data)
        }
        out += PNGChunkList.serialize("IDAT", frame.data.joined())
        out += PNGChunkList.serialize("IEND", [])
        return out
    }
}
