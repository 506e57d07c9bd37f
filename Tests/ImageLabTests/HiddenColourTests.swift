import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// Hidden colour: the committed sources store loud colours under α = 0 where their format can,
/// each has a twin that differs only there, and the oracle never sees them.
@Suite("Hidden colour")
struct HiddenColourTests {
    /// The committed corpus folder and its manifest (read from disk, not generated).
    static let corpusFolder = QuickCorpus.packageRoot.appendingPathComponent("Corpus")
    static func committedManifest() throws -> CorpusManifest {
        let data = try Data(contentsOf: corpusFolder.appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode(CorpusManifest.self, from: data)
    }
    static func decodeCommitted(_ path: String) throws -> Image {
        try ImageCodecs.decode(ImageCodecs.readFile(corpusFolder.appendingPathComponent(path).path))
    }

    /// The bitmaps a decode delivers: the bitmap, then every further animation canvas.
    static func bitmaps(_ image: Image) -> [Bitmap] {
        [image.bitmap] + (image.animation?.frames.dropFirst().map(\.canvas) ?? [])
    }

    /// The encodings whose files keep straight colour under α = 0 (the list: PNG RGBA
    /// and gray + alpha 8/16, palette tRNS, GIF's transparent index, TIFF unassociated alpha,
    /// BMP BGRA V5, APNG frames a decode delivers, i.e. blend_op SOURCE), the tagged RGBA PNG, and
    /// lossless HEIF and AVIF with straight alpha (the colour image is coded apart from the alpha image).
    static let keeping: Set<String> = [
        "png-rgba8", "png-rgba16", "png-graya8", "png-graya16", "png-rgba8-adam7", "png-rgba8-tagged-p3",
        "png-palette1-trns", "png-palette2-trns", "png-palette4-trns", "png-palette8-trns", "gif-transparent",
        "tiff-rgba8-unassoc", "tiff-rgba16-unassoc", "tiff-rgba16-planar", "tiff-float-rgba", "bmp-bgra32-v5",
        "apng-source-none", "apng-source-background", "apng-source-previous", "webp-rgba8-lossless",
        "webp-anim-source-none", "webp-anim-source-background", "heif-rgba8-lossless", "avif-rgba8-lossless",
        "avif-rgba16-12bit",
    ]

    /// The documented colour under α = 0 at pixel (x, y) of a `w × h` still case, as 8-bit codes,
    /// written out from the Scene notes (not from the generator's functions).
    static func documentedColour(scene: String, style: HiddenColours.Style, x: Int, y: Int, w: Int, h: Int) -> HiddenRGB? {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        let first: Bool, grayWhite: Bool
        switch scene {
        case "colorPatches":
            let cell = Double(w) / 6
            first = cx.truncatingRemainder(dividingBy: cell) < cell / 2
            grayWhite = first
        case "softAlpha":
            first = cy < Double(h) / 2
            grayWhite = first
        case "stepEdges", "stencil":
            first = cy < Double(h) / 2
            grayWhite = true
        case "halo":
            let bar = min(2, Int(cx * 3 / Double(w)))
            first = cx * 12 < Double((2 + 4 * bar) * w)
            grayWhite = bar != 0
        default:
            return nil
        }
        switch style {
        case .pair: return first ? .magenta : .green
        case .single: return .magenta
        case .gray: return grayWhite ? .white : .black
        }
    }

    static func code(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }

    @Test("the oracle is the same whatever colour hides under α = 0: byte-identical renderings",
          arguments: [Scene.softAlpha, .halo, .stepEdges, .colorPatches, .stencil])
    func oracleIgnoresHiddenColour(_ scene: Scene) throws {
        // The hidden colours really differ in the scene …
        let transparent = (0..<48).flatMap { x in (0..<32).map { (Double(x) + 0.5, Double($0) + 0.5) } }
            .first { scene.color(x: $0.0, y: $0.1, width: 48, height: 32).alpha == 0 }
        let p = try #require(transparent)
        #expect(scene.color(x: p.0, y: p.1, width: 48, height: 32, hidden: .pair)
                != scene.color(x: p.0, y: p.1, width: 48, height: 32, hidden: HiddenColours.pair.twin))
        // … and the oracle of every kind of operation is the same bytes with either.
        let operations: [LabOperation] = [.orient, .resize(width: 24, height: 24, mode: .aspectFit),
                                          .resize(width: 31, height: 17, mode: .scaleToFill), .squareThumbnail(size: 24, border: 2, cornerRadius: 6),
                                          .resize(width: 96, height: 64, mode: .scaleToFill), .crop(x: 4.5, y: 2.25, width: 19.5, height: 13.5)]
        for op in operations {
            let placement = try OracleGeometry.placement(of: op, width: 48, height: 32)
            func render(_ hidden: HiddenColours, _ reduction: ChannelReduction) -> OracleImage {
                Oracle.render(canvasWidth: 48, canvasHeight: 32, placement: placement) { x, y in
                    reduction.apply(scene.color(x: x, y: y, width: 48, height: 32, hidden: hidden))
                }
            }
            let magentaGreen = render(.pair, .none), greenMagenta = render(HiddenColours.pair.twin, .none)
            #expect(magentaGreen.bitmap16() == greenMagenta.bitmap16(), "\(op.id)")
            #expect(magentaGreen.pixels == greenMagenta.pixels, "\(op.id)")
            #expect(render(.single, .binaryAlpha).bitmap16() == render(HiddenColours.single.twin, .binaryAlpha).bitmap16(), "\(op.id)")
            #expect(render(.gray, .gray).bitmap16() == render(HiddenColours.gray.twin, .gray).bitmap16(), "\(op.id)")
        }
    }

