import Foundation
import Testing
import ImageCore
@testable import ImageLab
@testable import ImageCorpus

/// Each mutant of the catalogue changes what its bug changes, by the arithmetic of the bug,
/// on tiny synthetic images; the catalogue is well formed.
@Suite("mutants")
struct MutantTests {
    static func bitmap(_ w: Int, _ h: Int, _ format: PixelFormat, _ bytes: [UInt8]) throws -> Bitmap {
        try Bitmap(width: w, height: h, format: format, bytes: bytes)
    }

    /// Straight RGBA in 8-bit code values (rounded) of pixel (x, y).
    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        let row = image.bitmap.straightRGBARow(y)
        return (0..<4).map { Int((row[x * 4 + $0] * 255).rounded()) }
    }

    static func run(_ id: String, _ op: LabOperation, _ source: Image) throws -> Image {
        guard let m = MutantCatalogue.mutant(id) else { throw CocoaError(.featureUnsupported) }
        return try m.make(BuiltinResizer()).apply(op, to: source)
    }

    static let xrgb = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst)

    @Test("catalogue ids are unique and the topics cover the documented bug topics")
    func catalogue() {
        let ids = MutantCatalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        let topics = Set(MutantCatalogue.topics.map(\.topic))
        for t in ["pink-tint", "channel-swap", "premultiply", "alpha-dropped", "black-border", "orientation", "16-bit",
                  "palette-transparency", "gamma", "jaggies", "half-pixel", "retina", "crop-anchor", "size-rounding", "bitmap-context"] {
            #expect(topics.contains(t), "topic \(t)")
        }
        for m in MutantCatalogue.all {
            #expect(!m.history.isEmpty && !m.references.isEmpty && !m.title.isEmpty, "\(m.id)")
            #expect(ResizerChoice.resolve("mutant:" + m.id) != nil, "\(m.id)")
        }
    }

    @Test("every mutant's triggers select at least one pair of the quick corpus")
    func triggersSelect() throws {
        let pairs = LabPair.all(in: QuickCorpus.generated.manifest)
        for m in MutantCatalogue.all {
            #expect(pairs.contains(where: m.triggers), "\(m.id) triggers no pair")
        }
        // The pink tint needs an alpha- or skip-first 8-bit source: the two BMP cases of that layout.
        let pink = Set(pairs.filter(Mutant.pinkTint.triggers).map(\.record.encoding))
        #expect(pink == ["bmp-xrgb32", "bmp-bgra32-v5"])
    }

    @Test("pink tint: an opaque XRGB pixel (10, 200, 30) comes out (255, 10, 200): the padding byte is red")
    func pinkTint() throws {
        let source = Image(bitmap: try Self.bitmap(2, 1, Self.xrgb, [255, 10, 200, 30, 255, 10, 200, 30]))
        let out = try Self.run("argb-as-rgba", .orient, source)
        #expect(Self.pixel(out, 0, 0) == [255, 10, 200, 255])
        #expect(!out.bitmap.format.hasAlpha)
        // An RGBA source is not the bug's layout: unchanged.
        let rgba = Image(bitmap: try Self.bitmap(1, 1, .rgba8, [10, 200, 30, 255]))
        #expect(Self.pixel(try Self.run("argb-as-rgba", .orient, rgba), 0, 0) == [10, 200, 30, 255])
    }

    @Test("swap-rb: (10, 200, 30) becomes (30, 200, 10)")
    func swap() throws {
        let out = try Self.run("swap-rb", .orient, Image(bitmap: try Self.bitmap(1, 1, .rgb8, [10, 200, 30])))
        #expect(Self.pixel(out, 0, 0) == [30, 200, 10, 255])
    }

    @Test("premultiplied output labelled straight: (200, 100, 50) at α 128 reads (100, 50, 25)")
    func premultipliedAsStraight() throws {
        let out = try Self.run("premultiplied-as-straight", .orient, Image(bitmap: try Self.bitmap(1, 1, .rgba8, [200, 100, 50, 128])))
        // round(c · 128 / 255)
        #expect(Self.pixel(out, 0, 0) == [100, 50, 25, 128])
    }

    @Test("straight alpha read as premultiplied: (100, 50, 25) at α 128 reads (199, 100, 50)")
    func straightAsPremultiplied() throws {
        let out = try Self.run("straight-as-premultiplied", .orient, Image(bitmap: try Self.bitmap(1, 1, .rgba8, [100, 50, 25, 128])))
        // round(p · 255 / 128)
        #expect(Self.pixel(out, 0, 0) == [199, 100, 50, 128])
    }

    @Test("alpha dropped reveals the hidden colour; over black and black-border flatten onto black")
    func alphaDropped() throws {
        let source = Image(bitmap: try Self.bitmap(2, 1, .rgba8, [255, 0, 255, 0, 200, 100, 50, 128]))
        let hidden = try Self.run("alpha-dropped-hidden", .orient, source)
        #expect(Self.pixel(hidden, 0, 0) == [255, 0, 255, 255])
        #expect(Self.pixel(hidden, 1, 0) == [200, 100, 50, 255])
        let black = try Self.run("alpha-over-black", .orient, source)
        #expect(Self.pixel(black, 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(black, 1, 0) == [100, 50, 25, 255])
        let opaque = Image(bitmap: try Self.bitmap(1, 1, .rgb8, [10, 200, 30]))
        let bordered = try Self.run("black-border", .transparentBorder(width: 1), opaque)
        #expect(bordered.width == 3 && bordered.height == 3)
        #expect(Self.pixel(bordered, 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(bordered, 1, 1) == [10, 200, 30, 255])
    }

    /// A 2 × 2 image of four distinct colours: a b / c d.
    static func quad(_ o: Orientation) throws -> Image {
        Image(bitmap: try bitmap(2, 2, .rgb8, [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]), orientation: o)
    }
    static let a = [255, 0, 0, 255], b = [0, 255, 0, 255], c = [0, 0, 255, 255], d = [255, 255, 0, 255]

    static func grid(_ image: Image) -> [[Int]] { [pixel(image, 0, 0), pixel(image, 1, 0), pixel(image, 0, 1), pixel(image, 1, 1)] }

    @Test("orientation mutants: ignored, mirrored 2 ↔ 4, applied twice")
    func orientation() throws {
        // EXIF 2 displays the stored a b / c d as b a / d c.
        #expect(Self.grid(try BuiltinResizer().apply(.orient, to: Self.quad(.upMirrored))) == [Self.b, Self.a, Self.d, Self.c])
        #expect(Self.grid(try Self.run("orientation-ignored", .orient, Self.quad(.upMirrored))) == [Self.a, Self.b, Self.c, Self.d])
        // Mixed up with 4 (flip vertical): c d / a b.
        #expect(Self.grid(try Self.run("mirror-mixup", .orient, Self.quad(.upMirrored))) == [Self.c, Self.d, Self.a, Self.b])
        // Twice: a mirror twice is no mirror.
        #expect(Self.grid(try Self.run("orientation-twice", .orient, Self.quad(.upMirrored))) == [Self.a, Self.b, Self.c, Self.d])
        // EXIF 6 (90° clockwise) twice is 180°: d c / b a.
        #expect(Self.grid(try Self.run("orientation-twice", .orient, Self.quad(.right))) == [Self.d, Self.c, Self.b, Self.a])
    }

    @Test("transposed orientation without swapping: a 2 × 4 image tagged 6 stays 2 × 4")
    func transposeWithoutSwap() throws {
        let source = Image(bitmap: try Self.bitmap(2, 4, .gray8, [UInt8](repeating: 100, count: 8)), orientation: .right)
        let right = try BuiltinResizer().apply(.orient, to: source)
        #expect(right.width == 4 && right.height == 2)
        let out = try Self.run("transpose-no-swap", .orient, source)
        #expect(out.width == 2 && out.height == 4)
    }

    @Test("16-bit low byte: 0x1234 becomes 0x34 = 52 in the copy path, and is divided by 257 in a resize")
    func lowByte() throws {
        let source = Image(bitmap: try Self.bitmap(2, 2, .gray16, [0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34]))
        #expect(Self.pixel(try Self.run("16bit-low-byte", .orient, source), 0, 0) == [52, 52, 52, 255])
        // 0x1234 / 257 = 18.1 → 18 on the resampling path (flat image: any kernel keeps it).
        #expect(Self.pixel(try Self.run("16bit-low-byte", .resize(width: 1, height: 1, mode: .scaleToFill), source), 0, 0) == [18, 18, 18, 255])
    }

    @Test("bits forced to 8 by a shift: 4-bit white becomes 240, 1-bit white 128")
    func wrongShift() throws {
        let gray4 = PixelFormat(colorModel: .gray, bitsPerComponent: 4), gray1 = PixelFormat(colorModel: .gray, bitsPerComponent: 1)
        let four = Image(bitmap: try Self.bitmap(2, 1, gray4, [0xF0]))
        #expect(Self.pixel(try Self.run("depth-shift", .orient, four), 0, 0) == [240, 240, 240, 255])
        #expect(Self.pixel(try Self.run("depth-shift", .orient, four), 1, 0) == [0, 0, 0, 255])
        let one = Image(bitmap: try Self.bitmap(8, 1, gray1, [0x80]))
        #expect(Self.pixel(try Self.run("depth-shift", .orient, one), 0, 0) == [128, 128, 128, 255])
    }

    @Test("palette transparency ignored: the transparent entry shows its colour, opaque")
    func paletteTransparency() throws {
        let palette = Palette([.init(red: 255, green: 0, blue: 0), .init(red: 0, green: 255, blue: 0, alpha: 0)])
        let source = Image(bitmap: try Self.bitmap(2, 1, PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8), [0, 1]))
        #expect(Self.pixel(try BuiltinResizer().apply(.orient, to: source), 1, 0)[3] == 0)
        #expect(Self.pixel(try Self.run("palette-trns-ignored", .orient, source), 1, 0) == [0, 255, 0, 255])
    }

    @Test("sRGB averaging: black and white average to 128, not linear light's 188; nearest neighbour keeps one of them")
    func averaging() throws {
        let pair = Image(bitmap: try Self.bitmap(2, 1, .gray8, [0, 255]))
        let one = LabOperation.resize(width: 1, height: 1, mode: .scaleToFill)
        // Linear light: encode(½) = 187.5 → 188; sRGB codes: 127.5 → 128.
        #expect(abs(Self.pixel(try BuiltinResizer().apply(one, to: pair), 0, 0)[0] - 188) <= 1)
        #expect(abs(Self.pixel(try Self.run("srgb-averaging", one, pair), 0, 0)[0] - 128) <= 1)
        // 0 255 0 255 → 2 pixels: nearest takes source columns ⌊(2i + 1) · 4 / 4⌋ = 1 and 3, both 255.
        let stripes = Image(bitmap: try Self.bitmap(4, 1, .gray8, [0, 255, 0, 255]))
        let half = LabOperation.resize(width: 2, height: 1, mode: .scaleToFill)
        #expect(Self.pixel(try Self.run("nearest-neighbour", half, stripes), 0, 0)[0] == 255)
        #expect(Self.pixel(try Self.run("nearest-neighbour", half, stripes), 1, 0)[0] == 255)
    }

    @Test("half-pixel offset: a step 0 | 255 255 255 gains a half-way pixel, 128, at x = 1")
    func halfPixel() throws {
        let step = Image(bitmap: try Self.bitmap(4, 1, .gray8, [0, 255, 255, 255]))
        let out = try Self.run("half-pixel", .resize(width: 4, height: 1, mode: .scaleToFill), step)
        #expect([0, 1, 2, 3].map { Self.pixel(out, $0, 0)[0] } == [0, 128, 255, 255])
    }

    @Test("retina scale ignored: an @2x 4 × 4 image comes out 2 × 2")
    func retina() throws {
        var source = Image(bitmap: try Self.bitmap(4, 4, .gray8, [UInt8](repeating: 90, count: 16)))
        source.metadata.scale = 2
        let out = try Self.run("retina-scale-ignored", .orient, source)
        #expect(out.width == 2 && out.height == 2)
        source.metadata.scale = 1
        #expect(try Self.run("retina-scale-ignored", .orient, source).width == 4)
    }

    @Test("crop off-centre: 48 × 32 filled into 20 × 20 covers 30 × 20, 10 px to spare; anchors move by 1/10")
    func cropAnchor() {
        #expect(CropAnchor.excess(width: 48, height: 32, box: (20, 20)) == (10, 0))
        #expect(CropAnchor.excess(width: 32, height: 48, box: (24, 24)) == (0, 12))
        #expect(CropAnchor.moved(0.5, excess: 10) == 0.6)
        #expect(CropAnchor.moved(0, excess: 10) == 0.1)
        #expect(CropAnchor.moved(1, excess: 10) == 0.9)
        #expect(CropAnchor.moved(0.5, excess: 0) == 0.5)
    }

    @Test("size overshoot: 8 × 4 fitted into 4 × 4 is 4 × 2, the mutant gives 5 × 3")
    func sizeOvershoot() throws {
        let source = Image(bitmap: try Self.bitmap(8, 4, .gray8, [UInt8](repeating: 90, count: 32)))
        let out = try Self.run("size-overshoot", .resize(width: 4, height: 4, mode: .aspectFit), source)
        #expect(out.width == 5 && out.height == 3)
    }

    @Test("bitmap context from the source throws Quartz's error on exactly the formats iOS rejects", arguments: [
        (PixelFormat.rgb8, true), (.rgba8, true), (.rgba8Premultiplied, false), (.bgra8Premultiplied, false),
        (PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipLast), false), (.gray8, false),
        (.gray16, true), (.rgba16, true), (PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .premultipliedLast), true),
        (.grayAlpha8, true), (PixelFormat(colorModel: .indexed(Palette([.init(red: 1, green: 2, blue: 3)])), bitsPerComponent: 8), true),
    ])
    func bitmapContext(_ format: PixelFormat, _ rejected: Bool) throws {
        // Apple's table (QA1037): iOS takes 8-bit premultiplied or skip RGB, and gray 8 without alpha.
        #expect(BitmapContextSupport.verdict(for: format).iOS == !rejected)
        let bytes = [UInt8](repeating: 0, count: format.minimumBytesPerRow(width: 2) * 2)
        let source = Image(bitmap: try Bitmap(width: 2, height: 2, format: format, bytes: bytes))
        do {
            _ = try Self.run("context-from-source", .orient, source)
            #expect(!rejected, "\(format) was accepted")
        } catch let error as ResizerError {
            #expect(rejected, "\(format) was rejected: \(error)")
            #expect(BitmapContextFailure.isQuartzContextError(error.description))
        }
    }
}
