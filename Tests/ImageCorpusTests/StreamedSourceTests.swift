import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageCorpus

/// The streamed source generator and the row writers against the whole-image encoders (their
/// bytes, or for baseline JPEG their decoded pixels), the scene's own values and header
/// arithmetic; the scale profile's case list against the sizes the issue names.
@Suite("Streamed sources and the scale profile")
struct StreamedSourceTests {
    static func encoding(_ id: String) throws -> Encoding { try #require(EncodingCatalog.named(id)) }

    static func streamed(_ c: CorpusCase, samples: Int = 16, bandRows: Int = StreamedSource.defaultBandRows) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try StreamedSource.write(c, samplesPerAxis: samples, bandRows: bandRows) { bytes += $0 }
        return bytes
    }

    @Test("a streamed BMP at 16 points per pixel is byte for byte the whole-image source encoder's file, for any band height",
          arguments: [("bmp-24", Scene.landscape), ("bmp-xrgb32", .zonePlate), ("bmp-bgra32-v5", .softAlpha),
                      ("bmp-bgra32-v5", .halo), ("bmp-24-topdown", .orientation)])
    func streamedEqualsWholeImage(encodingID: String, scene: Scene) throws {
        let c = CorpusCase(scene: scene, encoding: try Self.encoding(encodingID), width: 48, height: 32, operations: [])
        let whole = try SourceEncoder.encode(c)
        for band in [1, 7, 32, 64] {
            #expect(try Self.streamed(c, bandRows: band) == whole, "band of \(band) rows")
        }
    }

    @Test("the hidden-colour twin streams like the whole-image encoder too (hidden colour placed by absolute row)")
    func twinStreamsLikeWholeImage() throws {
        let c = CorpusCase(scene: .softAlpha, encoding: try Self.encoding("bmp-bgra32-v5"), width: 48, height: 32, operations: [])
        let twin = try #require(c.hiddenTwin)
        #expect(try Self.streamed(twin, bandRows: 5) == SourceEncoder.encode(twin))
        #expect(try Self.streamed(twin, bandRows: 5) != Self.streamed(c, bandRows: 5))
    }

    @Test("at 1 point per pixel each stored pixel is the scene at the pixel's centre, sRGB-encoded to 8 bits")
    func onePointPerPixelIsTheCentreSample() throws {
        let w = 12, h = 8
        let c = CorpusCase(scene: .landscape, encoding: try Self.encoding("bmp-24"), width: w, height: h, operations: [])
        let image = try ImageCodecs.decode(try Self.streamed(c, samples: 1, bandRows: 3))
        let rgb = try image.bitmap.converted(to: .rgb8)
        #expect(rgb.width == w && rgb.height == h)
        var worst = 0
        for y in 0..<h {
            for x in 0..<w {
                let colour = Scene.landscape.color(x: Double(x) + 0.5, y: Double(y) + 0.5, width: Double(w), height: Double(h))
                let expected = [colour.red, colour.green, colour.blue].map { Int((SRGBTransfer.fromLinear($0) * 255).rounded()) }
                for k in 0..<3 {
                    worst = max(worst, abs(Int(rgb.bytes[y * rgb.bytesPerRow + x * 3 + k]) - expected[k]))
                }
            }
        }
        // The file passes through 32-bit float (as every corpus source does), so a value within
        // float rounding of a half code may land on the other side: at most 1 code.
        #expect(worst <= 1)
    }

    @Test("a streamed PNG, TIFF or progressive JPEG at 16 points per pixel is byte for byte the whole-image source encoder's file, for any band height",
          arguments: [("png-rgb16", Scene.landscape), ("png-rgba8", .softAlpha), ("png-rgba8", .halo), ("png-gray8", .zonePlate),
                      ("png-graya16", .softAlpha), ("png-gray1", .orientation), ("tiff-rgba8-unassoc", .softAlpha),
                      ("tiff-rgba8-assoc", .halo), ("tiff-rgb8", .landscape), ("tiff-rgb16", .zonePlate), ("tiff-float-rgba", .softAlpha),
                      ("tiff-cmyk", .landscape), ("tiff-gray16", .landscape), ("jpeg-progressive", .landscape)])
    func compressedStreamEqualsWholeImage(encodingID: String, scene: Scene) throws {
        let c = CorpusCase(scene: scene, encoding: try Self.encoding(encodingID), width: 40, height: 24, operations: [])
        let whole = try SourceEncoder.encode(c)
        for band in [1, 7, 64] {
            #expect(try Self.streamed(c, bandRows: band) == whole, "band of \(band) rows")
        }
    }

