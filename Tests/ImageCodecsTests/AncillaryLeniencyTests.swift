import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// Issue 20, leniency: broken ancillary data costs that data, not the image. Each case takes a
/// corpus file, breaks one piece of metadata (for PNG with the chunk's CRC recomputed, so only
/// its content is wrong), and checks that the pixels are exactly those of the intact file, the
/// piece is dropped, and a warning names it.
@Suite("Ancillary leniency")
struct AncillaryLeniencyTests {
    /// `bytes` with the data of the first `type` chunk replaced by `edit(data)` and its CRC
    /// recomputed (the length field follows the new data).
    static func replacingChunk(_ type: String, in bytes: [UInt8], _ edit: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        let list = try PNGChunkList(parsing: bytes)
        let chunk = try #require(list.chunks.first { $0.type == type }, "no \(type) chunk")
        let end = chunk.dataOffset + chunk.data.count + 4
        return Array(bytes[..<chunk.offset]) + PNGChunkList.serialize(type, edit(Array(chunk.data))) + Array(bytes[end...])
    }

    /// Decodes the intact and the broken file and checks the rules above; returns the broken decode.
    @discardableResult
    static func expectLenient(_ intact: [UInt8], _ broken: [UInt8], naming: String) throws -> Image {
        let clean = try ImageCodecs.decode(intact)
        #expect(clean.metadata.warnings.isEmpty, "the intact file already warns: \(clean.metadata.warnings)")
        let image = try ImageCodecs.decode(broken)
        #expect(image.bitmap == clean.bitmap, "the pixels changed")
        #expect(image.metadata.warnings.contains { $0.contains(naming) }, "no warning names \(naming): \(image.metadata.warnings)")
        let header = try ImageCodecs.readHeader(broken)
        #expect(header.metadata.warnings == image.metadata.warnings, "the header and the decode disagree")
        return image
    }

    /// One PNG case: the corpus file, the chunk broken, and how.
    struct PNGCase: Sendable, CustomStringConvertible {
        var path: String
        var chunk: String
        var how: String
        var edit: @Sendable ([UInt8]) -> [UInt8]
        var description: String { "\(chunk) \(how) (\(path))" }
    }

    static let pngCases: [PNGCase] = [
        PNGCase(path: "pillow-tests/icc_profile.png", chunk: "iCCP", how: "whose profile does not inflate") { d in
            let nul = d.firstIndex(of: 0) ?? 0
            return Array(d[...(nul + 1)]) + [0x78, 0x9C] + [UInt8](repeating: 0xFF, count: 24)
        },
        PNGCase(path: "pillow-tests/icc_profile.png", chunk: "iCCP", how: "with compression method 1") { d in
            var d = d
            if let nul = d.firstIndex(of: 0) { d[nul + 1] = 1 }
            return d
        },
        PNGCase(path: "image-png-tests/sbit/g.png", chunk: "zTXt", how: "with compression method 1") { d in
            var d = d
            if let nul = d.firstIndex(of: 0) { d[nul + 1] = 1 }
            return d
        },
        PNGCase(path: "libpng-testpngs/gray-8.png", chunk: "iTXt", how: "with compression flag 7") { d in
            var d = d
            if let nul = d.firstIndex(of: 0) { d[nul + 1] = 7 }
            return d
        },
        PNGCase(path: "image-png-tests/bugfixes/F-exif-chunk-early.png", chunk: "eXIf", how: "without a byte-order mark") { d in
            Array("XX".utf8) + d.dropFirst(2)
        },
        PNGCase(path: "libpng-contrib-pngsuite/basn0g02.png", chunk: "gAMA", how: "3 bytes long") { d in Array(d.dropLast()) },
        PNGCase(path: "libpng-testpngs/gray-1-1.8.png", chunk: "cHRM", how: "31 bytes long") { d in Array(d.dropLast()) },
        PNGCase(path: "sharp-fixtures/full-transparent.png", chunk: "sRGB", how: "with rendering intent 9") { _ in [9] },
        PNGCase(path: "pngsuite/s01n3p01.png", chunk: "sBIT", how: "with 0 significant bits") { d in d.map { _ in 0 } },
        PNGCase(path: "pngsuite/cm0n0g04.png", chunk: "tIME", how: "in month 13") { d in
            var d = d
            d[2] = 13
            return d
        },
        PNGCase(path: "pngsuite/cdfn2c08.png", chunk: "pHYs", how: "with unit 7") { d in
            var d = d
            d[8] = 7
            return d
        },
        PNGCase(path: "pngsuite/bgbn4a08.png", chunk: "bKGD", how: "one byte too long") { d in d + [0] },
    ]

