import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// Small classic TIFF files written byte by byte, independent of libtiff and of ``TIFFEncoder``.
enum HandMadeTIFF {
    /// One IFD entry: SHORT (type 3) or LONG (type 4) values.
    struct Field {
        var tag: UInt16
        var type: UInt16
        var values: [UInt32]
    }

    /// One page: its fields (strip tags are added) and its strips.
    struct Page {
        var fields: [Field]
        var strips: [[UInt8]]
    }

    static func short(_ tag: UInt16, _ values: UInt32...) -> Field { Field(tag: tag, type: 3, values: values) }
    static func long(_ tag: UInt16, _ values: UInt32...) -> Field { Field(tag: tag, type: 4, values: values) }

    /// The baseline fields of an uncompressed image.
    static func fields(width: UInt32, height: UInt32, bits: [UInt32], photometric: UInt32,
                       rowsPerStrip: UInt32? = nil, planar: Bool = false) -> [Field] {
        [long(256, width), long(257, height), Field(tag: 258, type: 3, values: bits), short(259, 1),
         short(262, photometric), short(277, UInt32(bits.count)), long(278, rowsPerStrip ?? height),
         short(284, planar ? 2 : 1)]
    }

    /// Packs unsigned values of `bits` bits most significant bit first, padding the end with zeros.
    static func pack(_ values: [Int], bits: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (values.count * bits + 7) / 8)
        for (i, v) in values.enumerated() {
            for b in 0..<bits where v >> (bits - 1 - b) & 1 == 1 {
                let bit = i * bits + b
                out[bit / 8] |= 0x80 >> UInt8(bit % 8)
            }
        }
        return out
    }

    /// The file: header, then per page its strips, its IFD and the IFD's out-of-line values.
    static func file(_ pages: [Page], bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: UInt32) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return bigEndian ? le.reversed() : le
        }
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        var pointer = out.count
        out += [0, 0, 0, 0]
        for page in pages {
            var offsets: [UInt32] = []
            for strip in page.strips {
                offsets.append(UInt32(out.count))
                out += strip
                if out.count % 2 == 1 { out.append(0) }
            }
            let fields = (page.fields + [Field(tag: 273, type: 4, values: offsets),
                                         Field(tag: 279, type: 4, values: page.strips.map { UInt32($0.count) })])
                .sorted { $0.tag < $1.tag }
            let ifd = out.count
            out.replaceSubrange(pointer..<(pointer + 4), with: u32(UInt32(ifd)))
            let extraStart = ifd + 2 + 12 * fields.count + 4
            var extra: [UInt8] = []
            out += u16(UInt32(fields.count))
            for f in fields {
                let data = f.values.flatMap { f.type == 3 ? u16($0) : u32($0) }
                out += u16(UInt32(f.tag)) + u16(UInt32(f.type)) + u32(UInt32(f.values.count))
                if data.count <= 4 {
                    out += data + [UInt8](repeating: 0, count: 4 - data.count)
                } else {
                    out += u32(UInt32(extraStart + extra.count))
                    extra += data
                    if extra.count % 2 == 1 { extra.append(0) }
                }
            }
            pointer = out.count
            out += [0, 0, 0, 0]
            out += extra
        }
        return out
    }

    static func file(_ fields: [Field], strip: [UInt8], bigEndian: Bool = false) -> [UInt8] {
        file([Page(fields: fields, strips: [strip])], bigEndian: bigEndian)
    }
}

/// Values of a decoded bitmap's components in storage order (8-bit, 16-bit little-endian).
private func components(_ bitmap: Bitmap) -> [Int] {
    switch bitmap.format.bitsPerComponent {
    case 16: return stride(from: 0, to: bitmap.bytes.count, by: 2).map { Int(bitmap.bytes[$0]) | Int(bitmap.bytes[$0 + 1]) << 8 }
    default: return bitmap.bytes.map(Int.init)
    }
}

@Suite("TIFF decoder")
struct TIFFDecoderTests {
    typealias T = HandMadeTIFF