    @Test("a streamed baseline JPEG decodes to exactly the whole-image encoder's pixels, and its bytes do not depend on the band height",
          arguments: ["jpeg-420", "jpeg-444", "jpeg-422", "jpeg-gray"])
    func baselineJPEGDecodesLikeWholeImage(encodingID: String) throws {
        // Standard Huffman tables instead of fitted ones: the same coefficients, other codes,
        // so the files differ and the decoded pixels must not.
        let c = CorpusCase(scene: .landscape, encoding: try Self.encoding(encodingID), width: 40, height: 24, operations: [])
        let whole = try SourceEncoder.encode(c)
        let streamed = try Self.streamed(c, bandRows: 7)
        #expect(streamed != whole)
        let expected = try ImageCodecs.decode(whole).bitmap
        let got = try ImageCodecs.decode(streamed).bitmap
        #expect(got.format == expected.format && got.width == 40 && got.height == 24)
        #expect(got.bytes == expected.bytes)
        for band in [1, 64] {
            #expect(try Self.streamed(c, bandRows: band) == streamed, "band of \(band) rows")
        }
    }

    @Test("the JPEG row writer with fitted Huffman tables writes the whole-image encoder's bytes, band by band")
    func jpegRowWriterOptimizedEqualsWholeImage() throws {
        let c = CorpusCase(scene: .landscape, encoding: try Self.encoding("jpeg-420"), width: 40, height: 24, operations: [])
        let rgb = try SourceEncoder.uprightRendering(c).straightFloatBitmap().converted(to: .rgb8)
        let writer = try JPEGRowWriter(width: 40, height: 24, format: .rgb8, options: c.encoding.options, huffmanTables: .optimized)
        var bytes: [UInt8] = []
        for top in stride(from: 0, to: 24, by: 5) {
            let rows = min(5, 24 - top)
            let band = try Bitmap(width: 40, height: rows, format: .rgb8,
                                  bytes: Array(rgb.bytes[(top * rgb.bytesPerRow)..<((top + rows) * rgb.bytesPerRow)]))
            bytes += try writer.write(band)
        }
        bytes += try writer.finish()
        #expect(bytes == (try SourceEncoder.encode(c)))
    }

    @Test("a row writer refuses rows past the image and a finish before the last row, with typed errors; a failed one stays failed")
    func rowWritersRefuseWrongRowCounts() throws {
        let row = try Bitmap(width: 4, height: 3, format: .rgb8, bytes: [UInt8](repeating: 90, count: 36))
        let png = try PNGRowWriter(width: 4, height: 2, format: .rgb8)
        #expect(throws: EncodeError.self) { _ = try png.write(row) }
        let jpeg = try JPEGRowWriter(width: 4, height: 4, format: .rgb8)
        _ = try jpeg.write(row)
        let early = #expect(throws: EncodeError.self) { _ = try jpeg.finish() }
        // The file is broken from then on: the last row is refused with the same error.
        let lastRow = try Bitmap(width: 4, height: 1, format: .rgb8, bytes: [UInt8](repeating: 90, count: 12))
        #expect(#expect(throws: EncodeError.self) { _ = try jpeg.write(lastRow) } == early)
        let tiff = try TIFFRowWriter(width: 4, height: 4, format: .rgb8, scratchFolder: FileManager.default.temporaryDirectory.path)
        try tiff.write(row)
        #expect(throws: EncodeError.self) { try tiff.finish { _ in } }
        #expect(throws: EncodeError.self) { _ = try PNGRowWriter(width: 4, height: 2, format: .rgb8, options: EncodeOptions(interlaced: true)) }
        #expect(throws: EncodeError.self) { _ = try TIFFRowWriter(width: 4, height: 2, format: .rgb8, options: EncodeOptions(tiffPlanar: true), scratchFolder: ".") }
    }

