import Testing
import ImageCore
import ImageCodecs
@testable import ImageCorpus

/// The streamed source generator against the whole-image one, the scene's own values and
/// header arithmetic; the scale profile's case list against the sizes the issue names.
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

    @Test("a streamed file's size is known in advance: 54 header bytes plus rows padded to 4 bytes")
    func fileSizeArithmetic() throws {
        let bmp24 = try Self.encoding("bmp-24")
        // 6000 × 3 = 18,000 bytes a row (a multiple of 4), 4000 rows.
        #expect(StreamedSource.fileSize(CorpusCase(scene: .landscape, encoding: bmp24, width: 6000, height: 4000, operations: [])) == 54 + 18_000 * 4000)
        // 6019 × 3 = 18,057, padded to 18,060.
        #expect(StreamedSource.fileSize(CorpusCase(scene: .landscape, encoding: bmp24, width: 6019, height: 6019, operations: [])) == 54 + 18_060 * 6019)
        // BGRA: BITMAPV5HEADER (14 + 124 bytes), 4 bytes a pixel.
        let bgra = CorpusCase(scene: .softAlpha, encoding: try Self.encoding("bmp-bgra32-v5"), width: 10, height: 3, operations: [])
        #expect(StreamedSource.fileSize(bgra) == 138 + 40 * 3)
        #expect(try Self.streamed(bgra).count == 138 + 40 * 3)
    }

    @Test("what cannot be streamed yet is refused with a typed error naming the case")
    func refusesOtherStorage() throws {
        let png = CorpusCase(scene: .landscape, encoding: try Self.encoding("png-rgb8"), width: 12, height: 8, operations: [])
        let rotated = CorpusCase(scene: .orientation, encoding: try Self.encoding("bmp-24"), width: 12, height: 8, orientation: .right, operations: [])
        let palette = CorpusCase(scene: .orientation, encoding: try Self.encoding("bmp-palette8"), width: 12, height: 8, operations: [])
        for c in [png, rotated, palette] {
            #expect(!StreamedSource.canStream(c))
            #expect(StreamedSource.fileSize(c) == nil)
            let error = #expect(throws: CorpusGenerationError.self) { try Self.streamed(c) }
            #expect(error?.caseID == c.id)
        }
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
        #expect(cases.filter { StreamedSource.canStream($0) }.map(\.encoding.id) == ["bmp-24"])
    }
}
