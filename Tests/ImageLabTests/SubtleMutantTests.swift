import Foundation
import Testing
import ImageCore
@testable import ImageLab
@testable import ImageCorpus

/// Each subtle mutant changes the built-in's output the way its bug does, on a tiny hand-made
/// image, with the expected values worked out from the bug's arithmetic (Lanczos 3 weights from
/// its definition, the sRGB curve of IEC 61966-2-1, 8-bit premultiplication).
@Suite("subtle mutants")
struct SubtleMutantTests {
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

    static func stretch(_ w: Int, _ h: Int) -> LabOperation { .resize(width: w, height: h, mode: .scaleToFill) }

    /// Lanczos 3 by its definition: sinc(x) · sinc(x / 3) on |x| < 3.
    static func lanczos3(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        guard abs(x) < 3 else { return 0 }
        return sin(Double.pi * x) / (Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * x / 3)
    }

    /// The sRGB encoding of linear light (IEC 61966-2-1), as a real number of 8-bit codes.
    static func srgbCodes(_ l: Double) -> Double {
        (l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055) * 255
    }

    static let subtleIDs = ["straight-resampling", "fixed-support", "power-gamma", "truncation", "8bit-intermediate", "premultiplied-8bit",
                            "overshoot-wrap", "half-pixel-x", "wrap-edges", "transpose-transverse", "float-as-255", "adobe-cmyk-plain"]

    @Test("the twelve subtle mutants are in the catalogue, marked subtle (80 % rule), with history, references and a class")
    func catalogue() throws {
        for id in Self.subtleIDs {
            let m = try #require(MutantCatalogue.mutant(id), "\(id)")
            #expect(m.subtle && m.requiredAccuracy == 0.8, "\(id)")
            #expect(m.history.contains("#") && !m.references.isEmpty && !m.bugClass.isEmpty, "\(id)")
        }
        #expect(MutantCatalogue.all.filter { !$0.subtle }.allSatisfy { $0.requiredAccuracy == 0.9 })
    }

    @Test("straight resampling: red beside transparent blue halves to (188, 0, 188) at α 128, not red; copies stay exact")
    func straightResampling() throws {
        let source = Image(bitmap: try Self.bitmap(2, 1, .rgba8, [255, 0, 0, 255, 0, 0, 255, 0]))
        // Two taps of equal weight: premultiplied, red·1 + blue·0 over α ½ is red; straight, each
        // channel is ½ in linear light, encoded 187.5 → 188; α ½ → 128.
        #expect(Self.pixel(try BuiltinResizer().apply(Self.stretch(1, 1), to: source), 0, 0) == [255, 0, 0, 128])
        #expect(Self.pixel(try Self.run("straight-resampling", Self.stretch(1, 1), source), 0, 0) == [188, 0, 188, 128])
        let copy = try Self.run("straight-resampling", .orient, source)
        #expect(copy.bitmap == (try BuiltinResizer().apply(.orient, to: source)).bitmap)
    }

    @Test("fixed support: shrinking 8 → 2, a white pixel 3.5 source pixels from the first centre reaches it only through the widened kernel")
    func fixedSupport() throws {
        // Output pixel 0 has its centre at 2; source pixel 5 (centre 5.5) is 3.5 away: inside the
        // widened support (3 · 4 = 12, weight lanczos3(3.5 / 4) > 0), outside the fixed one (3).
        let source = Image(bitmap: try Self.bitmap(8, 1, .gray8, [0, 0, 0, 0, 0, 255, 0, 0]))
        #expect(Self.lanczos3(3.5 / 4) > 0)
        #expect(Self.pixel(try BuiltinResizer().apply(Self.stretch(2, 1), to: source), 0, 0)[0] > 0)
        #expect(Self.pixel(try Self.run("fixed-support", Self.stretch(2, 1), source), 0, 0)[0] == 0)
        // Output pixel 1 (centre 6) reads pixel 5 at 0.5 with the fixed kernel: white shows.
        #expect(Self.pixel(try Self.run("fixed-support", Self.stretch(2, 1), source), 1, 0)[0] > 0)
    }

    @Test("power 2.2: black and white average to ½ in linear light, encoded 0.5^(1/2.2) · 255 = 186.1 → 186 instead of the sRGB curve's 188")
    func powerGamma() throws {
        let pair = Image(bitmap: try Self.bitmap(2, 1, .gray8, [0, 255]))
        #expect(Int((pow(0.5, 1 / 2.2) * 255).rounded()) == 186 && Int(Self.srgbCodes(0.5).rounded()) == 188)
        #expect(Self.pixel(try BuiltinResizer().apply(Self.stretch(1, 1), to: pair), 0, 0)[0] == 188)
        #expect(Self.pixel(try Self.run("power-gamma", Self.stretch(1, 1), pair), 0, 0)[0] == 186)
        // Flat areas survive the round trip.
        let flat = Image(bitmap: try Self.bitmap(2, 1, .gray8, [37, 37]))
        #expect(Self.pixel(try Self.run("power-gamma", Self.stretch(1, 1), flat), 0, 0)[0] == 37)
    }

