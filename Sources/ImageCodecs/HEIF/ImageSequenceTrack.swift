import ImageCore

/// An image sequence's picture track (ISO/IEC 23008-12 §7, an AVIF `avis` file's `moov`): the first `trak` whose
/// handler is `pict`, read by imglab itself for `info` and the frame timing. Its frames are decoded by libavif
/// (``AVIFSequenceReader``).
struct ImageSequenceTrack: Hashable, Sendable {
    /// How many frames the track holds (`stsz` sample count).
    var frameCount: Int
    /// Each frame's duration in seconds (`stts` deltas over the `mdhd` timescale).
    var delays: [Double]
    /// How many times the sequence plays: 0 = forever, when the edit list repeats (`elst` flags bit 0) or there
    /// is none (browsers loop such files); 1 when an edit list does not repeat.
    var loopCount: Int

    /// The most frames a track may declare; more is taken for a damaged file.
    static let maximumFrames = 100_000

    /// The picture track of `moov`, or `nil` when it has none.
    /// - Throws: ``DecodeError/malformed(_:reason:offset:)`` for a track whose tables disagree or overflow.
    static func read(_ bytes: [UInt8], _ container: ContainerFormat, moov: HEIFStructure.Box)
        throws(DecodeError) -> ImageSequenceTrack? {
        for trak in try HEIFStructure.boxes(bytes, container, from: moov.payload, to: moov.end) where trak.type == "trak" {
            let parts = try HEIFStructure.boxes(bytes, container, from: trak.payload, to: trak.end)
            guard let mdia = parts.first(where: { $0.type == "mdia" }) else { continue }
            let media = try HEIFStructure.boxes(bytes, container, from: mdia.payload, to: mdia.end)
            guard let hdlr = media.first(where: { $0.type == "hdlr" }), hdlr.end - hdlr.payload >= 12,
                  bytes[hdlr.payload + 8..<hdlr.payload + 12].elementsEqual("pict".utf8) else { continue }
            var track = ImageSequenceTrack(frameCount: 0, delays: [], loopCount: 0)
            guard let mdhd = media.first(where: { $0.type == "mdhd" }) else {
                throw .malformed(container, reason: "the picture track has no mdhd", offset: mdia.start)
            }
            var r = ByteReader(bytes, container: container, offset: mdhd.payload)
            let version = try r.u8("mdhd version")
            r.offset = mdhd.payload + (version == 1 ? 20 : 12)
            let timescale = Double(try r.u32("mdhd timescale"))
            guard timescale > 0, r.offset <= mdhd.end else {
                throw .malformed(container, reason: "the picture track's timescale is 0", offset: mdhd.start)
            }
            let stbl = try Self.path(bytes, container, media, ["minf", "stbl"])
            guard let stsz = stbl.first(where: { $0.type == "stsz" }), let stts = stbl.first(where: { $0.type == "stts" }) else {
                throw .malformed(container, reason: "the picture track has no stsz or stts", offset: mdia.start)
            }
            r.offset = stsz.payload + 8
            track.frameCount = Int(try r.u32("stsz sample count"))
            guard track.frameCount >= 1, track.frameCount <= maximumFrames, r.offset <= stsz.end else {
                throw .malformed(container, reason: "the picture track declares \(track.frameCount) frames", offset: stsz.start)
            }
            r.offset = stts.payload + 4
            var entries = Int(try r.u32("stts entry count"))
            while entries > 0, track.delays.count < track.frameCount {
                entries -= 1
                guard r.offset + 8 <= stts.end else { throw .truncated(container, reason: "stts ends early", offset: stts.start) }
                let count = Int(try r.u32("stts sample count")), delta = Double(try r.u32("stts sample delta"))
                track.delays += repeatElement(delta / timescale, count: min(count, track.frameCount - track.delays.count))
            }
            guard track.delays.count == track.frameCount else {
                throw .malformed(container, reason: "stts times \(track.delays.count) of \(track.frameCount) frames",
                                 offset: stts.start)
            }
            if let edts = parts.first(where: { $0.type == "edts" }),
               let elst = try HEIFStructure.boxes(bytes, container, from: edts.payload, to: edts.end).first(where: { $0.type == "elst" }),
               elst.end - elst.payload >= 4 {
                track.loopCount = bytes[elst.payload + 3] & 1 == 1 ? 0 : 1
            }
            return track
        }
        return nil
    }

    /// The children of the box reached from `boxes` through `names`, one level each.
    private static func path(_ bytes: [UInt8], _ container: ContainerFormat, _ boxes: [HEIFStructure.Box],
                             _ names: [String]) throws(DecodeError) -> [HEIFStructure.Box] {
        var level = boxes
        for name in names {
            guard let box = level.first(where: { $0.type == name }) else { return [] }
            level = try HEIFStructure.boxes(bytes, container, from: box.payload, to: box.end)
        }
        return level
    }
}