    @Test("exactly the encodings that can keep straight colour under α = 0 are declared to, in quick")
    func declaredEncodings() {
        let quick = CorpusProfile.quick.cases
        let storing = Set(quick.filter(\.storesHiddenColour).map(\.encoding.id))
        #expect(storing == Self.keeping.subtracting(["png-rgba8-adam7"]), "png-rgba8-adam7 stores thinStrokes, which is opaque")
        let declaring = Set(EncodingCatalog.all.filter(\.keepsHiddenColour).map(\.id))
        #expect(declaring == Self.keeping)
        // Premultiplied TIFF, over-blended APNG and GIF animations cannot deliver it.
        for id in ["tiff-rgba8-assoc", "tiff-rgba16-assoc", "apng-over-none", "gif-anim-background", "png-rgb8", "bmp-565"] {
            #expect(EncodingCatalog.named(id)?.keepsHiddenColour == false, "\(id)")
        }
    }

    @Test("every committed source that can store colour under α = 0 stores the documented hidden colour at every transparent pixel")
    func committedSourcesStoreHiddenColour() throws {
        let manifest = try Self.committedManifest()
        let cases = CorpusProfile.quick.cases
        var checked = 0
        for record in manifest.cases where Self.keeping.contains(record.encoding) {
            let c = try #require(cases.first { $0.id == record.id })
            guard c.scene.hasAlpha || record.animation != nil else { continue }
            // The layout each storage must use (the HiddenColours notes).
            let expectedStyle: HiddenColours.Style
            if record.reduction == "gray" {
                expectedStyle = .gray
            } else if record.encoding == "gif-transparent" || record.id == "png-palette1-trns-stencil-48x32"
                        || record.id == "png-palette2-trns-stepEdges-48x32" {
                expectedStyle = .single
            } else {
                expectedStyle = .pair
            }
            #expect(c.hiddenColours.style == expectedStyle, "\(record.id)")
            // A tagged file hides the colour as it shows it: rendered in sRGB through its statement.
            let image = try SRGBRendering.render(Self.decodeCommitted(record.file)).oriented()
            var counts: [HiddenRGB: Int] = [:]
            var wrong: [String] = []
            for (k, bitmap) in Self.bitmaps(image).enumerated() {
                for y in 0..<bitmap.height {
                    let row = bitmap.straightRGBARow(y)
                    for x in 0..<bitmap.width where row[x * 4 + 3] == 0 {
                        var stored = HiddenRGB(red: Self.code(row[x * 4]), green: Self.code(row[x * 4 + 1]), blue: Self.code(row[x * 4 + 2]))
                        // A tagged file's colour is rounded in its own space and again in sRGB: near
                        // sRGB's black a code of the wide space is several sRGB codes (within 6 here).
                        if record.colours != nil, let near = [HiddenRGB.magenta, .green, .white, .black].first(where: { c in
                            abs(c.red - stored.red) <= 6 && abs(c.green - stored.green) <= 6 && abs(c.blue - stored.blue) <= 6
                        }) { stored = near }
                        counts[stored, default: 0] += 1
                        let expected: HiddenRGB?
                        if let animation = record.animation {
                            // Canvas k ≥ 1: frame k's hole (left half first) shows the hidden colour;
                            // disposal BACKGROUND clears earlier regions to transparent black (APNG spec).
                            // Canvas k shows the hole of frame j ≤ k (left half first) unless frame
                            // j < k was disposed to the background: transparent black (APNG spec).
                            let holes = (0..<k).map { $0 + 1 }.filter { j in
                                let r = animation.regions[j]
                                return x >= r[0] + r[2] / 4 && x < r[0] + 3 * r[2] / 4 && y >= r[1] + r[3] / 4 && y < r[1] + 3 * r[3] / 4
                            }
                            let background = animation.disposals.contains("background")
                            if let j = holes.last {
                                let r = animation.regions[j]
                                expected = j < k && animation.disposals[j] == "background" ? .black : (x - r[0] < r[2] / 2 ? .magenta : .green)
                            } else {
                                expected = background ? .black : nil
                            }
                        } else {
                            expected = Self.documentedColour(scene: record.scene, style: expectedStyle, x: x, y: y,
                                                             w: record.displayWidth, h: record.displayHeight)
                        }
                        if stored != expected, wrong.count < 3 { wrong.append("frame \(k) (\(x), \(y)): \(stored), documented \(expected.map(\.description) ?? "none")") }
                    }
                }
            }
            #expect(wrong.isEmpty, "\(record.id): \(wrong)")
            let loud = counts.filter { $0.key != .black }.values.reduce(0, +)
            #expect(loud > 0, "\(record.id): no loud colour under α = 0: \(counts)")
            if expectedStyle == .pair {
                #expect((counts[.magenta] ?? 0) > 0 && (counts[.green] ?? 0) > 0, "\(record.id): both sides present: \(counts)")
            }
            checked += 1
        }
        // 31 sources: png 17 (rgba8 ×4, rgba16 ×2, graya8 ×2, graya16, 4 palettes, 3 APNG, the tagged RGBA), gif 1, tiff 5,
        // bmp 2, webp 3 (lossless RGBA softAlpha, the two unblended animations), heif 1 (lossless RGBA softAlpha), avif 2
        // (lossless RGBA stepEdges, 12-bit RGBA softAlpha); the oriented RGBA AVIFs show the opaque orientation scene.
        #expect(checked == 31)
    }

