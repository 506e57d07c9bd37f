import Testing
import ImageCore
@testable import ImageCodecs

/// The EXIF orientation reader: both byte orders, IFD1 ignored, broken blocks tolerated.
@Suite("EXIF orientation")
struct EXIFTests {
    /// A TIFF-structured block built by hand from CIPA DC-008 §4.6: IFD0 with `ifd0` entries
    /// (tag, type, value), then an IFD1 with an orientation of its own (a thumbnail's, which
    /// must be ignored).
    static func block(littleEndian: Bool, ifd0: [(UInt16, UInt16, UInt32)], ifd1Orientation: UInt16? = nil) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let be = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? be.reversed() : be
        }
        func entry(_ tag: UInt16, _ type: UInt16, _ value: UInt32) -> [UInt8] {
            // SHORT and BYTE values are left-justified in the 4-byte field.
            let field: [UInt8]
            switch type {
            case 3: field = u16(UInt16(value)) + [0, 0]
            case 1: field = [UInt8(value), 0, 0, 0]
            default: field = u32(value)
            }
            return u16(tag) + u16(type) + u32(1) + field
        }
        var b: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        let ifd1Offset = ifd1Orientation == nil ? 0 : UInt32(8 + 2 + 12 * ifd0.count + 4)
        b += u16(UInt16(ifd0.count)) + ifd0.flatMap { entry($0.0, $0.1, $0.2) } + u32(ifd1Offset)
        if let o = ifd1Orientation { b += u16(1) + entry(0x0112, 3, UInt32(o)) + u32(0) }
        return b
    }

    @Test("orientation is read in both byte orders", arguments: [true, false])
    func bothByteOrders(little: Bool) {
        for value in 1...8 {
            let b = Self.block(littleEndian: little, ifd0: [(0x010F, 2, 0), (0x0112, 3, UInt32(value))])
            #expect(EXIF.orientation(in: b)?.exifValue == value)
        }
    }

    @Test("IFD1's orientation (the thumbnail's) is ignored")
    func ifd1Ignored() {
        let b = Self.block(littleEndian: true, ifd0: [(0x010F, 2, 0)], ifd1Orientation: 6)
        #expect(EXIF.orientation(in: b) == nil)
        let c = Self.block(littleEndian: false, ifd0: [(0x0112, 3, 3)], ifd1Orientation: 6)
        #expect(EXIF.orientation(in: c) == .down)
    }

    @Test("broken blocks give no orientation instead of an error")
    func brokenTolerated() {
        let good = Self.block(littleEndian: true, ifd0: [(0x0112, 3, 6)])
        #expect(EXIF.orientation(in: good) == .right)
        // Header 8 bytes, entry count 2, then the entry: its SHORT value sits at bytes 18–19.
        for cut in 0..<20 { #expect(EXIF.orientation(in: Array(good.prefix(cut))) == nil, "cut at \(cut)") }
        for cut in 20..<good.count { #expect(EXIF.orientation(in: Array(good.prefix(cut))) == .right, "value complete at cut \(cut)") }
        var badOffset = good
        badOffset[4] = 0xFF  // IFD0 offset past the end
        #expect(EXIF.orientation(in: badOffset) == nil)
        #expect(EXIF.orientation(in: Self.block(littleEndian: true, ifd0: [(0x0112, 3, 0)])) == nil, "0 is not an orientation")
        #expect(EXIF.orientationValue(in: Self.block(littleEndian: true, ifd0: [(0x0112, 3, 9)])) == 9)
        #expect(EXIF.orientation(in: Array("not exif".utf8)) == nil)
    }

    @Test("LONG and BYTE orientation values seen in the wild are accepted")
    func lenientTypes() {
        #expect(EXIF.orientation(in: Self.block(littleEndian: false, ifd0: [(0x0112, 4, 8)])) == .left)
        #expect(EXIF.orientation(in: Self.block(littleEndian: true, ifd0: [(0x0112, 1, 5)])) == .leftMirrored)
    }

    @Test("a written block reads back, and rewriting keeps the other tags", arguments: Orientation.allCases)
    func writeThenRead(o: Orientation) {
        #expect(EXIF.orientation(in: EXIF.block(orientation: o)) == o)
        let original = Self.block(littleEndian: true, ifd0: [(0x010F, 4, 1234), (0x0112, 3, 1)])
        let rewritten = EXIF.replacingOrientation(in: original, with: o)
        #expect(rewritten.count == original.count)
        #expect(EXIF.orientation(in: rewritten) == o)
        #expect(Array(rewritten.prefix(20)) == Array(original.prefix(20)), "the entry before the orientation is untouched")
    }
}

@Suite("Container sniffing")
struct SniffingTests {
    @Test("containers are recognised by content, not extension")
    func signatures() {
        #expect(ContainerFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ContainerFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ContainerFormat(sniffing: Array("GIF87a".utf8)) == .gif)
        #expect(ContainerFormat(sniffing: Array("GIF89a".utf8)) == .gif)
        #expect(ContainerFormat(sniffing: [0x49, 0x49, 0x2A, 0x00]) == .tiff)
        #expect(ContainerFormat(sniffing: [0x4D, 0x4D, 0x00, 0x2A]) == .tiff)
        #expect(ContainerFormat(sniffing: Array("BM".utf8) + [0, 0]) == .bmp)
        #expect(ContainerFormat(sniffing: Array("GIF88a".utf8)) == nil)
        #expect(ContainerFormat(sniffing: [UInt8]()) == nil)
        #expect(ContainerFormat(sniffing: [0x89, 0x50, 0x4E]) == nil, "a truncated signature is not a match")
    }

    @Test("unknown bytes are a typed error that shows the first bytes")
    func unknown() {
        #expect(throws: DecodeError.unknownFormat(signature: Array("hello world!".utf8))) {
            try ImageCodecs.decode(Array("hello world!!".utf8))
        }
        // An ISO base media file of another brand (HEIF's low-overhead `mif3`) names its brand.
        let mini = [0, 0, 0, 16] + Array("ftypmif3heic".utf8)
        #expect(DecodeError.unknownFormat(signature: Array(mini.prefix(12))).description.contains("brand 'mif3'"))
        #expect(throws: DecodeError.unknownFormat(signature: Array(mini.prefix(12)))) { try ImageCodecs.decode(mini) }
    }
}

@Suite("Decode limits")
struct DecodeLimitsTests {
    @Test("the budget refuses what would exceed it and spends nothing then")
    func budget() throws {
        var limits = DecodeLimits(maxPixels: 100, maxDimension: 50, maxBytes: 1000, maxFrames: 3)
        try limits.reserve(bytes: 600)
        #expect(throws: DecodeError.limitExceeded(.bytes, requested: 1200, allowed: 1000)) { try limits.reserve(bytes: 600) }
        #expect(limits.reservedBytes == 600)
        #expect(throws: DecodeError.limitExceeded(.dimension, requested: 51, allowed: 50)) { try limits.check(width: 51, height: 1) }
        #expect(throws: DecodeError.limitExceeded(.pixels, requested: 110, allowed: 100)) { try limits.check(width: 11, height: 10) }
        #expect(throws: DecodeError.limitExceeded(.frames, requested: 4, allowed: 3)) { try limits.check(frames: 4) }
        #expect(throws: DecodeError.self) { try limits.reserve(bytes: .max) }
    }

    @Test("defaults reject 100000 × 100000 and accept a 6000 × 4000 photo")
    func defaults() throws {
        #expect(throws: DecodeError.self) { try DecodeLimits.default.check(width: 100_000, height: 100_000) }
        try DecodeLimits.default.check(width: 6000, height: 4000)
    }
}
