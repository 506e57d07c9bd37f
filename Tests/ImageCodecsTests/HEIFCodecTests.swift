import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// HEIF and AVIF read against files other writers made (pillow-heif's libheif 1.23 for HEIC,
/// Pillow's libavif for AVIF: Tests/Fixtures/heif/make_fixtures.py, whose `pixel(x, y)` the
/// tests compute again; each writer was given an EXIF orientation and wrote it as irot/imir),
/// and imglab's encoder round-tripped. The header is imglab's own reader, tested even where
/// libheif is missing; decoding and encoding skip visibly there.
@Suite("HEIF and AVIF codec")
struct HEIFCodecTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/heif")
    static let libheif = HEIFFamily.availability.available
    static let missing = "needs libheif1 (apt-get install libheif-dev)"

    static func fixture(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The fixture script's `pixel(x, y)`: 8-bit RGBA.
    static func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        [UInt8((x * 8) % 256), UInt8((y * 8) % 256), UInt8(((x + y) * 4) % 256), UInt8(x >= 4 ? 255 : 64 + y * 8)]
    }

    /// The fixture script's `pixel10(x, y)`: 10-bit RGB samples.
    static func pixel10(_ x: Int, _ y: Int) -> [Int] { [(x * 41) % 1024, (y * 60 + 7) % 1024, ((x + y) * 25) % 1024] }

    static func drawn(alpha: Bool, width: Int = 24, height: Int = 16) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += alpha ? pixel(x, y) : Array(pixel(x, y).prefix(3)) } }
        return try Bitmap(width: width, height: height, format: alpha ? .rgba8 : .rgb8, bytes: bytes)
    }

    static func worstDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 255
    }

    @Test("ftyp with a HEIF or AVIF brand is recognised by its bytes, whatever the name; an MP4's ftyp is not")
    func sniffing() throws {
        #expect(ContainerFormat(sniffing: try Self.fixture("gradient-rgb-lossless.heic")) == .heif)
        #expect(ContainerFormat(sniffing: try Self.fixture("gradient-rgba-lossy.avif")) == .avif)
        #expect(ContainerFormat(sniffing: [0, 0, 0, 24] + Array("ftypisom\0\0\0\0isom".utf8)) == nil)
        #expect(ContainerFormat(fileExtension: "HEIC") == .heif && ContainerFormat(fileExtension: "avif") == .avif)
    }

    @Test("the EXIF orientation each writer was given comes back from its irot/imir, without libheif", arguments: 2...8)
    func transformsAsOrientations(exif: Int) throws {
        let header = try ImageCodecs.readHeader(try Self.fixture("gradient-rgb-orientation-\(exif).heic"))
        #expect(header.orientation.exifValue == exif && header.metadata.orientationSource == .heifTransform)
        #expect(header.width == 24 && header.height == 16 && header.format == .rgb8)
    }

    @Test("headers: alpha, bit depth, clean aperture, the AVIF writer's transform, without libheif")
    func headers() throws {
        let alpha = try ImageCodecs.readHeader(try Self.fixture("gradient-rgba-lossless.heic"))
        #expect(alpha.container == .heif && alpha.format == .rgba8 && alpha.metadata.properties["alpha"] == "auxiliary image, straight")
        #expect(alpha.metadata.properties["clean aperture"] != nil)
        let deep = try ImageCodecs.readHeader(try Self.fixture("gradient-rgb-10bit-lossless.heic"))
        #expect(deep.format == .rgb16 && deep.metadata.storedBitDepth == 10)
        let avif = try ImageCodecs.readHeader(try Self.fixture("gradient-rgb-lossy-orientation-5.avif"))
        #expect(avif.container == .avif && avif.orientation == .leftMirrored && avif.width == 24 && avif.height == 16)
    }

    @Test("lossless HEIC decodes to the pixels drawn, RGB and straight RGBA", .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"))
    func losslessPixels() throws {
        #expect(try ImageCodecs.decode(try Self.fixture("gradient-rgb-lossless.heic")).bitmap == (try Self.drawn(alpha: false)))
        #expect(try ImageCodecs.decode(try Self.fixture("gradient-rgba-lossless.heic")).bitmap == (try Self.drawn(alpha: true)))
    }

    @Test("an oriented HEIC holds the stored pixels as drawn and displays them turned as its EXIF said",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"), arguments: 2...8)
    func orientedPixels(exif: Int) throws {
        let image = try ImageCodecs.decode(try Self.fixture("gradient-rgb-orientation-\(exif).heic"))
        let orientation = try #require(Orientation(exifValue: exif))
        let drawn = try Self.drawn(alpha: false)
        #expect(image.orientation == orientation && image.bitmap == drawn)
    }

    @Test("10-bit HEIC: each sample s comes back as round(s · 65535 / 1023)", .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"))
    func tenBitSamples() throws {
        let image = try ImageCodecs.decode(try Self.fixture("gradient-rgb-10bit-lossless.heic"))
        var expected: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<24 {
                for s in Self.pixel10(x, y) {
                    let v = (s * 65535 + 511) / 1023
                    expected += [UInt8(v >> 8), UInt8(v & 0xFF)]
                }
            }
        }
        #expect(image.bitmap.format == .rgb16 && image.bitmap.bytes == expected)
    }

    @Test("lossy AVIF (alpha; orientation 5) decodes near the pixels drawn", .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"))
    func lossyAVIF() throws {
        let rgba = try ImageCodecs.decode(try Self.fixture("gradient-rgba-lossy.avif"))
        let drawn = try Self.drawn(alpha: true)
        #expect(rgba.bitmap.format == .rgba8 && Self.worstDifference(rgba.bitmap, drawn) <= 16)
        let oriented = try ImageCodecs.decode(try Self.fixture("gradient-rgb-lossy-orientation-5.avif"))
        #expect(oriented.orientation == .leftMirrored && oriented.bitmap.width == 24)
        #expect(Self.worstDifference(oriented.bitmap, try Self.drawn(alpha: false)) <= 16)
    }

    @Test("imglab's encoder round-trips losslessly in both containers: every orientation, straight and premultiplied alpha",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"), arguments: [ContainerFormat.heif, .avif])
    func roundTrip(container: ContainerFormat) throws {
        let rgba = try Self.drawn(alpha: true), rgb = try Self.drawn(alpha: false)
        for orientation in Orientation.allCases {
            let back = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: rgb, orientation: orientation), as: container))
            #expect(back.bitmap == rgb && back.orientation == orientation, "\(orientation)")
            #expect(back.oriented().bitmap == orientation.apply(to: rgb))
        }
        let straight = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: rgba), as: container))
        #expect(straight.bitmap == rgba && straight.metadata.properties["alpha"] == "auxiliary image, straight")
        let premultiplied = try rgba.converted(to: .rgba8Premultiplied)
        let back = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: premultiplied), as: container))
        #expect(back.bitmap == premultiplied && back.metadata.properties["alpha"] == "auxiliary image, premultiplied (prem)")
    }

    @Test("16-bit images are written at 10 or 12 bits: each value v comes back as round(round(v · m / 65535) · 65535 / m)",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"),
          arguments: [(ContainerFormat.heif, 10), (.heif, 12), (.avif, 12)])
    func deepRoundTrip(container: ContainerFormat, bits: Int) throws {
        try Self.checkDeepRoundTrip(container: container, bits: bits)
    }

    @Test("a 10-bit AVIF still (written by libavif, which libheif 1.15 cannot): each value v comes back as round(round(v · 1023 / 65535) · 65535 / 1023), its irot/imir, EXIF and ICC profile kept; lossy 4:2:0 stays near",
          .enabled(if: libheif && libavif, "needs libheif1 and libavif15 (apt-get install libheif-dev libavif-dev)"))
    func tenBitAVIFStill() throws {
        try Self.checkDeepRoundTrip(container: .avif, bits: 10)
        let rgb = try Self.drawn(alpha: false)
        let exif = EXIF.replacingOrientation(in: nil, with: .leftMirrored)
        var metadata = ImageMetadata(iccProfile: try Self.displayP3Profile(), exif: exif)
        metadata.storedBitDepth = 16
        let image = Image(bitmap: try rgb.converted(to: .rgb16), orientation: .leftMirrored, metadata: metadata)
        let file = try ImageCodecs.encode(image, as: .avif, options: EncodeOptions(heifBitDepth: 10))
        let back = try ImageCodecs.decode(file)
        #expect(back.orientation == .leftMirrored && back.metadata.orientationSource == .heifTransform)
        #expect(back.metadata.storedBitDepth == 10 && back.metadata.iccProfile == metadata.iccProfile)
        #expect(back.metadata.exif.flatMap { EXIF.orientation(in: $0) } == .leftMirrored)
        let eight = try back.bitmap.converted(to: .rgb8)
        #expect(eight == rgb)
        let lossy = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: try rgb.converted(to: .rgb16)), as: .avif,
                                                                 options: EncodeOptions(heifQuality: 90, heifBitDepth: 10)))
        let lossyEight = try lossy.bitmap.converted(to: .rgb8)
        #expect(lossy.metadata.storedBitDepth == 10 && Self.worstDifference(lossyEight, rgb) <= 24)
    }

    /// A Display P3 profile, to see an ICC profile travel.
    static func displayP3Profile() throws -> [UInt8] {
        try #require(ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
                                           gamma: 2.2))
    }

    /// Writes a 16-bit RGBA image at `bits` (up, and a quarter turn) and checks each value v comes back as
    /// round(round(v · m / 65535) · 65535 / m), m = 2^bits − 1.
    static func checkDeepRoundTrip(container: ContainerFormat, bits: Int) throws {
        var bytes: [UInt8] = []
        for i in 0..<(24 * 16 * 4) {
            let v = (i * 2_731 + 17) % 65_536
            bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        let source = try Bitmap(width: 24, height: 16, format: .rgba16, bytes: bytes)
        let m = (1 << bits) - 1
        var expected: [UInt8] = []
        for i in stride(from: 0, to: bytes.count, by: 2) {
            let stored = ((Int(bytes[i]) << 8 | Int(bytes[i + 1])) * m + 32_767) / 65_535
            let v = (stored * 65_535 + m / 2) / m
            expected += [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        // Up, and a quarter turn (whose alpha imglab decodes on its own).
        for orientation in [Orientation.up, .right] {
            let file = try ImageCodecs.encode(Image(bitmap: source, orientation: orientation), as: container,
                                              options: EncodeOptions(heifBitDepth: bits))
            let back = try ImageCodecs.decode(file)
            #expect(back.metadata.storedBitDepth == bits && back.bitmap.format == .rgba16 && back.bitmap.bytes == expected,
                    "\(orientation)")
        }
    }

    /// libheif 1.15 drops a quarter-turned picture's alpha: imglab decodes the alpha image on its own.
    @Test("alpha, α = 0 included, comes back under every orientation, straight and premultiplied",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"), arguments: [ContainerFormat.heif, .avif])
    func alphaUnderEveryOrientation(container: ContainerFormat) throws {
        var bytes = try Self.drawn(alpha: true).bytes
        for i in stride(from: 3, to: bytes.count, by: 12) { bytes[i] = 0 }  // every third pixel transparent
        let straight = try Bitmap(width: 24, height: 16, format: .rgba8, bytes: bytes)
        for bitmap in [straight, try straight.converted(to: .rgba8Premultiplied)] {
            for orientation in Orientation.allCases {
                let back = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: bitmap, orientation: orientation), as: container))
                #expect(back.bitmap == bitmap && back.orientation == orientation, "\(orientation), \(bitmap.format)")
            }
        }
    }

    @Test("lossy encoding at a quality stays near the source; a quality outside 0…100 and a depth of 9 are refused",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"))
    func lossyQuality() throws {
        let rgb = try Self.drawn(alpha: false)
        for container in [ContainerFormat.heif, .avif] {
            let back = try ImageCodecs.decode(try ImageCodecs.encode(Image(bitmap: rgb), as: container,
                                                                     options: EncodeOptions(heifQuality: 90)))
            #expect(Self.worstDifference(back.bitmap, rgb) <= 24, "\(container)")
        }
        #expect(throws: EncodeError.invalidOption("AVIF quality 101 is outside 0…100")) {
            try ImageCodecs.encode(Image(bitmap: rgb), as: .avif, options: EncodeOptions(heifQuality: 101))
        }
        #expect(throws: EncodeError.invalidOption("HEIF/AVIF bit depth 9 is not 8, 10 or 12")) {
            try ImageCodecs.encode(Image(bitmap: try rgb.converted(to: .rgb16)), as: .heif, options: EncodeOptions(heifBitDepth: 9))
        }
    }

    /// make_sequence_fixtures.py's `frame(i, x, y)`: 8-bit RGBA, straight, transparent where (x + y + i) % 4 == 0.
    static func sequenceFrame(_ i: Int) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<24 {
                bytes += [UInt8((x * 8 + i * 40) % 256), UInt8((y * 12 + i * 20) % 256), UInt8(((x + y) * 4 + i * 60) % 256),
                          UInt8((x + y + i) % 4 == 0 ? 0 : 255 - i * 30)]
            }
        }
        return try Bitmap(width: 24, height: 16, format: .rgba8, bytes: bytes)
    }

    static let libavif = AVIFSequenceReader.availability.available

    /// The sequence is avifenc's lossless one: α = 0 and the colour under it come back too.
    @Test("an AVIF image sequence: the header gives its frames and durations; every frame decodes to the pixels drawn",
          .enabled(if: libheif && libavif, "needs libheif1 and libavif15 (apt-get install libheif-dev libavif-dev)"))
    func imageSequence() throws {
        let bytes = try Self.fixture("sequence-rgba-lossless.avif")
        let header = try ImageCodecs.readHeader(bytes)
        #expect(header.container == .avif && header.frameCount == 4)
        #expect(header.timing == AnimationTiming(loopCount: 0, delays: [0.1, 0.25, 0.05, 0.6]))
        let animated = try ImageCodecs.decode(bytes, options: DecodeOptions(decodeAllFrames: true))
        let frames = try #require(animated.animation?.frames)
        #expect(frames.map(\.delay) == [0.1, 0.25, 0.05, 0.6])
        for (i, frame) in frames.enumerated() {
            let drawn = try Self.sequenceFrame(i)
            #expect(frame.canvas == drawn, "frame \(i)")
        }
        let still = try ImageCodecs.decode(bytes, options: DecodeOptions(decodeAllFrames: false))
        let first = try Self.sequenceFrame(0)
        #expect(still.animation == nil && still.bitmap == first)
    }

    @Test("a 10-bit AVIF sequence's samples come back as round(s · 65535 / 1023), every frame",
          .enabled(if: libheif && libavif, "needs libheif1 and libavif15 (apt-get install libheif-dev libavif-dev)"))
    func deepImageSequence() throws {
        let image = try ImageCodecs.decode(try Self.fixture("sequence-rgb-10bit-lossless.avif"), options: DecodeOptions(decodeAllFrames: true))
        let frames = try #require(image.animation?.frames)
        #expect(frames.count == 3 && frames.map(\.delay) == [0.04, 0.08, 0.12])
        for (i, frame) in frames.enumerated() {
            var expected: [UInt8] = []
            for y in 0..<16 {
                for x in 0..<24 {
                    // make_sequence_fixtures.py's frame10(i, x, y); avifenc wrote an opaque alpha image beside it.
                    let samples = [(x * 41 + i * 100) % 1024, (y * 60 + 7 + i * 30) % 1024, ((x + y) * 25 + i * 300) % 1024, 1023]
                    for s in samples {
                        let v = (s * 65535 + 511) / 1023
                        expected += [UInt8(v >> 8), UInt8(v & 0xFF)]
                    }
                }
            }
            #expect(frame.canvas.format == .rgba16 && frame.canvas.bytes == expected, "frame \(i)")
        }
    }

    /// Every frame's pixels come back, α = 0 and its colour too; a turned image's frames are written upright.
    @Test("imglab writes an animated image as an AVIF sequence that reads back frame for frame", .enabled(if: libheif && libavif,
          "needs libheif1 and libavif15 (apt-get install libheif-dev libavif-dev)"))
    func sequenceRoundTrip() throws {
        let canvases = try (0..<3).map { try Self.sequenceFrame($0) }
        let delays = [0.1, 0.25, 0.05]
        let frames = zip(canvases, delays).map { AnimationFrame(canvas: $0, delay: $1, region: PixelRect(x: 0, y: 0, width: 24, height: 16)) }
        for orientation in [Orientation.up, .leftMirrored] {
            let image = Image(bitmap: canvases[0], orientation: orientation, animation: Animation(loopCount: 0, frames: frames))
            let file = try ImageCodecs.encode(image, as: .avif)
            let back = try ImageCodecs.decode(file, options: DecodeOptions(decodeAllFrames: true))
            let read = try #require(back.animation?.frames)
            #expect(back.orientation == .up && read.map(\.delay) == delays)
            #expect(read.map(\.canvas) == canvases.map { orientation.apply(to: $0) }, "\(orientation)")
        }
    }

    @Test("a 16-bit animation is written at 10 or 12 bits: each value v comes back as round(round(v · m / 65535) · 65535 / m)",
          .enabled(if: libheif && libavif, "needs libheif1 and libavif15 (apt-get install libheif-dev libavif-dev)"),
          arguments: [10, 12])
    func deepSequenceRoundTrip(bits: Int) throws {
        let m = (1 << bits) - 1
        var sources: [Bitmap] = [], expected: [[UInt8]] = []
        for k in 0..<2 {
            var bytes: [UInt8] = [], quantised: [UInt8] = []
            for i in 0..<(24 * 16 * 4) {
                let v = (i * 2_731 + 17 + k * 9_999) % 65_536
                bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
                let back = ((v * m + 32_767) / 65_535 * 65_535 + m / 2) / m
                quantised += [UInt8(back >> 8), UInt8(back & 0xFF)]
            }
            sources.append(try Bitmap(width: 24, height: 16, format: .rgba16, bytes: bytes))
            expected.append(quantised)
        }
        let frames = sources.map { AnimationFrame(canvas: $0, delay: 0.2, region: PixelRect(x: 0, y: 0, width: 24, height: 16)) }
        let image = Image(bitmap: sources[0], animation: Animation(loopCount: 0, frames: frames))
        let file = try ImageCodecs.encode(image, as: .avif, options: EncodeOptions(heifBitDepth: bits))
        let read = try #require(try ImageCodecs.decode(file, options: DecodeOptions(decodeAllFrames: true)).animation?.frames)
        #expect(read.map(\.canvas.bytes) == expected)
    }

    @Test("a damaged file is a typed error: every truncation, a box overrunning its parent, a size over the limit")
    func damagedFiles() throws {
        let file = try Self.fixture("gradient-rgba-lossless.heic")
        for length in stride(from: 0, to: file.count, by: 13) {
            #expect(throws: DecodeError.self) { try ImageCodecs.decode(Array(file.prefix(length))) }
        }
        var overrun = file
        let meta = Int(file[3])  // meta follows ftyp, whose size (under 256) ends at byte 3
        overrun[meta..<meta + 4] = [0x7F, 0xFF, 0xFF, 0xFF]  // meta's size: far beyond the file
        #expect(throws: DecodeError.self) { try ImageCodecs.readHeader(overrun) }
        #expect(throws: DecodeError.limitExceeded(.pixels, requested: 384, allowed: 100)) {
            try ImageCodecs.decode(file, options: DecodeOptions(limits: DecodeLimits(maxPixels: 100)))
        }
    }

    @Test("what libheif allocates is checked first: a grid's stated output must be its ispe, an AV1 stream's largest frame counts",
          .enabled(if: libheif, "needs libheif1 (apt-get install libheif-dev)"))
    func allocationsChecked() throws {
        let rgb = try Self.drawn(alpha: false)
        // libheif 1.15 writes an HEIC as a grid of one 64×64 tile cropped to the image; its descriptor is in idat:
        // version, flags, rows − 1, columns − 1, output width and height (16-bit).
        var heic = try ImageCodecs.encode(Image(bitmap: rgb), as: .heif)
        let idat = try #require((0..<heic.count - 4).first { heic[$0..<$0 + 4].elementsEqual("idat".utf8) })
        #expect(Int(heic[idat + 8]) << 8 | Int(heic[idat + 9]) == 24)
        heic[idat + 8] = 0x40  // output width 16,408
        #expect(throws: DecodeError.malformed(.heif, reason: "the grid's output 16408×16 is not its ispe 24×16", offset: 28)) {
            try ImageCodecs.decode(heic)
        }
        // The AV1 stream (mdat's payload: temporal delimiter, sequence header, frame) declares the image's own size.
        let avif = try ImageCodecs.encode(Image(bitmap: rgb), as: .avif)
        let mdat = try #require((0..<avif.count - 4).first { avif[$0..<$0 + 4].elementsEqual("mdat".utf8) })
        let frame = try #require(AV1SequenceHeader.maxFrameSize(in: Array(avif[(mdat + 4)...])))
        #expect(frame.width == 24 && frame.height == 16)
    }
}