    @Test("the soft-alpha source hides magenta above and green below, never black")
    func softAlphaExample() throws {
        let image = try Self.decodeCommitted("sources/png-rgba8-softAlpha-48x32.png")
        let reading = HiddenColourReading(image)
        #expect(reading.transparentPixels[.black] == nil)
        // The disc leaves the top-left corner and the bottom-left corner transparent.
        let top = image.bitmap.straightRGBARow(0), bottom = image.bitmap.straightRGBARow(31)
        #expect(top[3] == 0 && Self.code(top[0]) == 255 && Self.code(top[1]) == 0 && Self.code(top[2]) == 255)
        #expect(bottom[3] == 0 && Self.code(bottom[0]) == 0 && Self.code(bottom[1]) == 255 && Self.code(bottom[2]) == 0)
        #expect(reading.count(of: [.magenta, .green]) == reading.transparentCount)
    }

    @Test("each twin differs from its source only under α = 0: every visible pixel identical, some hidden pixel different")
    func twinsDifferOnlyUnderZeroAlpha() throws {
        let manifest = try Self.committedManifest()
        let cases = CorpusProfile.quick.cases
        var twins = 0
        for record in manifest.cases {
            let c = try #require(cases.first { $0.id == record.id })
            #expect((record.hiddenTwin != nil) == c.storesHiddenColour, "\(record.id)")
            guard let twinPath = record.hiddenTwin else { continue }
            let dot = try #require(record.file.lastIndex(of: "."))
            #expect(twinPath == record.file[..<dot] + ".twin" + record.file[dot...])
            let source = try Self.decodeCommitted(record.file), twin = try Self.decodeCommitted(twinPath)
            #expect(source.width == twin.width && source.height == twin.height && source.orientation == twin.orientation)
            #expect(source.frameCount == twin.frameCount && PixelFormatRecord(source.format) == PixelFormatRecord(twin.format))
            var visibleDifferences = 0, hiddenDifferences = 0
            for (a, b) in zip(Self.bitmaps(source), Self.bitmaps(twin)) {
                for y in 0..<a.height {
                    let ra = a.straightRGBARow(y), rb = b.straightRGBARow(y)
                    for x in 0..<a.width {
                        let i = x * 4
                        if ra[i + 3] != rb[i + 3] { visibleDifferences += 1; continue }
                        let same = ra[i] == rb[i] && ra[i + 1] == rb[i + 1] && ra[i + 2] == rb[i + 2]
                        if ra[i + 3] > 0 { if !same { visibleDifferences += 1 } } else if !same { hiddenDifferences += 1 }
                    }
                }
            }
            #expect(visibleDifferences == 0, "\(record.id): \(visibleDifferences) pixels with α > 0 differ")
            #expect(hiddenDifferences > 0, "\(record.id): the twin hides the same colour")
            twins += 1
        }
        // The 24 of committedSourcesStoreHiddenColour, the tagged RGBA PNG, the lossless RGBA WebP's softAlpha, the
        // two unblended WebP animations, and the three HEIF/AVIF sources with straight alpha.
        #expect(twins == 31)
    }