    @Test("truncation: the black/white average 187.52 codes is stored as 187, not 188; whole codes stay whole")
    func truncation() throws {
        let pair = Image(bitmap: try Self.bitmap(2, 1, .gray8, [0, 255]))
        // round(0.735356 · 65535) = 48192; 48192 · 255 / 65535 = 187.52 → 187 in integers.
        #expect(48192 * 255 / 65535 == 187)
        #expect(Self.pixel(try Self.run("truncation", Self.stretch(1, 1), pair), 0, 0)[0] == 187)
        let flat = Image(bitmap: try Self.bitmap(2, 1, .gray8, [200, 200]))
        #expect(Self.pixel(try Self.run("truncation", Self.stretch(1, 1), flat), 0, 0)[0] == 200)
        // α ½ (127.5 codes) truncates to 127.
        let half = Image(bitmap: try Self.bitmap(2, 1, .rgba8, [10, 20, 30, 255, 10, 20, 30, 0]))
        #expect(Self.pixel(try Self.run("truncation", Self.stretch(1, 1), half), 0, 0)[3] == 127)
    }

    @Test("8-bit intermediate: a 16-bit sample 0x1234 = 4660 comes back as round(4660 / 257) · 257 = 18 · 257 = 4626")
    func eightBitIntermediate() throws {
        let source = Image(bitmap: try Self.bitmap(2, 2, .gray16, [0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34]))
        for op in [LabOperation.orient, Self.stretch(1, 1)] {
            let out = try Self.run("8bit-intermediate", op, source)
            #expect(out.bitmap.format.bitsPerComponent == 16)
            let v = Int(out.bitmap.bytes[0]) << 8 | Int(out.bitmap.bytes[1])
            #expect(v == 18 * 257, "\(op)")
        }
        let right = try BuiltinResizer().apply(.orient, to: source)
        #expect(Int(right.bitmap.bytes[0]) << 8 | Int(right.bitmap.bytes[1]) == 0x1234)
    }

    @Test("8-bit premultiplied: (100, 50, 7) at α 10 is held as round(c · 10 / 255) = (4, 2, 0) and comes back (102, 51, 0)")
    func premultipliedEightBit() throws {
        let source = Image(bitmap: try Self.bitmap(1, 1, .rgba8, [100, 50, 7, 10]))
        // 100·10/255 = 3.92 → 4 → 4·255/10 = 102; 50 → 1.96 → 2 → 51; 7 → 0.27 → 0 → 0.
        #expect(Self.pixel(try Self.run("premultiplied-8bit", .orient, source), 0, 0) == [102, 51, 0, 10])
        #expect(Self.pixel(try BuiltinResizer().apply(.orient, to: source), 0, 0) == [100, 50, 7, 10])
        // Opaque colour is exact either way.
        let opaque = Image(bitmap: try Self.bitmap(1, 1, .rgba8, [100, 50, 7, 255]))
        #expect(Self.pixel(try Self.run("premultiplied-8bit", .orient, opaque), 0, 0) == [100, 50, 7, 255])
    }

    @Test("overshoot wraps: enlarging 0 0 255 255 to 8 pixels, Lanczos 3 overshoots white at pixel 5 and the wrapped code is near black")
    func overshootWrap() throws {
        let step = Image(bitmap: try Self.bitmap(4, 1, .gray8, [0, 0, 255, 255]))
        // Output pixel 5: centre (5 + ½) / 2 = 2.75; source pixels 0…3 at distances −2.25, −1.25,
        // −0.25, 0.75 (enlarging: the kernel is not widened); linear light 0, 0, 1, 1.
        let distances = [-2.25, -1.25, -0.25, 0.75]
        let weights = distances.map(Self.lanczos3)
        let linear = (weights[2] + weights[3]) / weights.reduce(0, +)
        #expect(linear > 1)
        let wrapped = Int(Self.srgbCodes(linear).rounded()) & 0xFF
        #expect(wrapped < 20)
        let out = try Self.run("overshoot-wrap", Self.stretch(8, 1), step)
        #expect(abs(Self.pixel(out, 5, 0)[0] - wrapped) <= 1)
        #expect(Self.pixel(try BuiltinResizer().apply(Self.stretch(8, 1), to: step), 5, 0)[0] == 255)
    }