    @Test("odd depths expand exactly to round(v·(2^t−1)/(2^b−1))",
          // The middle values are ones where truncation and bit replication give another result.
          arguments: [(3, [0, 2, 4, 7]), (5, [0, 3, 24, 31]), (6, [0, 11, 13, 63]), (7, [0, 64, 100, 127]),
                      (10, [0, 9, 512, 1023]), (12, [0, 137, 2048, 4095]), (14, [0, 2731, 8191, 16383])])
    func oddDepthExpansion(bits: Int, values: [Int]) throws {
        let file = T.file(T.fields(width: 4, height: 1, bits: [UInt32(bits)], photometric: 1), strip: T.pack(values, bits: bits))
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        let target = bits < 8 ? 8 : 16
        let expected = values.map { Int((Double($0) * Double((1 << target) - 1) / Double((1 << bits) - 1)).rounded()) }
        #expect(image.format.bitsPerComponent == target)
        #expect(image.format.colorModel == .gray)
        #expect(components(image.bitmap) == expected)
        #expect(image.metadata.storedBitDepth == bits)
        #expect(image.metadata.storedFormatNote != nil)
    }

    @Test("MinIsWhite is inverted before expanding, so 0 is black")
    func minIsWhite() throws {
        let values = [0, 11, 52, 63]
        let file = T.file(T.fields(width: 4, height: 1, bits: [6], photometric: 0), strip: T.pack(values, bits: 6))
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(components(image.bitmap) == values.map { Int((Double(63 - $0) * 255 / 63).rounded()) })
        // 1-bit MinIsWhite stays packed: 1 0 1 1 0 inverted is 0 1 0 0 1, padding bits zero.
        let bilevel = T.file(T.fields(width: 5, height: 1, bits: [1], photometric: 0), strip: [0b1011_0111])
        let decoded = try TIFFCodec.decode(bilevel, options: DecodeOptions())
        #expect(decoded.format == .init(colorModel: .gray, bitsPerComponent: 1))
        #expect(decoded.bitmap.bytes == [0b0100_1000])
    }

