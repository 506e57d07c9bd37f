import Testing
import ImageCore
import ImageMetrics

/// `exact.over.N.nonAA`: differing pixels that pixelmatch's anti-aliasing detector (pixelmatch
/// `index.js`, after Vyšniauskas 2009) does not explain. Every expected count below is worked
/// by hand from the detector's three rules (see ``AntiAliasing``) on 8×8 images.
@Suite("anti-aliasing tolerance")
struct AntiAliasingTests {
    /// An 8×8 RGB image whose pixel (x, y) is grey `level(x, y)`.
    static func grey(_ level: (Int, Int) -> UInt8) throws -> ComparedImage {
        var bytes: [UInt8] = []
        for y in 0..<8 { for x in 0..<8 { let v = level(x, y); bytes += [v, v, v] } }
        return ComparedImage(image: Image(bitmap: try Bitmap(width: 8, height: 8, format: .rgb8, bytes: bytes)), name: "8×8")
    }

    static func compare(_ e: ComparedImage, _ a: ComparedImage) -> Comparison {
        Comparison(expected: e, actual: a, options: ComparisonOptions(diagnose: false, structural: false))
    }

    @Test("an anti-aliased edge drawn with another grey: its 8 pixels differ by 28 and are all anti-aliasing (nonAA 0)")
    func antiAliasedEdgeRedrawn() throws {
        // Columns 0–2 black, column 3 the edge's grey, columns 4–7 white. Each column-3 pixel has
        // at most 2 neighbours of its own grey (above and below; a border pixel counts 1 plus
        // one), a darker (black) and a brighter (white) neighbour, and the first black neighbour
        // has ≥ 3 black neighbours in both images: anti-aliased.
        let e = try Self.grey { x, _ in x < 3 ? 0 : (x == 3 ? 128 : 255) }
        let a = try Self.grey { x, _ in x < 3 ? 0 : (x == 3 ? 100 : 255) }
        let c = Self.compare(e, a)
        #expect(c.value("exact.pixels") == 8 && c.value("exact.max") == 28)
        #expect(c.value("exact.over.5") == 8)
        #expect(c.value("exact.over.1.nonAA") == 0 && c.value("exact.over.5.nonAA") == 0)
        let gate = try GateExpression("exact.over.5.nonAA <= 0")
        #expect(try gate.evaluate { c.value($0) }.passed)
        #expect(try !GateExpression("exact.over.5 <= 0").evaluate { c.value($0) }.passed)
    }

    @Test("one pixel changed in a flat area is not anti-aliasing: counted (|Δ| 72: over 50, not over 100)")
    func isolatedPixel() throws {
        // Expected (4, 4) has 8 equal neighbours (> 2: flat); actual (4, 4) = 200 has only darker
        // neighbours (no brighter one): neither is anti-aliased.
        let e = try Self.grey { _, _ in 128 }
        let a = try Self.grey { x, y in x == 4 && y == 4 ? 200 : 128 }
        let c = Self.compare(e, a)
        #expect(c.value("exact.over.5.nonAA") == 1 && c.value("exact.over.50.nonAA") == 1 && c.value("exact.over.100.nonAA") == 0)
    }

    @Test("a hard edge moved by one pixel is not anti-aliasing: its 8 moved pixels count")
    func hardEdgeShift() throws {
        // Expected columns 0–3 black, 4–7 white; actual 0–4 black. Column 4: white in expected
        // with ≥ 3 white neighbours, black in actual with ≥ 3 black neighbours: flat both times.
        let e = try Self.grey { x, _ in x < 4 ? 0 : 255 }
        let a = try Self.grey { x, _ in x < 5 ? 0 : 255 }
        let c = Self.compare(e, a)
        #expect(c.value("exact.pixels") == 8)
        #expect(c.value("exact.over.5.nonAA") == 8 && c.value("exact.over.100.nonAA") == 8)
    }

    @Test("the detector's rules one by one on the edge image: slope pixel yes, flat pixel no, one-sided pixel no")
    func rules() throws {
        let edge = ValueImage(try Self.grey { x, _ in x < 3 ? 0 : (x == 3 ? 128 : 255) }.image, withAlpha: false)
        #expect(AntiAliasing.isAntiAliased(edge, 3, 4, other: edge))
        #expect(AntiAliasing.isAntiAliased(edge, 3, 0, other: edge), "a border pixel starts with one equal neighbour, and has one more: 2, still an edge")
        #expect(!AntiAliasing.isAntiAliased(edge, 1, 4, other: edge), "inside the black area: 8 equal neighbours")
        #expect(!AntiAliasing.isAntiAliased(edge, 2, 4, other: edge), "black beside the grey: 5 equal neighbours")
        // If the flat areas changed in the other image, the slope no longer ends in unchanged flat
        // areas: grey 31x + 7y (mod 256) gives every pixel neighbours that differ by ±7, ±24, ±31 or
        // ±38, so no pixel of it has an equal neighbour.
        let other = ValueImage(try Self.grey { x, y in UInt8((31 * x + 7 * y) % 256) }.image, withAlpha: false)
        #expect(!AntiAliasing.isAntiAliased(edge, 3, 4, other: other))
    }
}
