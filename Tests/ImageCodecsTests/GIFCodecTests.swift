import Testing
import ImageCore
@testable import ImageCodecs

/// Builds GIF files byte by byte, independently of the codec: an "uncompressed" LZW stream
/// (a clear code after every two literals keeps codes at minimum size + 1 bits).
enum GIFBytes {
    static func lzw(_ indices: [UInt8], minCodeSize: Int) -> [UInt8] {
        let clear = 1 << minCodeSize, end = clear + 1, width = minCodeSize + 1
        var codes = [clear]
        for (i, v) in indices.enumerated() {
            if i > 0 && i % 2 == 0 { codes.append(clear) }
            codes.append(Int(v))
        }
        codes.append(end)
        var bytes: [UInt8] = [], acc = 0, bits = 0
        for c in codes {
            acc |= c << bits; bits += width
            while bits >= 8 { bytes.append(UInt8(acc & 0xFF)); acc >>= 8; bits -= 8 }
        }
        if bits > 0 { bytes.append(UInt8(acc & 0xFF)) }
        var out = [UInt8(minCodeSize)]
        var i = 0
        while i < bytes.count { let n = min(255, bytes.count - i); out.append(UInt8(n)); out += bytes[i..<(i + n)]; i += n }
        return out + [0]
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// A GIF89a with a 4-entry global table and the given frames.
    static func file(width: Int, height: Int, table: [[UInt8]], loop: Int?, minCodeSize: Int = 2,
                     frames: [(x: Int, y: Int, w: Int, h: Int, disposal: Int, delay: Int, transparent: Int?, indices: [UInt8])]) -> [UInt8] {
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF1, 0, 0]  // global table, 4 entries
        for e in table { out += e }
        if let loop { out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loop) + [0] }
        for f in frames {
            let flags = UInt8(f.disposal << 2) | (f.transparent == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, flags] + le16(f.delay) + [UInt8(f.transparent ?? 0), 0]
            out += [0x2C] + le16(f.x) + le16(f.y) + le16(f.w) + le16(f.h) + [0]
            out += lzw(f.indices, minCodeSize: minCodeSize)
        }
        return out + [0x3B]
    }
}