    @Test("corpus --stats counts the sources carrying hidden colour per container, read from the files")
    func statsCountHiddenColour() {
        let stats = CorpusStats(QuickCorpus.generated)
        // Arithmetic from the quick plan: see committedSourcesStoreHiddenColour, the tagged RGBA PNG and the
        // lossless RGBA WebP's softAlpha (its orientation scene is opaque) and the two unblended WebP animations.
        #expect(stats.hiddenColourSources == ["png": 17, "gif": 1, "tiff": 5, "bmp": 2, "webp": 3, "heif": 1, "avif": 2])
        #expect(stats.hiddenTwins == ["png": 17, "gif": 1, "tiff": 5, "bmp": 2, "webp": 3, "heif": 1, "avif": 2])
        // Files with α = 0 pixels but no colour there: an over-blended APNG cleared by disposal,
        // a GIF animation, and the two premultiplied TIFFs; for WebP the over-blended animation cleared by disposal;
        // the premultiplied HEIC.
        #expect(stats.transparentSources == ["png": 18, "gif": 2, "tiff": 7, "bmp": 2, "webp": 4, "heif": 2, "avif": 2])
        #expect(stats.text.contains("hidden colour"))
        #expect(stats.text.contains("tiff  5 of 7, 5 twins"))
    }

    @Test("the halo scene: hard, soft and translucent edges of white, black and blue, by arithmetic")
    func haloScene() throws {
        let image = Oracle.render(canvasWidth: 48, canvasHeight: 32, placement: .identity(width: 48, height: 32)) { x, y in
            Scene.halo.color(x: x, y: y, width: 48, height: 32)
        }
        // Bars at x ∈ [4, 12), [20, 28), [36, 44); top margin y < 4; hard to y = 16; soft to 24; translucent below.
        for (bar, x) in [(0, 8), (1, 24), (2, 40)] {
            let hard = image.encodedPixel(x: x, y: 10), translucent = image.encodedPixel(x: x, y: 28)
            let colour = [(255, 255, 255), (0, 0, 0), (0, 0, 255)][bar]
            #expect(hard.alpha == 1 && Self.code(hard.red) == colour.0 && Self.code(hard.green) == colour.1 && Self.code(hard.blue) == colour.2)
            #expect(abs(translucent.alpha - [0.3, 0.2, 0.1][bar]) < 1e-12)
            #expect(image.encodedPixel(x: x, y: 2).alpha == 0)
        }
        // Soft edge: alpha 1 − d/3 averaged over each pixel left of x = 4: 5/6, 1/2, 1/6, then 0.
        for (x, alpha) in [(3, 5.0 / 6), (2, 0.5), (1, 1.0 / 6), (0, 0)] {
            #expect(abs(image.encodedPixel(x: x, y: 20).alpha - alpha) < 1e-12, "x = \(x)")
        }
        #expect(image.encodedPixel(x: 3, y: 10).alpha == 0 && image.encodedPixel(x: 12, y: 10).alpha == 0)
        #expect(Scene.halo.hasAlpha && Scene.halo.hasPartialAlpha && !Scene.halo.isFlat)
    }
}