    @Test("half-pixel on x only: a vertical edge moves (the first column reads only black taps), a horizontal edge does not")
    func halfPixelOneAxis() throws {
        // 4 × 4, left half black, right half white, shrunk to 2 × 2: with centres at i · 2 the
        // first column's centre is at x = 0, where the taps on white (distances 2.5, 3.5 → widened
        // 1.25, 1.75) have negative weights: the sum clamps to 0. Centred at 1, it is 0.0716 linear.
        let vertical = Image(bitmap: try Self.bitmap(4, 4, .gray8, (0..<16).map { $0 % 4 < 2 ? 0 : 255 }))
        #expect(Self.lanczos3(2.5 / 2) < 0 && Self.lanczos3(3.5 / 2) < 0)
        #expect(Self.pixel(try Self.run("half-pixel-x", Self.stretch(2, 2), vertical), 0, 0)[0] == 0)
        let centred = (Self.lanczos3(1.5 / 2) + Self.lanczos3(2.5 / 2)) / [-0.5, 0.5, 1.5, 2.5].map { Self.lanczos3($0 / 2) }.reduce(0, +)
        #expect(abs(Self.pixel(try BuiltinResizer().apply(Self.stretch(2, 2), to: vertical), 0, 0)[0] - Int(Self.srgbCodes(centred).rounded())) <= 1)
        let horizontal = Image(bitmap: try Self.bitmap(4, 4, .gray8, (0..<16).map { $0 / 4 < 2 ? 0 : 255 }))
        let mutant = try Self.run("half-pixel-x", Self.stretch(2, 2), horizontal), right = try BuiltinResizer().apply(Self.stretch(2, 2), to: horizontal)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { #expect(abs(Self.pixel(mutant, x, y)[0] - Self.pixel(right, x, y)[0]) <= 1) }
    }

    @Test("wrap-around edges: halving 255 0 0 0, the last pixel takes the first one's white from across the edge")
    func wrapEdges() throws {
        let source = Image(bitmap: try Self.bitmap(4, 1, .gray8, [255, 0, 0, 0]))
        // Output pixel 1: centre 3, kernel widened by 2 (support 6). Renormalised, the only white
        // tap is pixel 0 at distance −2.5 (weight lanczos3(−1.25) < 0): clamped to 0. Wrapped,
        // taps −3…8 read pixel (j mod 4): white at j = 0, 4, 8.
        #expect(Self.pixel(try BuiltinResizer().apply(Self.stretch(2, 1), to: source), 1, 0)[0] == 0)
        let taps = (-3...8).map { j in (j, Self.lanczos3((Double(j) + 0.5 - 3) / 2)) }
        let white = taps.filter { ($0.0 % 4 + 4) % 4 == 0 }.map(\.1).reduce(0, +), total = taps.map(\.1).reduce(0, +)
        let expected = Int(Self.srgbCodes(white / total).rounded())
        #expect(expected > 60)
        #expect(abs(Self.pixel(try Self.run("wrap-edges", Self.stretch(2, 1), source), 1, 0)[0] - expected) <= 1)
    }

    /// A 2 × 2 image of four distinct colours: a b / c d.
    static func quad(_ o: Orientation) throws -> Image {
        Image(bitmap: try bitmap(2, 2, .rgb8, [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]), orientation: o)
    }
    static let a = [255, 0, 0, 255], b = [0, 255, 0, 255], c = [0, 0, 255, 255], d = [255, 255, 0, 255]
    static func grid(_ image: Image) -> [[Int]] { [pixel(image, 0, 0), pixel(image, 1, 0), pixel(image, 0, 1), pixel(image, 1, 1)] }

    @Test("orientations 5 and 7 swapped: transpose (a c / b d) comes out transverse (d b / c a) and the reverse; 6 is right")
    func transposeTransverse() throws {
        #expect(Self.grid(try BuiltinResizer().apply(.orient, to: Self.quad(.leftMirrored))) == [Self.a, Self.c, Self.b, Self.d])
        #expect(Self.grid(try Self.run("transpose-transverse", .orient, Self.quad(.leftMirrored))) == [Self.d, Self.b, Self.c, Self.a])
        #expect(Self.grid(try Self.run("transpose-transverse", .orient, Self.quad(.rightMirrored))) == [Self.a, Self.c, Self.b, Self.d])
        // EXIF 6 (90° clockwise): c a / d b, as the built-in.
        #expect(Self.grid(try Self.run("transpose-transverse", .orient, Self.quad(.right))) == [Self.c, Self.a, Self.d, Self.b])
    }

    @Test("float read as 0…255: (1, 0.5, 0) becomes (1/255, 0.5/255, 0); a stored alpha of 1 becomes 1/255")
    func floatAs255() throws {
        func float(_ values: [Float], _ format: PixelFormat) throws -> Image {
            Image(bitmap: try Self.bitmap(1, 1, format, values.flatMap { v in (0..<4).map { UInt8((v.bitPattern >> (8 * UInt32($0))) & 0xFF) } }))
        }
        let rgb = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, alphaInfo: .none, isFloat: true)
        let opaque = try Self.run("float-as-255", .orient, try float([1, 0.5, 0], rgb)).bitmap.straightRGBARow(0)
        #expect(abs(opaque[0] - 1.0 / 255) < 1e-7 && abs(opaque[1] - 0.5 / 255) < 1e-7 && opaque[2] == 0 && opaque[3] == 1)
        let translucent = try Self.run("float-as-255", .orient, try float([1, 0.5, 0, 1], .rgbaFloat)).bitmap.straightRGBARow(0)
        #expect(abs(translucent[3] - 1.0 / 255) < 1e-7 && abs(translucent[0] - 1.0 / 255) < 1e-6)
        let right = try BuiltinResizer().apply(.orient, to: try float([1, 0.5, 0], rgb)).bitmap.straightRGBARow(0)
        #expect(right[0] == 1 && right[1] == 0.5)
    }

