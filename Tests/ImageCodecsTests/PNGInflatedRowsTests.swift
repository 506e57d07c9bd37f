import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// The libdeflate + Swift-unfilter pixel path (``PNGInflatedRows``): hand-built PNGs whose rows
/// the test filters itself with the spec's formulas (PNG spec §9) decode back to the raw rows;
/// every external-corpus PNG decodes to the same bytes or the same error through both paths;
/// unusual files step aside to libpng; the chunk CRC is the spec's CRC-32.
@Suite("PNG inflated rows")
struct PNGInflatedRowsTests {
    // MARK: building PNGs independently of the decoder

    /// CRC-32 of ISO 3309 / PNG §5.5, bit by bit (polynomial 0xEDB88320, reflected).
    static func specCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A chunk with its CRC computed by ``specCRC(_:)``.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(specCRC(body)))
    }

    /// A deterministic byte sequence (64-bit LCG, high byte).
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// The Paeth predictor exactly as §9.4 writes it.
    static func paethPredictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        if pb <= pc { return b }
        return c
    }

    /// Filters raw rows with filter method 0 (§9.2): one type byte, then Filt(x) per byte.
    static func filtered(_ raw: [[UInt8]], types: [UInt8], bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in raw.enumerated() {
            let type = types[y % types.count]
            out.append(type)
            for x in 0..<row.count {
                let a = x >= bpp ? Int(row[x - bpp]) : 0
                let b = y > 0 ? Int(raw[y - 1][x]) : 0
                let c = y > 0 && x >= bpp ? Int(raw[y - 1][x - bpp]) : 0
                let predicted: Int
                switch type {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                default: predicted = paethPredictor(a, b, c)
                }
                out.append(UInt8((Int(row[x]) - predicted + 256) % 256))
            }
        }
        return out
    }

    /// One image layout of Table 11.1.
    struct Layout: Sendable, CustomStringConvertible {
        var colorType: Int
        var depth: Int
        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }
        var description: String { "colour type \(colorType), \(depth)-bit" }
    }

    static let layouts: [Layout] = [
        Layout(colorType: 0, depth: 1), Layout(colorType: 0, depth: 2), Layout(colorType: 0, depth: 4),
        Layout(colorType: 0, depth: 8), Layout(colorType: 0, depth: 16),
        Layout(colorType: 2, depth: 8), Layout(colorType: 2, depth: 16),
        Layout(colorType: 3, depth: 1), Layout(colorType: 3, depth: 2), Layout(colorType: 3, depth: 4),
        Layout(colorType: 3, depth: 8),
        Layout(colorType: 4, depth: 8), Layout(colorType: 4, depth: 16),
        Layout(colorType: 6, depth: 8), Layout(colorType: 6, depth: 16),
    ]

    /// A PNG of `raw` rows in `layout`, filtered with `types` (cycled row by row). Palette
    /// images get a full palette of 2^depth entries.
    static func png(_ layout: Layout, width: Int, raw: [[UInt8]], types: [UInt8],
                    idat: (([UInt8]) -> [UInt8])? = nil, afterIDAT: [UInt8] = []) throws -> [UInt8] {
        let bpp = max(1, layout.channels * layout.depth / 8)
        let stream = try #require(PNGZlib.deflate(filtered(raw, types: types, bpp: bpp)))
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(width) + be32(raw.count) + [UInt8(layout.depth), UInt8(layout.colorType), 0, 0, 0])
        if layout.colorType == 3 {
            out += chunk("PLTE", noise(3 << layout.depth, seed: 99))
        }
        let data = idat?(stream) ?? stream
        // Split the stream over two IDAT chunks when it is long enough, as encoders do.
        if data.count > 8 {
            out += chunk("IDAT", Array(data[..<(data.count / 2)])) + chunk("IDAT", Array(data[(data.count / 2)...]))
        } else {
            out += chunk("IDAT", data)
        }
        return out + afterIDAT + chunk("IEND", [])
    }

    /// Raw rows of `width` pixels; for sub-byte depths the unused low bits of the last byte
    /// are 0 unless `paddingNoise`.
    static func rawRows(_ layout: Layout, width: Int, height: Int, seed: UInt64, paddingNoise: Bool = false) -> [[UInt8]] {
        let bits = width * layout.channels * layout.depth
        let rowBytes = (bits + 7) / 8
        let used = bits % 8
        return (0..<height).map { y in
            var row = noise(rowBytes, seed: seed &+ UInt64(y))
            if used != 0, !paddingNoise { row[rowBytes - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - used)) }
            return row
        }
    }

    /// Decodes `bytes` through one path; the bitmap or the error, and the route taken.
    static func decode(_ bytes: [UInt8], allowInflatedRows: Bool) -> (Result<Bitmap, DecodeError>, PNGPixelDecoder.Route?) {
        do {
            let header = try PNGImageHeader(readingStartOf: bytes)
            let list = try PNGChunkList(parsing: bytes)
            var limits = DecodeLimits()
            let (bitmap, route) = try PNGPixelDecoder.decodeRouted(bytes, header: header, chunks: list, limits: &limits,
                                                                   allowInflatedRows: allowInflatedRows)
            return (.success(bitmap), route)
        } catch {
            return (.failure(error), nil)
        }
    }

    // MARK: hand-built images

    @Test("every filter type, alone and mixed row by row, decodes back to the raw rows in every layout and odd width",
          arguments: layouts)
    func filtersRoundTrip(layout: Layout) throws {
        let typeSets: [[UInt8]] = [[0], [1], [2], [3], [4], [4, 0, 3, 1, 2, 4, 2]]
        for width in [1, 3, 7, 33] {
            for (n, types) in typeSets.enumerated() {
                let raw = Self.rawRows(layout, width: width, height: 9, seed: UInt64(width * 10 + n))
                let file = try Self.png(layout, width: width, raw: raw, types: types)
                let (result, route) = Self.decode(file, allowInflatedRows: true)
                let bitmap = try result.get()
                #expect(route == .inflatedRows, "\(layout), width \(width), filters \(types)")
                #expect(bitmap.bytes == raw.flatMap { $0 }, "\(layout), width \(width), filters \(types)")
            }
        }
    }

    @Test("an 8-bit RGB image of 300 rows (vectorized Up, register-held Sub and Paeth) decodes back to its raw rows")
    func largeRGB() throws {
        let layout = Layout(colorType: 2, depth: 8)
        for types: [UInt8] in [[1], [2], [3], [4], [2, 1, 4]] {
            let raw = Self.rawRows(layout, width: 257, height: 300, seed: 7)
            let file = try Self.png(layout, width: 257, raw: raw, types: types)
            let (result, route) = Self.decode(file, allowInflatedRows: true)
            #expect(route == .inflatedRows)
            #expect(try result.get().bytes == raw.flatMap { $0 }, "filters \(types)")
        }
    }

    @Test("unused low bits of a row's last byte come out 0, as libpng leaves them, while filtering still uses them",
          arguments: [Layout(colorType: 0, depth: 1), Layout(colorType: 0, depth: 2), Layout(colorType: 3, depth: 4)])
    func paddingBitsCleared(layout: Layout) throws {
        let width = 3
        let raw = Self.rawRows(layout, width: width, height: 6, seed: 5, paddingNoise: true)
        let used = width * layout.depth % 8
        let keep = UInt8(truncatingIfNeeded: 0xFF << (8 - used))
        let expected = raw.flatMap { row in row.dropLast() + [row[row.count - 1] & keep] }
        let file = try Self.png(layout, width: width, raw: raw, types: [2, 4, 3, 1])
        let (fast, route) = Self.decode(file, allowInflatedRows: true)
        #expect(route == .inflatedRows)
        #expect(try fast.get().bytes == expected)
        #expect(try Self.decode(file, allowInflatedRows: false).0.get().bytes == expected)
    }

    @Test("the branch-free Paeth predictor equals the spec's on all 256³ (a, b, c)")
    func paethPredictorExhaustive() {
        var mismatches = 0
        for a in 0..<256 {
            for b in 0..<256 {
                for c in 0..<256 where PNGUnfilter.predictor(a, b, c) != Self.paethPredictor(a, b, c) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    // MARK: stepping aside

    /// The unusual files of the fallback rules, built from one valid 8-bit RGB image.
    static func unusualFiles() throws -> [(String, [UInt8])] {
        let layout = Layout(colorType: 2, depth: 8)
        let raw = Self.rawRows(layout, width: 5, height: 4, seed: 3)
        let good = filtered(raw, types: [4], bpp: 3)
        let stream = try #require(PNGZlib.deflate(good))
        var badAdler = stream
        badAdler[badAdler.count - 1] ^= 0x01
        var badFilter = good
        badFilter[2 * 16] = 5
        return [
            ("wrong Adler-32", try png(layout, width: 5, raw: raw, types: [4], idat: { _ in badAdler })),
            ("trailing bytes after the zlib stream", try png(layout, width: 5, raw: raw, types: [4], idat: { $0 + [0, 0, 0] })),
            ("stream one row short", try png(layout, width: 5, raw: raw, types: [4], idat: { _ in PNGZlib.deflate(Array(good.prefix(3 * 16))) ?? [] })),
            ("stream one row long", try png(layout, width: 5, raw: raw, types: [4], idat: { _ in PNGZlib.deflate(good + good.prefix(16)) ?? [] })),
            ("filter type 5", try png(layout, width: 5, raw: raw, types: [4], idat: { _ in PNGZlib.deflate(badFilter) ?? [] })),
            ("tEXt between the last IDAT and IEND", try png(layout, width: 5, raw: raw, types: [4], afterIDAT: chunk("tEXt", Array("Comment\0late".utf8)))),
            ("PLTE after IDAT", try png(layout, width: 5, raw: raw, types: [4], afterIDAT: chunk("PLTE", [1, 2, 3]))),
        ]
    }

    @Test("unusual files step aside: each gives exactly what the libpng path gives, decoded by libpng")
    func unusualFilesFallBack() throws {
        for (name, file) in try Self.unusualFiles() {
            let (fast, route) = Self.decode(file, allowInflatedRows: true)
            let (reference, _) = Self.decode(file, allowInflatedRows: false)
            #expect(fast == reference, "\(name): \(fast) vs libpng \(reference)")
            if case .success = fast { #expect(route == .libpng, "\(name) took the fast path") }
        }
    }

    @Test("a zlib window under 32 KiB steps aside when the rows inflate to more than the window, not when they fit")
    func smallWindow() throws {
        let layout = Layout(colorType: 0, depth: 8)
        // CINFO = 0 declares a 256-byte window (RFC 1950 §2.2); FCHECK makes CMF·256 + FLG a multiple of 31.
        func narrowed(_ stream: [UInt8]) -> [UInt8] {
            var s = stream
            s[0] = 0x08
            s[1] = UInt8((31 - (0x08 * 256 + Int(s[1] & 0xE0)) % 31) % 31) | (s[1] & 0xE0)
            return s
        }
        let small = Self.rawRows(layout, width: 15, height: 16, seed: 1)   // 16 × 16 = 256 bytes inflated
        let smallFile = try Self.png(layout, width: 15, raw: small, types: [0], idat: narrowed)
        let (smallFast, smallRoute) = Self.decode(smallFile, allowInflatedRows: true)
        #expect(smallRoute == .inflatedRows)
        #expect(try smallFast.get().bytes == small.flatMap { $0 })
        #expect(smallFast == Self.decode(smallFile, allowInflatedRows: false).0)
        let large = Self.rawRows(layout, width: 15, height: 17, seed: 1)   // 272 bytes
        let largeFile = try Self.png(layout, width: 15, raw: large, types: [0], idat: narrowed)
        let (fast, route) = Self.decode(largeFile, allowInflatedRows: true)
        #expect(fast == Self.decode(largeFile, allowInflatedRows: false).0)
        if case .success = fast { #expect(route == .libpng) }
    }

    @Test("interlaced and colour-keyed images go through libpng")
    func interlacedAndColorKey() throws {
        let layout = Layout(colorType: 2, depth: 8)
        let raw = Self.rawRows(layout, width: 4, height: 3, seed: 2)
        let keyed = try Self.png(layout, width: 4, raw: raw, types: [1])
        // Insert a tRNS colour key before IDAT: the signature and IHDR take 8 + 25 bytes.
        let withKey = Array(keyed[..<33]) + Self.chunk("tRNS", [0, 1, 0, 2, 0, 3]) + Array(keyed[33...])
        let (result, route) = Self.decode(withKey, allowInflatedRows: true)
        #expect(route == .libpng)
        #expect(try result.get().format.hasAlpha)
        // An interlaced file from PngSuite, when the shared corpus is here.
        if let interlaced = Manifest.bytes("pngsuite/basi2c08.png") {
            let (viaFast, interlacedRoute) = Self.decode(interlaced, allowInflatedRows: true)
            #expect(interlacedRoute == .libpng)
            #expect(viaFast == Self.decode(interlaced, allowInflatedRows: false).0)
        }
    }

    @Test("when the budget holds the pixels but not the filter bytes, libpng decodes within it")
    func budgetForFilterBytes() throws {
        let layout = Layout(colorType: 0, depth: 8)
        let raw = Self.rawRows(layout, width: 10, height: 10, seed: 4)
        let file = try Self.png(layout, width: 10, raw: raw, types: [2])
        let header = try PNGImageHeader(readingStartOf: file)
        let list = try PNGChunkList(parsing: file)
        var tight = DecodeLimits(maxBytes: 100)
        let (bitmap, route) = try PNGPixelDecoder.decodeRouted(file, header: header, chunks: list, limits: &tight)
        #expect(route == .libpng)
        #expect(bitmap.bytes == raw.flatMap { $0 })
        #expect(tight.reservedBytes == 100)
        var roomy = DecodeLimits(maxBytes: 110)
        let (_, fastRoute) = try PNGPixelDecoder.decodeRouted(file, header: header, chunks: list, limits: &roomy)
        #expect(fastRoute == .inflatedRows)
        #expect(roomy.reservedBytes == 110)
    }

    // MARK: CRC

    @Test("the chunk CRC is the spec's CRC-32: IEND gives AE 42 60 82, and it matches a bitwise CRC on any data")
    func chunkCRC() {
        #expect(PNGChunkList.crc(Array("IEND".utf8), [UInt8]()) == 0xAE42_6082)
        for n in [0, 1, 7, 64, 1000, 70_001] {
            let data = Self.noise(n, seed: UInt64(n))
            #expect(PNGChunkList.crc(Array("IDAT".utf8), data[...]) == Self.specCRC(Array("IDAT".utf8) + data), "\(n) bytes")
        }
    }

    // MARK: external corpus

    @Test("every external-corpus PNG decodes to the same bytes or the same error through both paths", SharedData.needsCorpus)
    func externalCorpusEquivalence() throws {
        let entries = Manifest.inputs.filter { $0.format == "png" }
        var fast = 0, compared = 0
        var mismatches: [String] = []
        for entry in entries {
            guard let bytes = Manifest.bytes(entry.path) else { continue }
            guard (try? PNGChunkList(parsing: bytes)) != nil else { continue }
            compared += 1
            let (viaFast, route) = Self.decode(bytes, allowInflatedRows: true)
            let (viaLibpng, _) = Self.decode(bytes, allowInflatedRows: false)
            if viaFast != viaLibpng { mismatches.append("\(entry.path): \(viaFast) vs libpng \(viaLibpng)") }
            if route == .inflatedRows { fast += 1 }
        }
        print("  external corpus: \(compared) PNGs walked, \(fast) through the inflated-rows path")
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(fast >= 150, "only \(fast) of \(compared) PNGs took the fast path")
    }
}
