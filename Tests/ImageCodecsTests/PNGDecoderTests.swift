import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// Decoding: PngSuite's names as independent expectations, malformed files, limits, truncation
/// and the metadata chunks.
@Suite("PNG decoder")
struct PNGDecoderTests {
    // MARK: helpers

    /// A chunk: length, type, data, CRC (the CRC-32 of the codec's serialiser).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { PNGChunkList.serialize(type, data) }

    static func be32(_ v: Int) -> [UInt8] { PNGChunkList.bigEndian(UInt32(v)) }

    /// A minimal PNG: 8-bit gray IHDR of the given size, one IDAT holding `idat`, IEND.
    static func png(width: Int, height: Int, idat: [UInt8], extra: [UInt8] = []) -> [UInt8] {
        PNGChunkList.signature + chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0]) + extra
            + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// A valid 2 × 2 8-bit gray PNG encoded by the codec, and its chunks.
    static func sample() throws -> [UInt8] {
        let bitmap = try Bitmap(width: 2, height: 2, format: .gray8, bytes: [0, 85, 170, 255])
        return try PNGCodec.encode(Image(bitmap: bitmap), options: EncodeOptions())
    }

    static func pngSuiteEntries() -> [ManifestEntry] {
        Manifest.inputs.filter { entry in
            entry.format == "png" && entry.path.hasPrefix("pngsuite/") && Self.pngSuiteName(entry.path) != nil
        }
    }

    /// PngSuite's `FFFiCDD` name: interlaced?, colour type, bit depth (README of the suite).
    static func pngSuiteName(_ path: String) -> (interlaced: Bool, colorType: Int, depth: Int)? {
        let name = Array((path as NSString).lastPathComponent.utf8)
        guard name.count == 12, name[0] != UInt8(ascii: "x"), let i = Optional(name[3]),
              i == UInt8(ascii: "n") || i == UInt8(ascii: "i"),
              let ct = Int(String(decoding: [name[4]], as: UTF8.self)),
              let depth = Int(String(decoding: name[6..<8], as: UTF8.self)) else { return nil }
        return (i == UInt8(ascii: "i"), ct, depth)
    }

    // MARK: PngSuite

    @Test("PngSuite files decode to the colour type and depth their names give", SharedData.needsCorpus)
    func pngSuiteFormats() throws {
        let entries = Self.pngSuiteEntries()
        #expect(entries.count > 50)
        for entry in entries {
            guard let name = Self.pngSuiteName(entry.path), let bytes = Manifest.bytes(entry.path) else { continue }
            let image = try PNGCodec.decode(bytes, options: DecodeOptions())
            // PngSuite t* files carry tRNS, except tp0* ("opaque reference, no tRNS").
            let fileName = (entry.path as NSString).lastPathComponent
            let transparent = fileName.hasPrefix("t") && !fileName.hasPrefix("tp0")
            let expectedModel: String
            switch name.colorType {
            case 0, 4: expectedModel = "gray"
            case 2, 6: expectedModel = "rgb"
            default: expectedModel = "indexed"
            }
            let model: String
            switch image.format.colorModel {
            case .gray: model = "gray"
            case .rgb: model = "rgb"
            case .indexed: model = "indexed"
            default: model = "other"
            }
            #expect(model == expectedModel, "\(entry.path)")
            #expect(image.metadata.storedBitDepth == name.depth, "\(entry.path)")
            #expect(image.metadata.properties["interlace"] == (name.interlaced ? "Adam7" : "none"), "\(entry.path)")
            // tRNS on low-bit gray widens to 8 bits; otherwise the depth is the stored one.
            let colorKey = transparent && (name.colorType == 0 || name.colorType == 2)
            #expect(image.format.bitsPerComponent == (colorKey ? max(8, name.depth) : name.depth), "\(entry.path)")
            let alphaExpected = name.colorType == 4 || name.colorType == 6 || colorKey
            #expect(image.format.alphaInfo == (alphaExpected ? .last : .none), "\(entry.path)")
        }
    }

    @Test("interlaced and non-interlaced PngSuite twins have identical pixels", SharedData.needsCorpus)
    func adam7Twins() throws {
        var pairs = 0
        for entry in Self.pngSuiteEntries() where entry.path.contains("basi") {
            let twin = entry.path.replacingOccurrences(of: "basi", with: "basn")
            guard let a = Manifest.bytes(entry.path), let b = Manifest.bytes(twin) else { continue }
            let interlaced = try PNGCodec.decode(a, options: DecodeOptions())
            let plain = try PNGCodec.decode(b, options: DecodeOptions())
            #expect(interlaced.bitmap == plain.bitmap, "\(entry.path) vs \(twin)")
            pairs += 1
        }
        #expect(pairs >= 5)
    }

    @Test("every corrupt PngSuite file is rejected with a malformed error, even past the sniffer", SharedData.needsCorpus)
    func pngSuiteCorrupt() throws {
        let corrupt = Manifest.inputs.filter { $0.path.hasPrefix("pngsuite/x") }
        #expect(!corrupt.isEmpty)
        for entry in corrupt {
            guard let bytes = Manifest.bytes(entry.path) else { continue }
            let error = try #require(throws: DecodeError.self, "\(entry.path)") {
                try PNGCodec.decode(bytes, options: DecodeOptions())
            }
            guard case .malformed(.png, _, _) = error else {
                Issue.record("\(entry.path): \(error)")
                continue
            }
        }
    }

    // MARK: malformed input, hand-made

    @Test("a wrong IHDR CRC names the chunk, both CRCs and the offset")
    func ihdrCRC() throws {
        var bytes = try Self.sample()
        bytes[29] ^= 0xFF  // first CRC byte of IHDR: 8 signature + 8 header + 13 data
        let error = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
        guard case .malformed(.png, let reason, let offset) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("IHDR CRC"))
        #expect(offset == 29)
    }

    @Test("bad colour type and bit depth are rejected with the field's offset",
          arguments: [(1, 8, 25), (2, 4, 24), (3, 16, 24), (7, 8, 25), (0, 0, 24)])
    func badHeader(colorType: Int, depth: Int, offset: Int) throws {
        let bytes = PNGChunkList.signature + Self.chunk("IHDR", Self.be32(1) + Self.be32(1) + [UInt8(depth), UInt8(colorType), 0, 0, 0])
            + Self.chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]) + Self.chunk("IEND", [])
        let error = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
        guard case .malformed(.png, _, let at) = error else { Issue.record("\(error)"); return }
        #expect(at == offset)
    }

    @Test("a missing IHDR, a missing IDAT and a bad signature are malformed")
    func structure() throws {
        let sample = try Self.sample()
        let noIHDR = PNGChunkList.signature + Array(sample[33...])
        let noIDAT = Array(sample[0..<33]) + Self.chunk("IEND", [])
        var badSignature = sample
        badSignature[1] = UInt8(ascii: "Q")
        for bytes in [noIHDR, noIDAT, badSignature] {
            let error = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
            guard case .malformed(.png, _, _) = error else { Issue.record("\(error)"); continue }
        }
    }

    @Test("a file cut anywhere before IEND is truncated", arguments: [10, 20, 40, 50, -1])
    func truncated(_ cut: Int) throws {
        let sample = try Self.sample()
        let bytes = Array(sample.prefix(cut < 0 ? sample.count - 1 : cut))
        let error = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
        guard case .truncated(.png, _, _) = error else { Issue.record("\(error)"); return }
    }

    @Test("a broken zlib stream in IDAT is a malformed error from libpng, with an offset")
    func brokenIDAT() throws {
        let bytes = Self.png(width: 2, height: 2, idat: [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0])
        let error = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
        guard case .malformed(.png, let reason, let offset) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("libpng"))
        #expect(offset != nil)
    }

    @Test("an IHDR declaring 100000 × 100000 is refused before anything is allocated, by each limit in turn")
    func hugeHeader() throws {
        let bytes = Self.png(width: 100_000, height: 100_000, idat: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        // A dimension limit applies when one is asked for; the default allows any PNG side (2³¹ − 1).
        let error = try #require(throws: DecodeError.self) {
            try PNGCodec.decode(bytes, options: DecodeOptions(limits: DecodeLimits(maxDimension: 65_535)))
        }
        #expect(error == .limitExceeded(.dimension, requested: 100_000, allowed: 65_535))
        let pixels = try #require(throws: DecodeError.self) { try PNGCodec.decode(bytes, options: DecodeOptions()) }
        #expect(pixels == .limitExceeded(.pixels, requested: 10_000_000_000, allowed: 0x3FFF * 0x3FFF))
        #expect(throws: DecodeError.self) { try PNGCodec.readHeader(bytes, options: DecodeOptions()) }
        // With the size limits lifted, 8 bytes of IDAT cannot inflate (at most 1032-fold) to the
        // 10^10 bytes of gray pixels declared: refused as truncated before any buffer exists.
        let buffer = try #require(throws: DecodeError.self) {
            try PNGCodec.decode(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: .max, maxDimension: .max)))
        }
        guard case .truncated(.png, let reason, _) = buffer else { Issue.record("\(buffer)"); return }
        #expect(reason.contains("at least 10000000000 bytes of pixel data; 1 IDAT chunk(s) hold 8 bytes, which inflate to at most 9288"), "\(reason)")
    }

    @Test("the byte budget is charged for the pixel buffer")
    func byteBudget() throws {
        let bytes = try Self.sample()
        let error = try #require(throws: DecodeError.self) {
            try PNGCodec.decode(bytes, options: DecodeOptions(limits: DecodeLimits(maxBytes: 3)))
        }
        #expect(error == .limitExceeded(.bytes, requested: 4, allowed: 3))
    }

    // MARK: metadata

    @Test("an eXIf chunk after IDAT still gives the orientation")
    func exifAfterIDAT() throws {
        let sample = try Self.sample()
        let iend = sample.count - 12
        let bytes = Array(sample[0..<iend]) + Self.chunk("eXIf", EXIF.block(orientation: .left)) + Array(sample[iend...])
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.orientation == .left)
        #expect(image.metadata.orientationSource == .pngExif)
        #expect(try PNGCodec.readHeader(bytes, options: DecodeOptions()).orientation == .left)
    }

    @Test("an ancillary chunk with a bad CRC is ignored and reported")
    func badAncillaryCRC() throws {
        let sample = try Self.sample()
        var exif = Self.chunk("eXIf", EXIF.block(orientation: .down))
        exif[exif.count - 1] ^= 0x55
        let bytes = Array(sample[0..<33]) + exif + Array(sample[33...])
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.orientation == .up)
        #expect(image.metadata.properties["ignored (bad CRC)"] == "eXIf")
        #expect(image.metadata.warnings == ["PNG eXIf at byte 33 ignored: its CRC does not match its data"])
    }

    @Test("cHRM and cICP are read into the metadata: the chromaticities ÷ 100000, the H.273 codes with their common name")
    func chromaticitiesAndCICP() throws {
        let sample = try Self.sample()
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // Display P3: white D65, red 0.68,0.32, green 0.265,0.69, blue 0.15,0.06.
        let chrm = Self.chunk("cHRM", [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000].flatMap(be32))
        let cicp = Self.chunk("cICP", [12, 13, 0, 1])
        let bytes = Array(sample[0..<33]) + chrm + cicp + Array(sample[33...])
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.metadata.properties["chromaticities"]
                == "white 0.31270,0.32900 red 0.68000,0.32000 green 0.26500,0.69000 blue 0.15000,0.06000")
        #expect(image.metadata.properties["cicp"] == "primaries 12, transfer 13, matrix 0, full range 1 (Display P3)")
        #expect(image.bitmap == (try PNGCodec.decode(sample, options: DecodeOptions())).bitmap)
    }

    @Test("an iCCP with an unknown compression method costs the profile, with a warning, not the image")
    func iccpMethod() throws {
        let sample = try Self.sample()
        let iccp = Self.chunk("iCCP", Array("icc".utf8) + [0, 1, 0x78, 0x9C])
        let bytes = Array(sample[0..<33]) + iccp + Array(sample[33...])
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.metadata.iccProfile == nil)
        #expect(image.metadata.warnings == ["PNG iCCP at byte 33 ignored: unsupported: iCCP compression method 1 (only 0, zlib, is defined)"])
        #expect(image.bitmap == (try PNGCodec.decode(sample, options: DecodeOptions())).bitmap)
    }

    @Test("orientation from an ImageMagick raw EXIF profile and from XMP", SharedData.needsCorpus, arguments: [
        ("pillow-tests/exif_imagemagick_orientation.png", OrientationSource.pngExif),
        ("pillow-tests/xmp_tags_orientation_exiftool.png", OrientationSource.xmp),
    ])
    func textOrientation(path: String, source: OrientationSource) throws {
        let entry = try #require(Manifest.inputs.first(where: { $0.path == path }), "\(path) is not in the corpus manifest")
        let bytes = try #require(Manifest.bytes(path), "\(path) is missing from the external corpus")
        let image = try PNGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.orientation.exifValue == entry.expected?.orientation)
        #expect(image.metadata.orientationSource == source)
    }
}