    @Test("Adobe CMYK read as plain: stored 255 255 255 255 (no ink, white) comes out black, stored 0 0 0 0 (full ink) white")
    func adobeCMYK() throws {
        let format = PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8)
        let source = Image(bitmap: try Self.bitmap(2, 1, format, [255, 255, 255, 255, 0, 0, 0, 0]))
        // Inverted: ink = 1 − v/255; plain: ink = v/255; RGB = (1 − ink)(1 − K).
        #expect(Self.pixel(try BuiltinResizer().apply(.orient, to: source), 0, 0) == [255, 255, 255, 255])
        #expect(Self.pixel(try Self.run("adobe-cmyk-plain", .orient, source), 0, 0) == [0, 0, 0, 255])
        #expect(Self.pixel(try Self.run("adobe-cmyk-plain", .orient, source), 1, 0) == [255, 255, 255, 255])
        // Plain CMYK (no Adobe marker) is not the bug's input: unchanged.
        let plain = Image(bitmap: try Self.bitmap(1, 1, .cmyk8, [0, 0, 0, 0]))
        #expect(Self.pixel(try Self.run("adobe-cmyk-plain", .orient, plain), 0, 0) == [255, 255, 255, 255])
    }

    @Test("the mutants' resampling without a departure is the built-in's, to within a code, on every resampling operation")
    func departureFreeIsBuiltin() throws {
        var bytes: [UInt8] = []
        for y in 0..<9 { for x in 0..<13 { bytes += [UInt8((x * 37 + y * 11) % 256), UInt8((x * x + 3 * y) % 256), UInt8((y * 29) % 256), UInt8(x < 2 ? 0 : (x * 20 + y * 7) % 256)] } }
        let source = Image(bitmap: try Self.bitmap(13, 9, .rgba8, bytes))
        let ops: [LabOperation] = [.resize(width: 5, height: 4, mode: .scaleToFill), .resize(width: 6, height: 6, mode: .aspectFit),
                                   .resize(width: 5, height: 5, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)), .resize(width: 20, height: 12, mode: .scaleToFill),
                                   .squareThumbnail(size: 6, border: 1, cornerRadius: 2), .maxPixelSize(7)]
        for op in ops {
            let mine = try #require(try ResamplingDeparture().apply(op, to: source), "\(op)")
            let builtin = try BuiltinResizer().apply(op, to: source)
            #expect(mine.width == builtin.width && mine.height == builtin.height, "\(op)")
            for y in 0..<builtin.height {
                for x in 0..<builtin.width {
                    let m = Self.pixel(mine, x, y), b = Self.pixel(builtin, x, y)
                    // Compare what is visible: colour × α and α.
                    let visible = (0..<3).map { abs(m[$0] * m[3] - b[$0] * b[3]) / 255 }.max() ?? 0
                    #expect(visible <= 1 && abs(m[3] - b[3]) <= 1, "\(op) (\(x), \(y)): \(m) vs \(b)")
                }
            }
        }
        #expect(try ResamplingDeparture().apply(.orient, to: source) == nil)
        #expect(try ResamplingDeparture().apply(.crop(x: 1, y: 1, width: 3, height: 3), to: source) == nil)
    }
}
