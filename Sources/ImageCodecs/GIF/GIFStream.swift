import ImageCore

/// A GIF file as a sequence of records, between giflib and the pixel model.
///
/// ``GIFReader`` fills it from a file and ``GIFCompositor`` turns it into an ``Image``;
/// the encoder builds one from an ``Image`` and ``GIFWriter`` writes it. Colour tables hold
/// opaque entries: GIF transparency lives in the Graphics Control Extension, not the table.
struct GIFStream: Sendable {
    /// Logical screen width, pixels.
    var width: Int
    /// Logical screen height, pixels.
    var height: Int
    /// The global colour table, when the screen descriptor has one.
    var globalTable: [Palette.Entry]?
    /// Index bits of the global colour table as declared (its size is 2^bits), or nil.
    var globalTableBits: Int?
    /// The screen descriptor's background colour index (into the global table).
    var backgroundIndex: Int
    /// The NETSCAPE2.0 / ANIMEXTS1.0 loop count as stored (0 = forever); nil when absent.
    /// With several loop extensions the last one wins.
    var loopCount: Int?
    /// The image descriptors in file order.
    var frames: [GIFFrameRecord]
    /// The ICC profile of an `ICCRGBG1012` application extension.
    var iccProfile: [UInt8]?
    /// Comment extensions, decoded as Latin-1.
    var comments: [String]
    /// "87a" or "89a".
    var version: String
    /// Why reading stopped before the trailer, when it ended leniently after complete frames.
    var stopReason: String?
}

/// One image descriptor with the extensions that precede it.
struct GIFFrameRecord: Sendable {
    /// The rectangle the descriptor declares, in screen pixels (may extend past the screen).
    var rect: PixelRect
    /// The part of `rect` inside the logical screen (empty when the frame lies outside).
    var visible: PixelRect
    /// Whether rows are stored in the four-pass interlaced order.
    var interlaced: Bool
    /// The local colour table, when the descriptor has one.
    var localTable: [Palette.Entry]?
    /// Index bits of the local table as declared.
    var localTableBits: Int?
    /// The Graphics Control Extension before this image, if any.
    var control: GIFGraphicsControl?
    /// Colour indices of `visible`, row by row in display order (`visible.width × visible.height`);
    /// empty when only the structure was read.
    var indices: [UInt8]
}

/// What a Graphics Control Extension (GIF89a §23) says about the next image.
struct GIFGraphicsControl: Hashable, Sendable {
    /// Disposal method 0–3; the reserved values 4–7 are read as 0 (unspecified).
    var disposal: Int
    /// Delay before the next frame, in hundredths of a second.
    var delayCentiseconds: Int
    /// The colour index drawn as transparent, when the transparency flag is set.
    var transparentIndex: Int?

    /// Parses the 4-byte extension body: packed flags, delay (little-endian), transparent index.
    init?(body: [UInt8]) {
        guard body.count >= 4 else { return nil }
        let method = Int(body[0] >> 2) & 7
        disposal = method <= 3 ? method : 0
        delayCentiseconds = Int(body[1]) | Int(body[2]) << 8
        transparentIndex = body[0] & 1 == 1 ? Int(body[3]) : nil
    }

    init(disposal: Int, delayCentiseconds: Int, transparentIndex: Int?) {
        self.disposal = disposal
        self.delayCentiseconds = delayCentiseconds
        self.transparentIndex = transparentIndex
    }

    /// The 4-byte extension body.
    var body: [UInt8] {
        let flags = UInt8((disposal & 7) << 2) | (transparentIndex == nil ? 0 : 1)
        let delay = min(max(delayCentiseconds, 0), 0xFFFF)
        return [flags, UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(transparentIndex ?? 0)]
    }

    /// The disposal in the pixel model's terms.
    var frameDisposal: FrameDisposal {
        switch disposal {
        case 1: return .none
        case 2: return .background
        case 3: return .previous
        default: return .unspecified
        }
    }

    /// The GIF disposal method for a frame disposal.
    static func method(for disposal: FrameDisposal) -> Int {
        switch disposal {
        case .unspecified: return 0
        case .none: return 1
        case .background: return 2
        case .previous: return 3
        }
    }
}

extension GIFFrameRecord {
    /// The colour table that applies to this frame: its local table, else the global one.
    func table(in stream: GIFStream) -> [Palette.Entry]? { localTable ?? stream.globalTable }
}

extension GIFFrameRecord {
    /// The part of `rect` inside a `width × height` screen; zero-sized when they do not meet.
    static func clip(_ rect: PixelRect, width: Int, height: Int) -> PixelRect {
        let x0 = min(max(rect.x, 0), width), y0 = min(max(rect.y, 0), height)
        let x1 = min(rect.x + rect.width, width), y1 = min(rect.y + rect.height, height)
        return PixelRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
    }
}

/// The row order of an interlaced GIF image (GIF89a appendix E): every 8th row from 0, every
/// 8th from 4, every 4th from 2, every 2nd from 1. Element `i` is the display row of stored row `i`.
func gifInterlacedRowOrder(height: Int) -> [Int] {
    var order: [Int] = []
    order.reserveCapacity(height)
    for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        var y = start
        while y < height { order.append(y); y += step }
    }
    return order
}
