import ImageCore

/// The PNG colour types of IHDR (PNG spec §11.2.2, Table 11.1) with their allowed bit depths.
enum PNGColorType: Int, Sendable, CaseIterable {
    case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

    /// Bit depths Table 11.1 allows for this colour type.
    /// Samples per pixel: palette indices and gray 1, gray+alpha 2, RGB 3, RGBA 4.
    var channelCount: Int {
        switch self {
        case .gray, .palette: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    var allowedBitDepths: [Int] {
        switch self {
        case .gray: return [1, 2, 4, 8, 16]
        case .palette: return [1, 2, 4, 8]
        case .rgb, .grayAlpha, .rgba: return [8, 16]
        }
    }

    /// The name `imglab info` shows.
    var name: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "rgb"
        case .palette: return "palette"
        case .grayAlpha: return "gray+alpha"
        case .rgba: return "rgba"
        }
    }
}

/// The IHDR chunk: image size and how pixels are stored (§11.2.2).
struct PNGImageHeader: Sendable, Hashable {
    /// Width in pixels, 1…2³¹ − 1.
    var width: Int
    /// Height in pixels, 1…2³¹ − 1.
    var height: Int
    /// Bits per sample (or per palette index).
    var bitDepth: Int
    /// The colour type.
    var colorType: PNGColorType
    /// Whether the pixels are Adam7-interlaced (interlace method 1).
    var interlaced: Bool

    /// Reads the signature and IHDR only (the first 33 bytes), so that limits can be checked
    /// before the rest of the file is walked.
    /// - Throws: as ``PNGChunkList/init(parsing:)`` for those bytes, then as ``init(parsing:)``.
    init(readingStartOf bytes: [UInt8]) throws(DecodeError) {
        let list = try PNGChunkList(parsing: bytes, stoppingAfterFirstChunk: true)
        try self.init(parsing: list.chunks[0])
    }

    /// Parses and validates IHDR data.
    /// - Throws: `.malformed` with the field, its value and the rule it breaks.
    init(parsing chunk: PNGChunk) throws(DecodeError) {
        let d = chunk.data
        guard d.count == 13 else {
            throw .malformed(.png, reason: "IHDR is \(d.count) bytes, expected 13", offset: chunk.offset)
        }
        let at = chunk.dataOffset
        let width = Int(PNGChunkList.u32(d, 0)), height = Int(PNGChunkList.u32(d, 4))
        guard (1...0x7FFF_FFFF).contains(width) else {
            throw .malformed(.png, reason: "IHDR width \(width) is outside 1...2^31-1", offset: at)
        }
        guard (1...0x7FFF_FFFF).contains(height) else {
            throw .malformed(.png, reason: "IHDR height \(height) is outside 1...2^31-1", offset: at + 4)
        }
        let bitDepth = Int(d[d.startIndex + 8]), rawColorType = Int(d[d.startIndex + 9])
        guard let colorType = PNGColorType(rawValue: rawColorType) else {
            throw .malformed(.png, reason: "IHDR colour type \(rawColorType) is not 0, 2, 3, 4 or 6", offset: at + 9)
        }
        guard colorType.allowedBitDepths.contains(bitDepth) else {
            throw .malformed(.png, reason: "IHDR bit depth \(bitDepth) is not allowed for colour type \(rawColorType) (allowed: \(colorType.allowedBitDepths.map(String.init).joined(separator: ", ")))", offset: at + 8)
        }
        let compression = d[d.startIndex + 10], filter = d[d.startIndex + 11], interlace = d[d.startIndex + 12]
        guard compression == 0 else {
            throw .malformed(.png, reason: "IHDR compression method \(compression), expected 0", offset: at + 10)
        }
        guard filter == 0 else {
            throw .malformed(.png, reason: "IHDR filter method \(filter), expected 0", offset: at + 11)
        }
        guard interlace <= 1 else {
            throw .malformed(.png, reason: "IHDR interlace method \(interlace), expected 0 or 1", offset: at + 12)
        }
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlace == 1
    }

    /// The pixel format a decode delivers for these samples: exactly as stored, except that a
    /// tRNS colour key on gray or RGB adds an alpha channel (low-bit gray becomes 8-bit).
    /// - Parameters:
    ///   - colorKey: whether a valid gray/RGB tRNS chunk is present.
    ///   - palette: the PLTE entries with tRNS alphas, for colour type 3.
    func deliveredFormat(colorKey: Bool, palette: Palette?) throws(DecodeError) -> PixelFormat {
        switch colorType {
        case .gray:
            if colorKey { return PixelFormat(colorModel: .gray, bitsPerComponent: max(bitDepth, 8), alphaInfo: .last) }
            return PixelFormat(colorModel: .gray, bitsPerComponent: bitDepth)
        case .rgb:
            return PixelFormat(colorModel: .rgb, bitsPerComponent: bitDepth, alphaInfo: colorKey ? .last : .none)
        case .grayAlpha:
            return PixelFormat(colorModel: .gray, bitsPerComponent: bitDepth, alphaInfo: .last)
        case .rgba:
            return PixelFormat(colorModel: .rgb, bitsPerComponent: bitDepth, alphaInfo: .last)
        case .palette:
            guard let palette, palette.count > 0 else {
                throw .malformed(.png, reason: "colour type 3 needs a PLTE chunk before IDAT", offset: nil)
            }
            // Entries past 2^depth can never be indexed (§11.2.3); the pixel model cannot hold them.
            let usable = Palette(Array(palette.entries.prefix(1 << bitDepth)))
            return PixelFormat(colorModel: .indexed(usable), bitsPerComponent: bitDepth)
        }
    }

    /// Bytes of one decoded row in `format`.
    func rowBytes(in format: PixelFormat) -> Int { format.minimumBytesPerRow(width: width) }
}