    @Test("a BMP's size is known in advance: 54 header bytes plus rows padded to 4 bytes")
    func fileSizeArithmetic() throws {
        // 6000 × 3 = 18,000 bytes a row (a multiple of 4), 4000 rows.
        #expect(try BMPRowWriter(width: 6000, height: 4000, format: .rgb8).fileSize == 54 + 18_000 * 4000)
        // 6019 × 3 = 18,057, padded to 18,060.
        #expect(try BMPRowWriter(width: 6019, height: 6019, format: .rgb8).fileSize == 54 + 18_060 * 6019)
        // BGRA: BITMAPV5HEADER (14 + 124 bytes), 4 bytes a pixel.
        let bgra = CorpusCase(scene: .softAlpha, encoding: try Self.encoding("bmp-bgra32-v5"), width: 10, height: 3, operations: [])
        guard case .pixels(let format) = bgra.encoding.storage else { Issue.record("BGRA BMP is not direct"); return }
        #expect(try BMPRowWriter(width: 10, height: 3, format: format).fileSize == 138 + 40 * 3)
        #expect(try Self.streamed(bgra).count == 138 + 40 * 3)
    }

    @Test("what cannot be streamed is refused with a typed error naming the case",
          arguments: [("png-palette8", Orientation.up), ("png-rgba8-adam7", .up), ("tiff-rgb8-planar", .up), ("tiff-palette", .up),
                      ("gif-palette", .up), ("bmp-palette8", .up), ("bmp-24", .right), ("png-rgb8", .left)])
    func refusesWhatCannotStream(encodingID: String, orientation: Orientation) throws {
        let c = CorpusCase(scene: .orientation, encoding: try Self.encoding(encodingID), width: 12, height: 8,
                           orientation: orientation, operations: [])
        #expect(!StreamedSource.canStream(c))
        let error = #expect(throws: CorpusGenerationError.self) { try Self.streamed(c) }
        #expect(error?.caseID == c.id)
        #expect(error?.reason.hasPrefix("cannot be streamed") == true)
    }

    @Test("rendering a band of rows gives those rows of the whole rendering, bit for bit, when shrinking too")
    func renderRowsIsABandOfRender() {
        let scene: (Double, Double) -> LinearRGBA = { x, y in Scene.zonePlate.color(x: x, y: y, width: 60, height: 40) }
        let shrink = OraclePlacement(width: 17, height: 11, content: (0, 0, 17, 11), source: (0, 0, 60, 40))
        let whole = Oracle.render(canvasWidth: 60, canvasHeight: 40, placement: shrink, scene: scene)
        let band = Oracle.renderRows(3..<7, canvasWidth: 60, canvasHeight: 40, placement: shrink, scene: scene)
        #expect(band.width == 17 && band.height == 4)
        #expect(band.pixels == Array(whole.pixels[(3 * 17 * 4)..<(7 * 17 * 4)]))
        // A band reaching past the bottom is clamped to the output's rows.
        #expect(Oracle.renderRows(9..<20, canvasWidth: 60, canvasHeight: 40, placement: shrink, scene: scene).height == 2)
    }

    @Test("the scale profile holds the issue's sources, each with maxPixelSize 640, fit 800×600 and fill 256×256")
    func scaleCaseList() {
        let cases = ScaleProfile.cases
        let sources = cases.map { "\($0.encoding.id) \($0.width)x\($0.height)" }
        #expect(sources == ["jpeg-progressive 6000x4000", "jpeg-progressive 12000x8000", "jpeg-420 6019x6019",
                            "png-rgb16 8000x6000", "png-rgba8 8000x6000", "tiff-rgba8-unassoc 6000x4000", "bmp-24 6000x4000"])
        #expect(Set(cases.map(\.id)).count == cases.count)
        for c in cases {
            #expect(c.operations.map(\.id) == ["maxPixelSize-640", "resize-aspectFit-800x600", "resize-aspectFill-256x256"])
            #expect(c.orientation == .up && c.animation == nil)
        }
        // Every RGBA source has alpha to judge; the opaque ones a photo-like scene.
        #expect(cases.filter { $0.scene == .softAlpha }.map(\.encoding.id) == ["png-rgba8", "tiff-rgba8-unassoc"])
        #expect(cases.allSatisfy(StreamedSource.canStream))
    }
}
