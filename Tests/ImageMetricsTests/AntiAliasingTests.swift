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

    /// The rule as pixelmatch's `antialiased` and `hasManySiblings` state it, pixel by pixel on
    /// the samples (no bands, no packing): the reference the banded count must equal.
    enum Literal {
        static func same(_ v: ValueImage, _ i: Int, _ j: Int) -> Bool {
            (0..<v.channels).allSatisfy { v.sample(i * v.channels + $0) == v.sample(j * v.channels + $0) }
        }
        static func brightness(_ v: ValueImage, _ i: Int) -> Double {
            let n = v.channels
            var rgb = (0..<3).map { Double(v.sample(i * n + $0)) }
            if n == 4 && v.sample(i * n + 3) < 65535 {
                let alpha = Double(v.sample(i * n + 3)) / 65535
                rgb = rgb.map { 65535 + ($0 - 65535) * alpha }
            }
            return rgb[0] * 0.29889531 + rgb[1] * 0.58662247 + rgb[2] * 0.11448223
        }
        static func siblings(_ v: ValueImage, _ x: Int, _ y: Int) -> Bool {
            let x0 = max(x - 1, 0), x2 = min(x + 1, v.width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, v.height - 1)
            var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
            for nx in x0...x2 { for ny in y0...y2 where (nx != x || ny != y) && same(v, y * v.width + x, ny * v.width + nx) { equal += 1 } }
            return equal > 2
        }
        static func antialiased(_ v: ValueImage, _ x: Int, _ y: Int, _ other: ValueImage) -> Bool {
            let x0 = max(x - 1, 0), x2 = min(x + 1, v.width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, v.height - 1)
            var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
            var darkest = 0.0, brightest = 0.0, dark = (x, y), bright = (x, y)
            let i = y * v.width + x
            for nx in x0...x2 {
                for ny in y0...y2 where nx != x || ny != y {
                    let j = ny * v.width + nx
                    let delta = same(v, i, j) ? 0 : brightness(v, i) - brightness(v, j)
                    if delta == 0 { equal += 1; if equal > 2 { return false } }
                    else if delta < brightest { brightest = delta; bright = (nx, ny) }
                    else if delta > darkest { darkest = delta; dark = (nx, ny) }
                }
            }
            guard brightest != 0 && darkest != 0 else { return false }
            return (siblings(v, dark.0, dark.1) && siblings(other, dark.0, dark.1))
                || (siblings(v, bright.0, bright.1) && siblings(other, bright.0, bright.1))
        }
        static func counts(_ e: ValueImage, _ a: ValueImage, edges: [Double]) -> [Int] {
            var counts = edges.map { _ in 0 }
            for y in 0..<e.height {
                for x in 0..<e.width {
                    let i = (y * e.width + x) * e.channels
                    let ea = e.channels == 4 ? Int(e.sample(i + 3)) : 65535, aa = e.channels == 4 ? Int(a.sample(i + 3)) : 65535
                    var m = abs(aa - ea)
                    if ea > 0 || aa > 0 { for c in 0..<3 { m = max(m, abs(Int(a.sample(i + c)) - Int(e.sample(i + c)))) } }
                    guard Double(m) > edges[0] * 257, !antialiased(e, x, y, a), !antialiased(a, x, y, e) else { continue }
                    for (k, edge) in edges.enumerated() where Double(m) > edge * 257 { counts[k] += 1 }
                }
            }
            return counts
        }
    }

    /// A 97 × 203 picture of few levels (so flat runs, slopes and ties are common), with an
    /// alpha channel of three levels when asked; `seed` varies it.
    static func posterised(seed: UInt64, alpha: Bool) -> ValueImage {
        var state = seed
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let w = 97, h = 203, n = alpha ? 4 : 3
        var samples: [UInt16] = []
        for y in 0..<h {
            for x in 0..<w {
                let base = ((x / 5 + y / 7) % 4) * 60 + Int(next() % 3) * (next() % 9 == 0 ? 20 : 0)
                for c in 0..<3 { samples.append(UInt16(min(255, base + c * 10)) * 257) }
                if alpha { samples.append([0, 32896, 65535][Int(next() % 7 == 0 ? next() % 2 : 2)]) }
            }
        }
        return ValueImage(width: w, height: h, channels: n, samples: samples, sourceBitsPerComponent: 8)
    }

    @Test("the banded count equals the rule applied literally, pixel by pixel, across band boundaries, with and without alpha",
          arguments: [(1 as UInt64, false), (2, false), (3, true), (4, true)])
    func bandedEqualsLiteral(_ seed: UInt64, _ alpha: Bool) {
        let e = Self.posterised(seed: seed, alpha: alpha), a = Self.posterised(seed: seed &+ 100, alpha: alpha)
        let literal = Literal.counts(e, a, edges: AntiAliasing.edges)
        #expect(AntiAliasing.nonAntiAliasedCounts(e, a, edges: AntiAliasing.edges) == literal)
        // The pictures exercise both outcomes: some differing pixels are forgiven, some counted.
        let differing = (0..<(e.width * e.height)).filter { i in
            (0..<e.channels).contains { e.sample(i * e.channels + $0) != a.sample(i * e.channels + $0) } }.count
        #expect(literal[0] > 0 && literal[0] < differing)
    }
}