    @Test("a broken PNG ancillary chunk (CRC fixed) is dropped with a warning; the pixels decode",
          SharedData.needsCorpus, arguments: pngCases)
    func pngChunk(_ c: PNGCase) throws {
        let intact = try #require(Manifest.bytes(c.path), "\(c.path) is missing from the external corpus")
        let broken = try Self.replacingChunk(c.chunk, in: intact, c.edit)
        // The chunk layer itself is intact: every CRC matches.
        #expect(try PNGChunkList(parsing: broken).chunks.allSatisfy(\.crcMatches))
        let image = try Self.expectLenient(intact, broken, naming: "PNG \(c.chunk) at byte")
        switch c.chunk {
        case "iCCP": #expect(image.metadata.iccProfile == nil)
        case "eXIf": #expect(image.metadata.exif == nil)
        case "gAMA": #expect(image.metadata.gamma == nil)
        case "sRGB": #expect(image.metadata.sRGBIntent == nil)
        default: break
        }
    }

    @Test("an ImageMagick raw EXIF profile in a zTXt that does not inflate costs the orientation, not the image",
          SharedData.needsCorpus)
    func rawProfileDoesNotInflate() throws {
        let path = "pillow-tests/exif_imagemagick_orientation.png"
        let intact = try #require(Manifest.bytes(path))
        #expect(try ImageCodecs.decode(intact).orientation != .up)
        // The file holds the profile in a tEXt chunk; the copy holds a zTXt of the same keyword
        // whose stream is broken.
        let broken = try Self.replacingChunk("tEXt", in: intact) { d in
            Array("Raw profile type exif".utf8) + [0, 0, 0x78, 0x9C] + [UInt8](repeating: 0xFF, count: 24)
        }
        let list = try PNGChunkList(parsing: broken)
        let text = try #require(list.chunks.first { $0.data.starts(with: "Raw profile type exif".utf8) })
        let renamed = Array(broken[..<(text.offset + 4)]) + Array("zTXt".utf8) + Array(broken[(text.offset + 8)...])
        let fixed = try Self.replacingChunk("zTXt", in: renamed) { $0 }  // recomputes the CRC over the new type
        let image = try Self.expectLenient(intact, fixed, naming: "PNG zTXt at byte")
        #expect(image.orientation == .up)
        #expect(image.metadata.exif == nil)
    }

    @Test("info --json lists the warnings; the text block shows them", SharedData.needsCorpus)
    func infoShowsWarnings() throws {
        let intact = try #require(Manifest.bytes("pillow-tests/icc_profile.png"))
        let broken = try Self.replacingChunk("iCCP", in: intact) { d in Array(d.prefix { $0 != 0 }) + [0, 0, 0x78, 0x9C, 1, 2, 3] }
        let image = try ImageCodecs.decode(broken)
        let info = FileInfo(path: "broken.png", container: .png, image: image)
        #expect(info.warnings.count == 1)
        #expect(try Self.jsonWarnings(info)?.first?.hasPrefix("PNG iCCP at byte 33 ignored: ") == true)
        #expect(info.text.contains("  warnings       PNG iCCP at byte 33 ignored: "))
        let clean = FileInfo(path: "intact.png", container: .png, image: try ImageCodecs.decode(intact))
        #expect(try Self.jsonWarnings(clean) == [])
    }

