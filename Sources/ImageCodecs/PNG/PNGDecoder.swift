import ImageCore

/// Reading a PNG or APNG file into an ``Image``: chunk walk, IHDR, limits, metadata, then
/// pixels (``PNGPixelDecoder``: libdeflate or libpng) and, for an APNG, the frames (``APNGDecoder``).
enum PNGDecoder {
    /// The header, read without inflating pixels (the walk does inflate iCCP and text chunks).
    static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let header = try PNGImageHeader(readingStartOf: bytes)
        try options.limits.check(width: header.width, height: header.height)
        return try readHeader(header, try PNGChunkList(parsing: bytes))
    }

    /// The header of the PNG file at `path`, read by walking its chunks with IDAT data skipped
    /// (``PNGChunkList/init(walkingFile:maxChunkBytes:)``), so the memory is the ancillary
    /// chunks', not the file's. `start` is the file's first bytes (at least the signature and IHDR).
    static func readHeader(path: String, start: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let header = try PNGImageHeader(readingStartOf: start)
        try options.limits.check(width: header.width, height: header.height)
        return try readHeader(header, try PNGChunkList(walkingFile: path, maxChunkBytes: options.limits.maxBytes))
    }

    private static func readHeader(_ header: PNGImageHeader, _ list: PNGChunkList) throws(DecodeError) -> ImageHeader {
        var read = PNGMetadata(reading: list, header: header)
        let format = try header.deliveredFormat(colorKey: hasColorKey(list, header), palette: palette(list, header))
        var frameCount = 1, timing: AnimationTiming?
        switch APNGStructure.parse(list, header: header) {
        case .animated(let animation):
            frameCount = animation.declaredFrameCount
            read.metadata.properties["apng frames"] = String(animation.declaredFrameCount)
            // The delays of the frames the file holds (at most acTL's count): never an array sized
            // by acTL alone, which a 16-byte chunk can set to 2³¹ (a fuzzed file made `info` hang).
            if frameCount > 1 { timing = AnimationTiming(loopCount: animation.plays, delays: animation.frames.prefix(frameCount).map(\.delay)) }
        case .broken(let reason, let offset):
            read.metadata.properties["apng ignored"] = APNGDecoder.describe(reason, offset)
        case .notAnimated:
            break
        }
        var result = ImageHeader(container: .png, width: header.width, height: header.height, format: format,
                                 orientation: read.orientation, frameCount: frameCount, metadata: read.metadata)
        result.timing = timing
        return result
    }

    /// Decodes the whole file.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        let header = try PNGImageHeader(readingStartOf: bytes)
        var limits = options.limits
        try limits.check(width: header.width, height: header.height)
        let list = try PNGChunkList(parsing: bytes)
        try PNGCompressionBound.check(header, list)
        let read = PNGMetadata(reading: list, header: header)
        var metadata = read.metadata
        switch APNGStructure.parse(list, header: header) {
        case .animated(let structure):
            return try APNGDecoder.decode(bytes, list: list, header: header, structure: structure,
                                          metadata: metadata, orientation: read.orientation,
                                          decodeAllFrames: options.decodeAllFrames, limits: &limits)
        case .broken(let reason, let offset):
            metadata.properties["apng ignored"] = APNGDecoder.describe(reason, offset)
        case .notAnimated:
            break
        }
        let bitmap = try PNGPixelDecoder.decode(bytes, header: header, chunks: list, limits: &limits)
        return Image(bitmap: bitmap, orientation: read.orientation, metadata: metadata)
    }

    /// Whether a gray or RGB image has a tRNS colour key of the right length (§11.3.2.1).
    static func hasColorKey(_ list: PNGChunkList, _ header: PNGImageHeader) -> Bool {
        guard let tRNS = list.first("tRNS") else { return false }
        switch header.colorType {
        case .gray: return tRNS.data.count == 2
        case .rgb: return tRNS.data.count == 6
        default: return false
        }
    }

    /// The PLTE entries with tRNS alphas, for colour type 3, as the walk sees them.
    static func palette(_ list: PNGChunkList, _ header: PNGImageHeader) -> Palette? {
        guard header.colorType == .palette, let plte = list.first("PLTE"), plte.data.count % 3 == 0 else { return nil }
        let rgb = Array(plte.data)
        let count = min(rgb.count / 3, 256)
        var alphas = [UInt8](repeating: 255, count: count)
        if let tRNS = list.first("tRNS"), tRNS.data.count <= count {
            for (i, a) in tRNS.data.enumerated() { alphas[i] = a }
        }
        return Palette((0..<count).map { Palette.Entry(red: rgb[$0 * 3], green: rgb[$0 * 3 + 1], blue: rgb[$0 * 3 + 2], alpha: alphas[$0]) })
    }
}
