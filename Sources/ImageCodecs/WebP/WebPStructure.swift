import ImageCore

/// The chunks of a WebP file, read without decoding a pixel: what `imglab info` reports and what
/// the decoder checks against the limits before it allocates.
///
/// A WebP file is RIFF: `RIFF`, the size of what follows (32-bit little-endian), `WEBP`, then
/// chunks of a FourCC, a 32-bit little-endian size and the payload padded to an even length. A
/// simple file holds one `VP8 ` (lossy) or `VP8L` (lossless) chunk; an extended one starts with
/// `VP8X` (flags and the canvas size) and may hold `ICCP`, `ANIM` with `ANMF` frames, `ALPH`,
/// `EXIF` and `XMP `. Spec: RFC 9649 (WebP Image Format), §2.5–§2.7.
struct WebPStructure: Sendable, Hashable {
    /// The canvas: the VP8X size, or the one bitstream's.
    var width: Int, height: Int
    /// Whether any pixel can be transparent (the VP8X alpha flag, a VP8L header's, an ALPH chunk).
    var hasAlpha: Bool
    /// How the pixels are compressed: every bitstream lossy, every one lossless, or both kinds.
    var compression: Compression
    /// The frames of an animation, in file order; empty for a still image.
    var frames: [Frame]
    /// The ANIM chunk's loop count (0 = forever); 0 for a still image.
    var loopCount: Int
    /// The ICCP chunk's profile.
    var iccProfile: [UInt8]?
    /// The EXIF chunk, from its TIFF byte-order mark (an `Exif\0\0` prefix some writers add is dropped).
    var exif: [UInt8]?

    enum Compression: String, Sendable, Hashable {
        case lossy = "VP8 (lossy)", lossless = "VP8L (lossless)", mixed = "VP8 and VP8L frames"
    }

    /// One ANMF chunk.
    struct Frame: Sendable, Hashable {
        /// Where the frame is drawn on the canvas.
        var region: PixelRect
        /// How long it shows, in milliseconds.
        var duration: Int
        var disposal: FrameDisposal
        var blend: FrameBlend
    }