    @Test("5-bit contiguous RGB and 10-bit planar RGB expand per sample")
    func rgbOddDepths() throws {
        let values = [0, 31, 16, 1, 2, 30]
        let contiguous = T.file(T.fields(width: 2, height: 1, bits: [5, 5, 5], photometric: 2), strip: T.pack(values, bits: 5))
        #expect(components(try TIFFCodec.decode(contiguous, options: DecodeOptions()).bitmap)
                == values.map { Int((Double($0) * 255 / 31).rounded()) })
        let planes = [[0, 1023], [512, 3], [1000, 7]]
        let planar = T.file([T.Page(fields: T.fields(width: 2, height: 1, bits: [10, 10, 10], photometric: 2, planar: true),
                                    strips: planes.map { T.pack($0, bits: 10) })])
        let image = try TIFFCodec.decode(planar, options: DecodeOptions())
        let interleaved = [0, 512, 1000, 1023, 3, 7]
        #expect(components(image.bitmap) == interleaved.map { Int((Double($0) * 65535 / 1023).rounded()) })
        #expect(image.metadata.properties["planar"] == "separate")
    }

    @Test("planar 8-bit RGB is interleaved")
    func planarInterleaving() throws {
        let file = T.file([T.Page(fields: T.fields(width: 3, height: 1, bits: [8, 8, 8], photometric: 2, planar: true),
                                  strips: [[1, 2, 3], [4, 5, 6], [7, 8, 9]])])
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.format == .rgb8)
        #expect(image.bitmap.bytes == [1, 4, 7, 2, 5, 8, 3, 6, 9])
    }

    @Test("ExtraSamples 1 is premultiplied, 2 is straight, 0 is padding; the stored bytes are kept",
          arguments: [(UInt32(1), AlphaInfo.premultipliedLast), (2, .last), (0, .noneSkipLast)])
    func extraSamples(kind: UInt32, alphaInfo: AlphaInfo) throws {
        let stored: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let file = T.file(T.fields(width: 2, height: 1, bits: [8, 8, 8, 8], photometric: 2) + [T.short(338, kind)], strip: stored)
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.format == PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: alphaInfo))
        #expect(image.bitmap.bytes == stored)
        #expect(image.format.hasAlpha == (kind != 0))
    }

    @Test("ColorMap entries become 8-bit by the rounded ÷ 257; indices stay packed")
    func colorMap() throws {
        let red: [UInt32] = [0, 128, 129, 65535], green: [UInt32] = [385, 386, 257, 32896], blue: [UInt32] = [1, 65534, 64250, 200]
        let file = T.file(T.fields(width: 4, height: 1, bits: [2], photometric: 3) + [T.Field(tag: 320, type: 3, values: red + green + blue)],
                          strip: T.pack([0, 1, 2, 3], bits: 2))
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        func eight(_ v: UInt32) -> UInt8 { UInt8((Double(v) / 257).rounded()) }
        let expected = Palette((0..<4).map { Palette.Entry(red: eight(red[$0]), green: eight(green[$0]), blue: eight(blue[$0])) })
        #expect(image.format == PixelFormat(colorModel: .indexed(expected), bitsPerComponent: 2))
        #expect(image.bitmap.bytes == [0b00_01_10_11])
    }

    @Test("a palette with an alpha sample becomes straight 8-bit RGBA")
    func paletteWithAlpha() throws {
        let red: [UInt32] = [0, 65535], green: [UInt32] = [65535, 0], blue: [UInt32] = [257 * 10, 257 * 20]
        var fields = T.fields(width: 2, height: 1, bits: [1, 1], photometric: 3) + [T.short(338, 2)]
        fields.append(T.Field(tag: 320, type: 3, values: red + green + blue))
        let image = try TIFFCodec.decode(T.file(fields, strip: T.pack([1, 1, 0, 0], bits: 1)), options: DecodeOptions())
        #expect(image.format == .rgba8)
        #expect(image.bitmap.bytes == [255, 0, 20, 255, 0, 255, 10, 0])
    }

    @Test("tag 274 gives the orientation; the pixels stay as stored", arguments: Orientation.allCases)
    func orientationTag(_ orientation: Orientation) throws {
        let file = T.file(T.fields(width: 3, height: 2, bits: [8], photometric: 1) + [T.short(274, UInt32(orientation.exifValue))],
                          strip: [1, 2, 3, 4, 5, 6])
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.orientation == orientation)
        #expect(image.metadata.orientationSource == .tiffTag)
        #expect(image.bitmap.bytes == [1, 2, 3, 4, 5, 6])
        #expect(try TIFFCodec.readHeader(file, options: DecodeOptions()).orientation == orientation)
    }

    @Test("the RGBA-interface route (YCbCr) keeps rows as stored and reports the tag's orientation",
          arguments: Orientation.allCases)
    func rgbaRouteKeepsStoredRows(_ orientation: Orientation) throws {
        // 1×2 YCbCr without subsampling: row 0 white (Y 255), row 1 black (Y 0), neutral chroma.
        // TIFFReadRGBAImage flips rows unless the requested orientation matches the file's
        // (it asks for bottom-left by default; TIFFReadRGBAImageOriented usually for top-left).
        let fields = T.fields(width: 1, height: 2, bits: [8, 8, 8], photometric: 6)
            + [T.short(274, UInt32(orientation.exifValue)), T.short(530, 1, 1)]
        let image = try TIFFCodec.decode(T.file(fields, strip: [255, 128, 128, 0, 128, 128]), options: DecodeOptions())
        #expect(image.format == .rgb8)
        #expect(image.orientation == orientation)
        #expect(image.metadata.storedFormatNote?.contains("YCbCr") == true)
        #expect(image.bitmap.bytes.prefix(3).allSatisfy { $0 >= 250 })
        #expect(image.bitmap.bytes.suffix(3).allSatisfy { $0 <= 5 })
    }

    @Test("without tag 274 the orientation is up and has no source")
    func noOrientationTag() throws {
        let image = try TIFFCodec.decode(T.file(T.fields(width: 1, height: 1, bits: [8], photometric: 1), strip: [7]), options: DecodeOptions())
        #expect(image.orientation == .up)
        #expect(image.metadata.orientationSource == nil)
    }

    @Test("16-bit samples of a big-endian file arrive as little-endian words")
    func bigEndianSixteenBit() throws {
        let file = T.file(T.fields(width: 2, height: 1, bits: [16], photometric: 1), strip: [0x01, 0x02, 0xFF, 0xFE], bigEndian: true)
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.format == PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16))
        #expect(components(image.bitmap) == [0x0102, 0xFFFE])
        #expect(image.metadata.properties["byte order"] == "big-endian (MM)")
    }

    @Test("pages are counted; the first is decoded; the header reads only the first IFD")
    func pages() throws {
        let pages = (1...3).map { T.Page(fields: T.fields(width: 2, height: 1, bits: [8], photometric: 1), strips: [[UInt8($0), 0]]) }
        let file = T.file(pages)
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.metadata.properties["pages"] == "3")
        #expect(image.bitmap.bytes == [1, 0])
        let header = try TIFFCodec.readHeader(file, options: DecodeOptions())
        #expect(header.frameCount == 1)
        #expect(header.format == .gray8)
        #expect(header.metadata.properties["pages"] == nil)
    }

    @Test("a header declaring 100000×100000 is refused before any pixel buffer exists")
    func hugeDimensions() throws {
        let file = T.file(T.fields(width: 100_000, height: 100_000, bits: [8], photometric: 1, rowsPerStrip: 1), strip: [0])
        let narrow = DecodeOptions(limits: DecodeLimits(maxDimension: 65_535))
        #expect(throws: DecodeError.limitExceeded(.dimension, requested: 100_000, allowed: 65_535)) {
            try TIFFCodec.decode(file, options: narrow)
        }
        #expect(throws: DecodeError.limitExceeded(.dimension, requested: 100_000, allowed: 65_535)) {
            try TIFFCodec.readHeader(file, options: narrow)
        }
        #expect(throws: DecodeError.limitExceeded(.pixels, requested: 10_000_000_000, allowed: 0x3FFF * 0x3FFF)) {
            try TIFFCodec.readHeader(file, options: DecodeOptions())
        }
        let wide = DecodeOptions(limits: DecodeLimits(maxDimension: .max))
        #expect(throws: DecodeError.limitExceeded(.pixels, requested: 10_000_000_000, allowed: 0x3FFF * 0x3FFF)) {
            try TIFFCodec.decode(file, options: wide)
        }
    }

    @Test("the byte budget covers the pixel buffers")
    func byteBudget() throws {
        let file = T.file(T.fields(width: 100, height: 100, bits: [8], photometric: 1), strip: [UInt8](repeating: 9, count: 10_000))
        let tight = DecodeOptions(limits: DecodeLimits(maxBytes: 5_000))
        let error = #expect(throws: DecodeError.self) { try TIFFCodec.decode(file, options: tight) }
        guard case .limitExceeded(.bytes, _, _) = error else {
            Issue.record("expected a byte limit error, got \(String(describing: error))")
            return
        }
        #expect(try TIFFCodec.decode(file, options: DecodeOptions(limits: DecodeLimits(maxBytes: 20_000))).width == 100)
    }

    @Test("sample formats the pixel model has no mapping for are refused as unsupported, not misread: 24-bit float, 48-bit signed and unsigned",
          arguments: [([T.short(339, 3)], [UInt32(24)]), ([T.short(339, 2)], [48]), ([], [48])])
    func unsupportedSamples(extra: [HandMadeTIFF.Field], bits: [UInt32]) throws {
        let file = T.file(T.fields(width: 1, height: 1, bits: bits, photometric: 1) + extra,
                          strip: [UInt8](repeating: 0, count: Int(bits[0]) / 8))
        let error = #expect(throws: DecodeError.self) { try TIFFCodec.decode(file, options: DecodeOptions()) }
        guard case .unsupported(.tiff, _) = error else {
            Issue.record("expected unsupported, got \(String(describing: error))")
            return
        }
    }

    @Test("16-bit floats widen exactly to 32-bit floats")
    func halfFloats() throws {
        // 0x3C00 = 1, 0xC000 = −2, 0x0001 = 2^−24 (smallest subnormal), 0x7BFF = 65504 (largest finite).
        let halves: [UInt16] = [0x3C00, 0xC000, 0x0001, 0x7BFF]
        let file = T.file(T.fields(width: 4, height: 1, bits: [16], photometric: 1) + [T.short(339, 3)],
                          strip: halves.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.format == PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true))
        let floats = stride(from: 0, to: 16, by: 4).map { i in
            Float(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(image.bitmap.bytes[i + $1]) << (8 * UInt32($1)) })
        }
        #expect(floats == [1, -2, Float(sign: .plus, exponent: -24, significand: 1), 65504])
    }

    @Test("every truncation of a valid file decodes or throws a DecodeError, never crashes")
    func truncations() throws {
        let file = T.file(T.fields(width: 5, height: 3, bits: [8, 8, 8], photometric: 2, rowsPerStrip: 1) + [T.short(274, 6)],
                          strip: (0..<45).map { UInt8($0) })
        for length in 0..<file.count {
            do {
                _ = try TIFFCodec.decode(Array(file.prefix(length)), options: DecodeOptions())
            } catch {
                // Any DecodeError is acceptable; the typed throw guarantees the type.
                _ = error.description
            }
        }
        #expect(throws: DecodeError.truncated(.tiff, reason: "the TIFF header needs 8 bytes, the file has 4", offset: 0)) {
            try TIFFCodec.decode(Array(file.prefix(4)), options: DecodeOptions())
        }
    }

    @Test("corrupted LZW data ends in a DecodeError or an image, never a crash")
    func corruptedCompressedData() throws {
        let bitmap = try TIFFRoundTripTests.synthetic(.rgba8, width: 40, height: 30)
        let file = try TIFFCodec.encode(Image(bitmap: bitmap), options: EncodeOptions(tiffCompression: .lzw))
        var state: UInt32 = 12345
        for _ in 0..<200 {
            var damaged = file
            for _ in 0..<4 {
                state = state &* 1_103_515_245 &+ 12345
                let position = Int(state >> 8) % damaged.count
                damaged[position] ^= UInt8(truncatingIfNeeded: state >> 24) | 1
            }
            _ = try? TIFFCodec.decode(damaged, options: DecodeOptions())
        }
    }

    @Test("a strip shorter than its rows is an error")
    func shortStrip() throws {
        let file = T.file([T.Page(fields: T.fields(width: 4, height: 4, bits: [8], photometric: 1, rowsPerStrip: 2),
                                  strips: [[UInt8](repeating: 1, count: 8), [1, 2, 3]])])
        #expect(throws: DecodeError.self) { try TIFFCodec.decode(file, options: DecodeOptions()) }
    }

    @Test("libtiff's silent repair of a single uncompressed strip's byte count is recorded", SharedData.needsCorpus)
    func repairIsRecorded() throws {
        let file = T.file(T.fields(width: 4, height: 4, bits: [8], photometric: 1), strip: [1, 2, 3])
        let image = try TIFFCodec.decode(file, options: DecodeOptions())
        #expect(image.metadata.properties["libtiff warnings"]?.contains("StripByteCounts") == true)
    }
}