@Suite("GIF codec")
struct GIFCodecTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    static func rgba(_ b: Bitmap) -> [[UInt8]] {
        (0..<b.height).flatMap { y in
            let row = b.straightRGBARow(y)
            return (0..<b.width).map { x in (0..<4).map { UInt8((row[x * 4 + $0] * 255).rounded()) } }
        }
    }

    static func indices(_ b: Bitmap) -> [Int] {
        let bpc = b.format.bitsPerComponent
        return (0..<b.height).flatMap { y in (0..<b.width).map { x in
            let bit = x * bpc
            return Int(b.bytes[y * b.bytesPerRow + bit / 8] >> UInt8(8 - bpc - bit % 8)) & ((1 << bpc) - 1)
        } }
    }

    @Test("disposal 2 clears to transparent and disposal 3 restores, as computed by hand")
    func disposalCompositing() throws {
        // Table: 0 red, 1 green, 2 blue, 3 unused (transparent). Screen 4×4.
        let bytes = GIFBytes.file(width: 4, height: 4, table: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]], loop: 0, frames: [
            (0, 0, 4, 4, 1, 10, 3, [UInt8](repeating: 0, count: 16)),   // red everywhere, keep
            (1, 1, 2, 2, 3, 20, 3, [1, 1, 1, 1]),                        // green square, then restore previous
            (2, 2, 2, 2, 2, 30, 3, [3, 2, 2, 2]),                        // blue L (top-left transparent), then clear
            (0, 0, 1, 1, 1, 40, 3, [1]),                                 // green dot
        ])
        let image = try GIFCodec.decode(bytes, options: DecodeOptions())
        let animation = try #require(image.animation)
        let r = Self.red, g = Self.green, b = Self.blue, c = Self.clear
        let expected: [[[UInt8]]] = [
            [r, r, r, r, r, r, r, r, r, r, r, r, r, r, r, r],
            [r, r, r, r, r, g, g, r, r, g, g, r, r, r, r, r],
            [r, r, r, r, r, r, r, r, r, r, r, b, r, r, b, b],   // the green square was restored away
            [g, r, r, r, r, r, r, r, r, r, c, c, r, r, c, c],   // the blue L's region was cleared
        ]
        #expect(animation.frames.count == 4)
        for (k, frame) in animation.frames.enumerated() {
            #expect(Self.rgba(frame.canvas) == expected[k], "canvas \(k + 1)")
        }
        #expect(animation.frames.map(\.disposal) == [.none, .previous, .background, .none])
        #expect(animation.frames.map(\.delay) == [0.1, 0.2, 0.3, 0.4])
        #expect(animation.frames[1].region == PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(animation.loopCount == 0)
        #expect(image.bitmap == animation.frames[0].canvas)
        #expect(image.format == .rgba8)
        #expect(image.metadata.storedBitDepth == 2)
        let header = try GIFCodec.readHeader(bytes, options: DecodeOptions())
        #expect(header.frameCount == 4 && header.format == .rgba8 && header.width == 4)
    }

    @Test("frames partly outside the screen are clipped; without a transparent index the canvas is RGB on the background colour")
    func clippingWithoutTransparency() throws {
        let bytes = GIFBytes.file(width: 3, height: 2, table: [[10, 20, 30], [40, 50, 60], [70, 80, 90], [1, 2, 3]], loop: nil, frames: [
            (0, 0, 2, 1, 0, 5, nil, [1, 2]),
            (2, 1, 2, 2, 0, 5, nil, [2, 2, 2, 2]),   // 1×1 of it is on the screen
        ])
        let image = try GIFCodec.decode(bytes, options: DecodeOptions())
        #expect(image.format == .rgb8 && !image.format.hasAlpha)
        let animation = try #require(image.animation)
        #expect(animation.loopCount == 1, "no loop extension plays once")
        let bg: [UInt8] = [10, 20, 30, 255], c1: [UInt8] = [40, 50, 60, 255], c2: [UInt8] = [70, 80, 90, 255]
        #expect(Self.rgba(animation.frames[1].canvas) == [c1, c2, bg, bg, bg, c2])
        #expect(animation.frames[1].region == PixelRect(x: 2, y: 1, width: 1, height: 1))
    }

    @Test("a single frame with a transparent index is indexed with that entry at alpha 0")
    func stillTransparent() throws {
        let bytes = GIFBytes.file(width: 2, height: 2, table: [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]], loop: nil, frames: [
            (0, 0, 2, 2, 0, 0, 2, [0, 1, 2, 3]),
        ])
        let image = try GIFCodec.decode(bytes, options: DecodeOptions())
        guard case .indexed(let palette) = image.format.colorModel else { Issue.record("not indexed: \(image.format)"); return }
        #expect(palette.entries.map(\.alpha) == [255, 255, 0, 255])
        #expect(Self.indices(image.bitmap) == [0, 1, 2, 3])
        #expect(image.animation == nil && image.format.hasAlpha)
    }

    @Test("a file cut after the first of two frames decodes that frame; cut inside it, it is rejected")
    func truncation() throws {
        let frame = (x: 0, y: 0, w: 2, h: 2, disposal: 1, delay: 1, transparent: Int?.none, indices: [UInt8]([0, 1, 2, 3]))
        let bytes = GIFBytes.file(width: 2, height: 2, table: [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]], loop: 0, frames: [frame, frame])
        // Header 13, table 12, loop extension 19, control extension 8, descriptor 10, then the data.
        let firstEnd = 13 + 12 + 19 + 8 + 10 + GIFBytes.lzw([0, 1, 2, 3], minCodeSize: 2).count
        let image = try GIFCodec.decode(Array(bytes[..<(firstEnd + 3)]), options: DecodeOptions())
        #expect(image.frameCount == 1)
        #expect(image.metadata.properties["gif.stoppedEarly"] != nil)
        #expect(throws: DecodeError.self) { try GIFCodec.decode(Array(bytes[..<(firstEnd - 3)]), options: DecodeOptions()) }
    }

    @Test("image data with an LZW code size above 8, which giflib refuses, still decodes", arguments: [9, 11])
    func wideCodeSize(codeSize: Int) throws {
        let indices: [UInt8] = [0, 1, 2, 3, 3, 2, 1, 0, 2]
        let bytes = GIFBytes.file(width: 3, height: 3, table: [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]], loop: nil,
                                  minCodeSize: codeSize, frames: [(0, 0, 3, 3, 0, 0, nil, indices)])
        let image = try GIFCodec.decode(bytes, options: DecodeOptions())
        #expect(Self.indices(image.bitmap) == indices.map(Int.init))
        #expect(try GIFCodec.readHeader(bytes, options: DecodeOptions()).frameCount == 1)
    }

    @Test("a screen of 65535 × 65535 is refused before any pixel is allocated")
    func hugeScreen() throws {
        let bytes = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x3B]
        do {
            _ = try GIFCodec.decode(bytes, options: DecodeOptions())
            Issue.record("decoded")
        } catch {
            guard case .limitExceeded(.pixels, _, _) = error else { Issue.record("wrong error \(error)"); return }
        }
    }

    // MARK: Round trips

    static func palette(_ count: Int, transparentAt: Int? = nil) -> Palette {
        var entries: [Palette.Entry] = []
        for i in 0..<count {
            let alpha: UInt8 = i == transparentAt ? 0 : 255
            entries.append(Palette.Entry(red: UInt8(i * 7 % 256), green: UInt8(255 - i), blue: UInt8(i * 13 % 256), alpha: alpha))
        }
        return Palette(entries)
    }

    static func indexed(width: Int, height: Int, bits: Int, palette: Palette) throws -> Bitmap {
        var b = try Bitmap(width: width, height: height, format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: bits))
        for y in 0..<height { for x in 0..<width {
            let v = (x + 3 * y) % palette.count
            let bit = x * bits
            b.bytes[y * b.bytesPerRow + bit / 8] |= UInt8(v << (8 - bits - bit % 8))
        } }
        return b
    }

    @Test("indexed bitmaps round-trip with identical indices and palette", arguments: [(1, 2), (4, 16), (8, 256), (8, 64)])
    func indexedRoundTrip(bits: Int, count: Int) throws {
        let palette = Self.palette(count, transparentAt: count == 16 ? 5 : nil)
        let source = try Self.indexed(width: 19, height: 13, bits: bits, palette: palette)
        let bytes = try GIFCodec.encode(Image(bitmap: source), options: EncodeOptions())
        let decoded = try GIFCodec.decode(bytes, options: DecodeOptions())
        #expect(decoded.format == PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8))
        #expect(Self.indices(decoded.bitmap) == Self.indices(source))
        #expect(decoded.format.hasAlpha == (count == 16))
        #expect(decoded.metadata.storedBitDepth == max(1, count.trailingZeroBitCount))
    }

    @Test("interlaced output decodes to the same pixels and says it is interlaced")
    func interlacedRoundTrip() throws {
        let source = try Self.indexed(width: 7, height: 13, bits: 8, palette: Self.palette(32))
        let bytes = try GIFCodec.encode(Image(bitmap: source), options: EncodeOptions(interlaced: true))
        let decoded = try GIFCodec.decode(bytes, options: DecodeOptions())
        #expect(decoded.bitmap == source)
        #expect(decoded.metadata.properties["interlace"] != nil)
    }

    @Test("RGB and on/off RGBA bitmaps with few colours go through an exact palette")
    func exactPaletteRoundTrip() throws {
        var rgba = try Bitmap(width: 16, height: 9, format: .rgba8)
        for y in 0..<9 { for x in 0..<16 {
            let o = y * rgba.bytesPerRow + x * 4
            rgba.bytes[o] = UInt8(x * 16); rgba.bytes[o + 1] = UInt8(y * 28); rgba.bytes[o + 2] = 7
            rgba.bytes[o + 3] = (x + y) % 5 == 0 ? 0 : 255
        } }
        let icc: [UInt8] = (0..<600).map { UInt8($0 % 251) }
        let image = Image(bitmap: rgba, metadata: ImageMetadata(iccProfile: icc))
        let decoded = try GIFCodec.decode(GIFCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        let a = Self.rgba(rgba), b = Self.rgba(decoded.bitmap)
        for i in a.indices { #expect(a[i][3] == 0 ? b[i][3] == 0 : a[i] == b[i], "pixel \(i)") }
        #expect(decoded.metadata.iccProfile == icc)
        #expect(decoded.format.hasAlpha)
    }

    @Test("partial alpha and more than 256 colours are refused with a suggestion")
    func refusals() throws {
        var partial = try Bitmap(width: 2, height: 1, format: .rgba8)
        partial.bytes = [1, 2, 3, 128, 4, 5, 6, 255]
        #expect(throws: EncodeError.self) { try GIFCodec.encode(Image(bitmap: partial), options: EncodeOptions()) }
        var many = try Bitmap(width: 300, height: 1, format: .rgb8)
        for x in 0..<300 { many.bytes[x * 3] = UInt8(x % 256); many.bytes[x * 3 + 1] = UInt8(x / 256) }
        do {
            _ = try GIFCodec.encode(Image(bitmap: many), options: EncodeOptions())
            Issue.record("encoded 300 colours")
        } catch {
            guard case .unsupportedFormat(.gif, _, let suggestion) = error else { Issue.record("wrong error \(error)"); return }
            #expect(suggestion.contains("256"))
        }
    }

    @Test("animations round-trip canvases, regions, disposals, delays and loop count", arguments: [0, 1, 7])
    func animationRoundTrip(loopCount: Int) throws {
        let w = 6, h = 5
        func canvas(_ paint: (Int, Int) -> [UInt8]) throws -> Bitmap {
            var b = try Bitmap(width: w, height: h, format: .rgba8)
            for y in 0..<h { for x in 0..<w { b.bytes.replaceSubrange((y * w + x) * 4..<((y * w + x) * 4 + 4), with: paint(x, y)) } }
            return b
        }
        let r = Self.red, g = Self.green, b = Self.blue, c = Self.clear
        // Frame 1 paints the left half red (the right stays transparent), kept.
        let c1 = try canvas { x, _ in x < 3 ? r : c }
        // Frame 2 paints a green 2×2 at (3, 1), then restores the previous canvas.
        let c2 = try canvas { x, y in x >= 3 && x < 5 && y >= 1 && y < 3 ? g : (x < 3 ? r : c) }
        // Frame 3 paints blue over row 4, then clears its region.
        let c3 = try canvas { x, y in y == 4 ? b : (x < 3 ? r : c) }
        // Frame 4 paints one green pixel at (5, 0).
        let c4 = try canvas { x, y in x == 5 && y == 0 ? g : (y == 4 ? c : (x < 3 ? r : c)) }
        let frames = [
            AnimationFrame(canvas: c1, delay: 0.1, region: PixelRect(x: 0, y: 0, width: 3, height: 5), disposal: .none),
            AnimationFrame(canvas: c2, delay: 0.25, region: PixelRect(x: 3, y: 1, width: 2, height: 2), disposal: .previous),
            AnimationFrame(canvas: c3, delay: 1.5, region: PixelRect(x: 0, y: 4, width: 6, height: 1), disposal: .background),
            AnimationFrame(canvas: c4, delay: 0.02, region: PixelRect(x: 5, y: 0, width: 1, height: 1), disposal: .unspecified),
        ]
        let image = Image(bitmap: c1, animation: Animation(loopCount: loopCount, frames: frames))
        let decoded = try GIFCodec.decode(GIFCodec.encode(image, options: EncodeOptions()), options: DecodeOptions())
        let animation = try #require(decoded.animation)
        #expect(animation.loopCount == loopCount)
        #expect(animation.frames == frames)
        #expect(decoded.bitmap == c1)
    }
}