    /// The bytes a file must start with: `RIFF`, any size, `WEBP`.
    static func matches(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Walks the chunks of `bytes`.
    /// - Throws: ``DecodeError/malformed(_:reason:offset:)`` or ``DecodeError/truncated(_:reason:offset:)``
    ///   naming the chunk and offset; ``DecodeError/unsupported(_:feature:)`` for a file with no image.
    init(_ bytes: [UInt8]) throws(DecodeError) {
        guard Self.matches(bytes) else { throw .malformed(.webp, reason: "no RIFF/WEBP signature", offset: 0) }
        var r = ByteReader(bytes, container: .webp, littleEndian: true)
        r.offset = 4
        let riffSize = Int(try r.u32("RIFF size"))
        // The RIFF size covers "WEBP" and the chunks; bytes after it are ignored, as libwebp does.
        let end = min(bytes.count, 8 + riffSize)
        guard riffSize >= 4 else { throw .malformed(.webp, reason: "RIFF size \(riffSize) is less than 4", offset: 4) }
        r.offset = 12
        var canvas: (width: Int, height: Int)?
        var flagsAlpha = false, animatedFlag = false
        var bitstreams: [(lossless: Bool, alpha: Bool, width: Int, height: Int)] = []
        var frames: [Frame] = []
        var loopCount = 0, sawAlphaChunk = false
        var icc: [UInt8]?, exif: [UInt8]?
        while r.offset + 8 <= end {
            let start = r.offset
            let fourCC = String(decoding: try r.take(4, "chunk type"), as: UTF8.self)
            let size = Int(try r.u32("chunk size"))
            guard size <= end - r.offset else {
                throw .truncated(.webp, reason: "chunk \(fourCC) declares \(size) bytes, \(end - r.offset) remain", offset: start)
            }
            let payload = Array(try r.take(size, fourCC))
            r.offset += size & 1  // chunks are padded to an even size
            switch fourCC {
            case "VP8X":
                guard start == 12, payload.count >= 10 else {
                    throw .malformed(.webp, reason: "VP8X must be the first chunk and 10 bytes long", offset: start)
                }
                flagsAlpha = payload[0] & 0x10 != 0
                animatedFlag = payload[0] & 0x02 != 0
                canvas = (Self.u24(payload, 4) + 1, Self.u24(payload, 7) + 1)
            case "ICCP": icc = payload
            case "EXIF": exif = Array(payload.starts(with: Array("Exif".utf8) + [0, 0]) ? payload.dropFirst(6) : payload[...])
            case "ANIM":
                guard payload.count >= 6 else { throw .malformed(.webp, reason: "ANIM is \(payload.count) bytes, not 6", offset: start) }
                loopCount = Int(payload[4]) | Int(payload[5]) << 8
            case "ANMF":
                guard payload.count >= 16 else { throw .malformed(.webp, reason: "ANMF is shorter than its 16-byte header", offset: start) }
                let flags = payload[15]
                frames.append(Frame(region: PixelRect(x: 2 * Self.u24(payload, 0), y: 2 * Self.u24(payload, 3),
                                                      width: Self.u24(payload, 6) + 1, height: Self.u24(payload, 9) + 1),
                                    duration: Self.u24(payload, 12),
                                    disposal: flags & 0x01 != 0 ? .background : .none,
                                    blend: flags & 0x02 != 0 ? .source : .over))
                // The frame's own bitstream chunks follow its 16-byte header.
                var inner = ByteReader(payload, container: .webp, offset: 16, littleEndian: true)
                while inner.offset + 8 <= payload.count {
                    let kind = String(decoding: try inner.take(4, "frame chunk type"), as: UTF8.self)
                    let length = Int(try inner.u32("frame chunk size"))
                    guard length <= payload.count - inner.offset else {
                        throw .truncated(.webp, reason: "frame chunk \(kind) overruns its ANMF", offset: start + 8 + inner.offset)
                    }
                    let data = Array(try inner.take(length, kind))
                    inner.offset = min(payload.count, inner.offset + (length & 1))
                    if kind == "ALPH" { sawAlphaChunk = true }
                    if let b = try Self.bitstream(kind, data, at: start) { bitstreams.append(b) }
                }
            case "ALPH": sawAlphaChunk = true
            default:
                if let b = try Self.bitstream(fourCC, payload, at: start) { bitstreams.append(b) }
            }
        }
        guard let first = bitstreams.first else {
            throw .malformed(.webp, reason: "no VP8 or VP8L bitstream", offset: nil)
        }
        width = canvas?.width ?? first.width
        height = canvas?.height ?? first.height
        hasAlpha = flagsAlpha || sawAlphaChunk || bitstreams.contains { $0.alpha }
        let lossless = bitstreams.filter(\.lossless).count
        compression = lossless == 0 ? .lossy : lossless == bitstreams.count ? .lossless : .mixed
        self.frames = animatedFlag ? frames : []
        self.loopCount = animatedFlag ? loopCount : 0
        iccProfile = icc
        self.exif = exif
    }

    /// The size (and for VP8L the alpha hint) of a `VP8 ` or `VP8L` chunk; nil for other chunks.
    private static func bitstream(_ fourCC: String, _ data: [UInt8], at offset: Int) throws(DecodeError)
        -> (lossless: Bool, alpha: Bool, width: Int, height: Int)? {
        switch fourCC {
        case "VP8 ":
            // A 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height (RFC 6386 §9.1).
            guard data.count >= 10, data[3] == 0x9D, data[4] == 0x01, data[5] == 0x2A else {
                throw .malformed(.webp, reason: "VP8 chunk without a key frame start code", offset: offset)
            }
            return (false, false, (Int(data[6]) | Int(data[7]) << 8) & 0x3FFF, (Int(data[8]) | Int(data[9]) << 8) & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then 14 bits width − 1, 14 bits height − 1, 1 bit alpha, 3 bits version.
            guard data.count >= 5, data[0] == 0x2F else {
                throw .malformed(.webp, reason: "VP8L chunk without its 0x2F signature", offset: offset)
            }
            let bits = UInt32(data[1]) | UInt32(data[2]) << 8 | UInt32(data[3]) << 16 | UInt32(data[4]) << 24
            return (true, bits >> 28 & 1 != 0, Int(bits & 0x3FFF) + 1, Int(bits >> 14 & 0x3FFF) + 1)
        default:
            return nil
        }
    }

    private static func u24(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16
    }
}