    /// The `warnings` array of the one object `info --json` prints for `info`.
    static func jsonWarnings(_ info: FileInfo) throws -> [String]? {
        let json = try #require(FileInfo.json([info]))
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return objects?.first?["warnings"] as? [String]
    }

    @Test("a JPEG APP1 EXIF block without a byte-order mark is dropped with a warning: orientation up",
          SharedData.needsCorpus)
    func jpegBrokenExif() throws {
        let intact = try #require(Manifest.bytes("pillow-tests/hopper_orientation_6.jpg"))
        #expect(try ImageCodecs.decode(intact).orientation.exifValue == 6)
        let prefix = try #require(Self.find(EXIF.jpegPrefix, in: intact))
        var broken = intact
        broken[prefix + 6] = 0x58
        broken[prefix + 7] = 0x58  // "XX" where "II" or "MM" stood
        let image = try Self.expectLenient(intact, broken, naming: "JPEG APP1 EXIF at byte")
        #expect(image.metadata.exif == nil)
        #expect(image.orientation == .up)
    }

    @Test("a JPEG ICC chunk numbered past its count is dropped with a warning", SharedData.needsCorpus)
    func jpegBrokenICC() throws {
        let intact = try #require(Manifest.bytes("jpeg-decoder-tests/mozilla/jpg-srgb-icc.jpg"))
        #expect(try ImageCodecs.decode(intact).metadata.iccProfile != nil)
        let signature = try #require(Self.find(JPEGMetadata.iccSignature, in: intact))
        var broken = intact
        broken[signature + 12] = broken[signature + 13] &+ 1  // sequence number > count
        let image = try Self.expectLenient(intact, broken, naming: "JPEG APP2 ICC profile ignored")
        #expect(image.metadata.iccProfile == nil)
    }

    @Test("a TIFF ExifIFD pointer past the end of the file is reported with a warning", SharedData.needsCorpus)
    func tiffBrokenExifIFD() throws {
        let intact = try #require(Manifest.bytes("image-tiff-tests/predictor-3-rgb-f32.tif"))
        let entry = try #require(Self.tiffEntry(34665, in: intact))
        var broken = intact
        for i in 0..<4 { broken[entry + 8 + i] = 0xFF }  // value: offset 0xFFFFFFFF
        try Self.expectLenient(intact, broken, naming: "TIFF ExifIFD (tag 34665) ignored")
    }

    @Test("a BMP V5 embedded profile outside the file is dropped with a warning", SharedData.needsCorpus)
    func bmpProfileOutsideFile() throws {
        let intact = try #require(Manifest.bytes("bmpsuite/q/rgb24prof.bmp"))
        #expect(try ImageCodecs.decode(intact).metadata.iccProfile != nil)
        var broken = intact
        for i in 0..<4 { broken[14 + 112 + i] = 0x7F }  // bV5ProfileData far past the end
        let image = try Self.expectLenient(intact, broken, naming: "BMP embedded ICC profile ignored")
        #expect(image.metadata.iccProfile == nil)
    }

    /// The offset of the first occurrence of `needle` in `bytes`.
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The offset of the IFD0 entry for `tag` in a classic TIFF.
    static func tiffEntry(_ tag: Int, in b: [UInt8]) -> Int? {
        let little = b[0] == 0x49
        func u(_ at: Int, _ n: Int) -> Int {
            (0..<n).reduce(0) { $0 | Int(b[at + (little ? $1 : n - 1 - $1)]) << (8 * $1) }
        }
        let ifd = u(4, 4)
        return (0..<u(ifd, 2)).map { ifd + 2 + 12 * $0 }.first { u($0, 2) == tag }
    }
}
