/// The marker segments of a JPEG file up to its first scan, read in Swift.
///
/// libjpeg decodes; this walk only finds what libjpeg either does not expose or rejects
/// without saying why in a typed way: the SOF marker (process and precision, for
/// `.unsupported` with the marker's offset), the APP1 EXIF block and the APP2 ICC chunks.
/// It follows libjpeg's `next_marker` rules: bytes before a 0xFF are skipped (libjpeg warns
/// "extraneous bytes"), 0xFF fill bytes are skipped, and 0xFF 0x00 is discarded.
/// Spec: ITU T.81 §B.1.1 (markers), Table B.1 (marker codes).
struct JPEGMarkers: Sendable {
    /// One marker segment with a length field.
    struct Segment: Sendable {
        /// The second marker byte (0xE1 for APP1…).
        var marker: UInt8
        /// Offset of the marker's 0xFF byte in the file.
        var offset: Int
        /// The payload, after the two length bytes.
        var payload: Range<Int>
    }

    /// The frame header (SOFn).
    struct Frame: Sendable {
        /// The SOF marker's second byte: 0xC0…0xCF (not C4, C8, CC), or 0xF7 for JPEG-LS.
        var marker: UInt8
        /// Offset of the SOF marker's 0xFF byte.
        var offset: Int
        /// Sample precision P in bits.
        var precision: Int
        /// Number of lines Y (0 when the height comes later in a DNL segment).
        var height: Int
        /// Samples per line X.
        var width: Int
        /// Component count Nf.
        var componentCount: Int
    }

    /// Segments with a payload, in file order, up to the first SOS (or EOI or the end).
    var segments: [Segment] = []
    /// The first SOF segment, when one was found before the first scan.
    var frame: Frame?
    /// Whether the walk reached the first SOS or EOI: every header segment is in ``segments``.
    /// False when the bytes end (or a segment runs past them) before: a prefix of the file
    /// too short for its header.
    var reachedScan = false

    /// Walks `bytes` from SOI. The walk never fails on damaged segments: it stops and leaves
    /// the judgement to libjpeg. It throws only when the file does not start with SOI.
    init(_ bytes: [UInt8]) throws(DecodeError) {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw .malformed(.jpeg, reason: "the file does not start with the SOI marker FF D8", offset: 0)
        }
        var i = 2
        // Every pass moves i forward by at least one byte, so the walk ends.
        while i < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let markerOffset = i
            while i < bytes.count && bytes[i] == 0xFF { i += 1 }
            guard i < bytes.count else { break }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD7:
                continue  // stuffed zero (garbage here), TEM or RSTn: no length field
            case 0xD9, 0xDA:
                reachedScan = true
                return    // EOI or SOS: the header part is over
            default:
                break
            }
            guard i + 2 <= bytes.count else { return }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return }
            let payload = (i + 2)..<(i + length)
            segments.append(Segment(marker: marker, offset: markerOffset, payload: payload))
            if frame == nil, Self.isFrameMarker(marker), payload.count >= 6 {
                let p = payload.lowerBound
                frame = Frame(marker: marker, offset: markerOffset, precision: Int(bytes[p]),
                              height: Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]),
                              width: Int(bytes[p + 3]) << 8 | Int(bytes[p + 4]),
                              componentCount: Int(bytes[p + 5]))
            }
            i += length
        }
    }

    /// Whether `marker` starts a frame: SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC),
    /// or SOF55 (F7), JPEG-LS (ITU T.87).
    static func isFrameMarker(_ marker: UInt8) -> Bool {
        switch marker {
        case 0xC0...0xCF: return marker != 0xC4 && marker != 0xC8 && marker != 0xCC
        case 0xF7: return true
        default: return false
        }
    }

    /// The payloads of the APPn segments whose payload starts with `signature`, with the
    /// signature removed, in file order.
    func applicationData(_ app: Int, signature: [UInt8], in bytes: [UInt8]) -> [(offset: Int, data: ArraySlice<UInt8>)] {
        segments.compactMap { segment in
            guard Int(segment.marker) == 0xE0 + app, segment.payload.count >= signature.count,
                  bytes[segment.payload].starts(with: signature) else { return nil }
            return (segment.offset, bytes[(segment.payload.lowerBound + signature.count)..<segment.payload.upperBound])
        }
    }
}
