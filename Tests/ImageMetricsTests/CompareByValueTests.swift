import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageMetrics

/// The compare-by-value rule and the three alpha views.
@Suite("compare by value")
struct CompareByValueTests {
    static func compare(_ e: Image, _ a: Image) -> Comparison {
        Comparison(expected: ComparedImage(image: e, name: "e"), actual: ComparedImage(image: a, name: "a"), options: ComparisonOptions(diagnose: false, structural: false))
    }

    static func gradient16() throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<20 {
            for x in 0..<30 {
                for c in 0..<3 {
                    let v: Int = (x * 2111 + y * 977 + c * 5003) % 65536
                    bytes.append(UInt8(v >> 8)); bytes.append(UInt8(v & 0xFF))
                }
            }
        }
        return try Bitmap(width: 30, height: 20, format: .rgb16, bytes: bytes)
    }

    @Test("an 8-bit image equals its exact 16-bit copy")
    func deepCopyIsEqual() throws {
        var bytes: [UInt8] = []
        for i in 0..<(16 * 9 * 3) { bytes.append(UInt8((i * 37) % 256)) }
        let b8 = try Bitmap(width: 16, height: 9, format: .rgb8, bytes: bytes)
        let c = Self.compare(Image(bitmap: b8), Image(bitmap: try b8.converted(to: .rgb16)))
        #expect(c.identical)
        #expect(c.value("exact.max") == 0)
        #expect(c.metadataDifferences.contains { $0.field == "bits per component" })
    }

    @Test("a 16-bit image and its 8-bit copy are compared at 16-bit precision: |Δ| ≤ 128/65535, in 8-bit units ≤ 0.498")
    func sixteenBitPrecision() throws {
        let deep = try Self.gradient16()
        let c = Self.compare(Image(bitmap: deep), Image(bitmap: try deep.converted(to: .rgb8)))
        #expect(!c.identical)
        let max = try #require(c.value("exact.max"))
        // Rounding 16 → 8 bits moves a value by at most half an 8-bit step: 128.5/65535·255 → ≤ 128/257 in 8-bit units.
        #expect(max > 0 && max <= 128.0 / 257 + 1e-12)
        #expect(c.comparedAs.contains("16-bit"))
        #expect(c.value("exact.over.1") == 0)
    }

    @Test("a palette PNG and its RGB copy are equal")
    func paletteEqualsRGB() throws {
        var entries: [Palette.Entry] = []
        for i in 0..<8 {
            let alpha: UInt8 = i == 0 ? 0 : 255
            entries.append(Palette.Entry(red: UInt8(i * 30), green: UInt8(255 - i * 30), blue: 77, alpha: alpha))
        }
        var idx: [UInt8] = []
        for i in 0..<(12 * 7) { idx.append(UInt8(i % 8)) }
        let indexed = try Bitmap(width: 12, height: 7, format: PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: 8), bytes: idx)
        let png = try ImageCodecs.decode(ImageCodecs.encode(Image(bitmap: indexed), as: .png))
        let rgba = try ImageCodecs.decode(ImageCodecs.encode(Image(bitmap: try indexed.converted(to: .rgba8)), as: .png))
        #expect(png.format.isIndexed && !rgba.format.isIndexed)
        let c = Self.compare(png, rgba)
        #expect(c.identical, "\(c.exact.map { "\($0)" } ?? "")")
    }

    @Test("images are compared as displayed: a stored-rotated image with its EXIF orientation equals the upright one")
    func orientationApplied() throws {
        var bytes: [UInt8] = []
        for i in 0..<(6 * 4 * 3) { bytes.append(UInt8((i * 11) % 256)) }
        let upright = try Bitmap(width: 6, height: 4, format: .rgb8, bytes: bytes)
        let stored = Orientation.right.inverse.apply(to: upright)
        let c = Self.compare(Image(bitmap: upright), Image(bitmap: stored, orientation: .right))
        #expect(c.identical)
        #expect(c.notes.contains { $0.contains("orientation applied") })
        #expect(c.metadataDifferences.contains { $0.field == "orientation" })
        // The note names where each orientation was read: a HEIF's irot/imir is not EXIF.
        var heif = ImageMetadata()
        heif.orientationSource = .heifTransform
        let named = Self.compare(Image(bitmap: upright), Image(bitmap: stored, orientation: .right, metadata: heif))
        #expect(named.notes.contains("orientation applied: compared as displayed (expected orientation 1, actual 6 from HEIF irot/imir)"),
                "\(named.notes)")
    }

    @Test("colour changed under α = 0 is hidden, not visible error (reference pair P21)")
    func hiddenColour() throws {
        let pair = try #require(Reference.pairs.first { $0.id == "P21" })
        let c = try Reference.comparison(pair)
        // base_rgba64x48: A = 0 for x < 16 and at x = 16 ((255·0)/47), so 17 columns × 48 rows are transparent;
        // hidden_rgb inverts all of them (255 − v ≠ v for integers).
        #expect(c.value("hidden.pixels") == Double(17 * 48))
        #expect(c.value("visible.max") == 0)
        #expect(c.value("alpha.max") == 0)
        #expect(c.value("exact.max") == 0)
        #expect(c.value("ssimulacra2") == 100)
    }

    @Test("alpha × ¾ is alpha error and visible error, not translucent colour error (reference pair P20)")
    func alphaScaled() throws {
        let pair = try #require(Reference.pairs.first { $0.id == "P20" })
        let c = try Reference.comparison(pair)
        #expect(c.value("alpha.max") == 64)  // README table: alpha_max = 64 (A = 255 → 191)
        #expect(c.value("translucent.max") == 0)  // straight colour unchanged
        #expect((c.value("visible.max") ?? 0) > 0)
        #expect(c.alphaViews?.visible.background != "none")
    }

    @Test("different sizes leave pixel metrics undefined and say so")
    func differentSizes() throws {
        let a = try Bitmap(width: 10, height: 10, format: .rgb8), b = try Bitmap(width: 12, height: 10, format: .rgb8)
        let c = Self.compare(Image(bitmap: a), Image(bitmap: b))
        #expect(!c.sameSize)
        #expect(c.value("psnr") == nil && c.metrics["psnr"]?.missingReason == "sizes differ")
    }

    @Test("the same inputs give the same result twice (determinism)")
    func deterministic() throws {
        let pair = try #require(Reference.pairs.first { $0.id == "P17" })
        #expect(try Reference.comparison(pair) == (try Reference.comparison(pair)))
    }

    /// A float sample with no value (NaN, as a float TIFF may store) is read as 0, like a
    /// negative one; the comparison does not stop on it.
    @Test("NaN float samples read as 0")
    func nanReadsAsZero() throws {
        let format = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true)
        // Two pixels, host (little-endian) order: (NaN, 0.5, 1) and (−1, 0, 2).
        let values: [Float] = [.nan, 0.5, 1, -1, 0, 2]
        let bytes = values.flatMap { v -> [UInt8] in let b = v.bitPattern; return [UInt8(b & 0xFF), UInt8((b >> 8) & 0xFF), UInt8((b >> 16) & 0xFF), UInt8(b >> 24)] }
        let floats = try Bitmap(width: 2, height: 1, format: format, bytes: bytes)
        #expect(ValueImage(floats, withAlpha: false).wideSamples == [0, 32768, 65535, 0, 0, 65535])
        let eight = try Bitmap(width: 2, height: 1, format: .rgb8, bytes: [0, 128, 255, 0, 0, 255])
        // 0.5 → 32768 against 128 · 257 = 32896: 128/257 of an 8-bit code.
        #expect(abs((Self.compare(Image(bitmap: eight), Image(bitmap: floats)).value("exact.max") ?? -1) - 128.0 / 257) < 1e-9)
    }
}