/// Decoder behaviour on the external corpus (read through ``Manifest``; skipped when absent).
@Suite("TIFF decoder on the external corpus")
struct TIFFCorpusTests {
    /// Decodes a corpus file; a file missing from the corpus is a failure.
    static func decode(_ path: String) throws -> Image {
        try ImageCodecs.decode(try #require(Manifest.bytes(path), "\(path) is missing from the external corpus"))
    }

    @Test("associated and unassociated RGBA with the same samples decode to different alpha infos", SharedData.needsCorpus)
    func associatedVersusUnassociated() throws {
        let associated = try Self.decode("image-tiff-tests/seq/seq-4c-8b-rgba-50969cda.tiff")
        let unassociated = try Self.decode("image-tiff-tests/seq/seq-4c-8b-rgba-unassoc-50969cda.tiff")
        #expect(associated.format.alphaInfo == .premultipliedLast)
        #expect(unassociated.format.alphaInfo == .last)
        #expect(associated.bitmap.bytes == unassociated.bitmap.bytes)
        let sixteen = try Self.decode("image-tiff-tests/seq/seq-4c-16b-rgba-5181991f.tiff")
        #expect(sixteen.format == PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .premultipliedLast, byteOrder: .little16))
    }

    /// image-tiff's `seq/` files end in a hash of their logical pixels: files with the same
    /// channel count, depth and hash hold the same picture in different encodings.
    @Test("seq files with the same content hash decode to identical pixels (strips, tiles, LZW, Deflate, fax, MinIsWhite, big-endian)", SharedData.needsCorpus)
    func sameHashSamePixels() throws {
        let seq = Manifest.inputs.filter { $0.path.hasPrefix("image-tiff-tests/seq/") }
        var groups: [String: [String]] = [:]
        for entry in seq {
            let name = entry.path.split(separator: "/").last.map(String.init) ?? ""
            let parts = name.replacingOccurrences(of: ".tiff", with: "").split(separator: "-")
            guard parts.count >= 4, let hash = parts.last else { continue }
            let alpha = name.contains("unassoc") ? "unassociated" : ""
            groups["\(parts[1])-\(parts[2])-\(hash)\(alpha)", default: []].append(entry.path)
        }
        var compared = 0
        for (_, paths) in groups where paths.count > 1 {
            let decoded = try paths.sorted().compactMap { path -> (String, Image)? in
                do { return (path, try Self.decode(path)) } catch DecodeError.unsupported { return nil }
            }
            guard let (firstPath, first) = decoded.first else { continue }
            for (path, image) in decoded.dropFirst() {
                #expect(image.bitmap == first.bitmap, "\(path) differs from \(firstPath)")
                compared += 1
            }
        }
        #expect(compared >= 10)
    }

    @Test("the header announces the size, format and orientation a full decode delivers, for every TIFF in the corpus", SharedData.needsCorpus)
    func headerAgreesWithDecode() throws {
        var checked = 0
        for entry in Manifest.inputs where entry.format == "tiff" {
            guard let bytes = Manifest.bytes(entry.path), let image = try? TIFFCodec.decode(bytes, options: DecodeOptions()) else { continue }
            let header = try TIFFCodec.readHeader(bytes, options: DecodeOptions())
            #expect(header.format == image.format, "\(entry.path)")
            #expect(header.width == image.width && header.height == image.height, "\(entry.path)")
            #expect(header.orientation == image.orientation, "\(entry.path)")
            #expect(header.metadata.storedBitDepth == image.metadata.storedBitDepth, "\(entry.path)")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test("G4 files with orientations 1…8 show the same picture once oriented (Pillow's tolerance: mean difference < 0.7/255)", SharedData.needsCorpus)
    func orientationsShowTheSamePicture() throws {
        let upright = try Self.decode("pillow-tests/g4_orientation_1.tif").oriented()
        for n in [2, 4, 5, 7, 8] {
            let image = try Self.decode("pillow-tests/g4_orientation_\(n).tif")
            #expect(image.orientation.exifValue == n)
            let shown = image.oriented()
            #expect(shown.width == upright.width && shown.height == upright.height)
            guard shown.width == upright.width, shown.height == upright.height else { continue }
            var total = 0.0
            for y in 0..<shown.height {
                let a = shown.bitmap.straightRGBARow(y), b = upright.bitmap.straightRGBARow(y)
                for i in stride(from: 0, to: a.count, by: 4) { total += abs(a[i] - b[i]) * 255 }
            }
            #expect(total / Double(shown.width * shown.height) < 0.7, "orientation \(n)")
        }
    }
}
