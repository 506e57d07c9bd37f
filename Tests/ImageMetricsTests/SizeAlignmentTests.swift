import Testing
import ImageCore
import ImageMetrics

/// `--size-policy align`: two images of different sizes lined up by search. Every case is built
/// by cutting, padding or scaling one textured picture, so the right offset, scale and words are
/// known from the construction, and the overlap of an exact crop is identical by value.
@Suite("size alignment")
struct SizeAlignmentTests {
    /// A `width` × `height` RGB picture whose every pixel differs from its neighbours (a hash of
    /// x and y), so only the true offset lines two cuts of it up.
    static func picture(_ width: Int, _ height: Int) -> [[UInt8]] {
        (0..<height).map { y in
            (0..<width).flatMap { x -> [UInt8] in
                let h = (x &* 73_856_093) ^ (y &* 19_349_663)
                return [UInt8(truncatingIfNeeded: h), UInt8(truncatingIfNeeded: h >> 8), UInt8(truncatingIfNeeded: x * 3 + y)]
            }
        }
    }

    static func image(_ rows: [[UInt8]]) throws -> Image {
        Image(bitmap: try Bitmap(width: rows[0].count / 3, height: rows.count, format: .rgb8, bytes: rows.flatMap { $0 }))
    }

    static func values(_ rows: [[UInt8]]) throws -> ValueImage { ValueImage(try image(rows), withAlpha: false) }

    /// Rows `ys` and columns `xs` of `rows`.
    static func cut(_ rows: [[UInt8]], _ xs: Range<Int>, _ ys: Range<Int>) -> [[UInt8]] {
        ys.map { Array(rows[$0][(xs.lowerBound * 3)..<(xs.upperBound * 3)]) }
    }

    /// `rows` with `n` black columns added on the left and `m` black rows on top.
    static func padded(_ rows: [[UInt8]], left n: Int, top m: Int) -> [[UInt8]] {
        let width = rows[0].count / 3 + n
        return Array(repeating: [UInt8](repeating: 0, count: width * 3), count: m) + rows.map { [UInt8](repeating: 0, count: n * 3) + $0 }
    }

    @Test("crops at each edge, a centred crop and padding are found at their offsets and named by edge and count")
    func offsetsNamed() throws {
        let p = Self.picture(64, 48), e = try Self.values(p)
        let cases: [([[UInt8]], Int, Int, String)] = [
            (Self.cut(p, 0..<64, 0..<47), 0, 0, "1 row cropped at the bottom"),
            (Self.cut(p, 0..<64, 1..<48), 0, 1, "1 row cropped at the top"),
            (Self.cut(p, 2..<64, 0..<48), 2, 0, "2 columns cropped on the left"),
            (Self.cut(p, 6..<58, 4..<44), 6, 4, "4 rows cropped at the top and the bottom, 6 columns cropped on each side"),
            (Self.padded(p, left: 3, top: 0), -3, 0, "3 columns added on the left"),
            (Self.padded(p, left: 0, top: 2), 0, -2, "2 rows added at the top"),
            (Self.padded(Self.cut(p, 0..<61, 0..<48), left: 2, top: 0), -2, 0,
             "shifted 2 px right (2 columns added on the left, 3 columns cropped on the right)"),
        ]
        for (rows, dx, dy, words) in cases {
            let found = try #require(SizeAlignment.find(expected: e, actual: try Self.values(rows)), "\(words): nothing found")
            #expect(found.kind == .offset && found.dx == dx && found.dy == dy, "\(words): found \(found.dx),\(found.dy)")
            #expect(found.name == words)
            #expect(found.meanError == 0, "\(words): the overlap is an exact cut, mean |Δ| \(found.meanError)")
        }
    }

    @Test("a 2× nearest-neighbour enlargement and a 2×2 box reduction are scales 2 and ½, with no error for the exact ones")
    func scalesNamed() throws {
        let p = Self.picture(40, 30)
        let doubled = p.flatMap { row in Array(repeating: row.chunked3.flatMap { $0 + $0 }, count: 2) }
        let found = try #require(SizeAlignment.find(expected: try Self.values(p), actual: try Self.values(doubled)))
        #expect(found.kind == .scale && found.scale == 2 && found.name == "scaled 2×" && found.meanError == 0)
        let halved = try #require(SizeAlignment.find(expected: try Self.values(doubled), actual: try Self.values(p)))
        #expect(halved.kind == .scale && halved.scale == 0.5 && halved.name == "scaled ½×" && halved.meanError == 0)
    }

    @Test("an unrelated picture of another size has no alignment")
    func unrelatedHasNone() throws {
        let other = Self.picture(50, 40).map { $0.map { $0 ^ 0x5A } }
        #expect(SizeAlignment.find(expected: try Self.values(Self.picture(64, 48)), actual: try Self.values(other)) == nil)
    }

    @Test("under align, the judge keeps the verdict 'different sizes' and measures the overlap: an exact crop's overlap is identical")
    func judgeMeasuresOverlap() throws {
        let p = Self.picture(64, 48)
        let e = ComparedImage(image: try Self.image(p), name: "e"), a = ComparedImage(image: try Self.image(Self.cut(p, 0..<64, 0..<47)), name: "a")
        var judge = Judge(gate: nil)
        judge.sizePolicy = .align
        let j = judge.judge(expected: e, actual: a)
        #expect(j.verdict == .differentSizes)
        #expect(j.alignment?.name == "1 row cropped at the bottom")
        #expect(j.overlap?.identical == true && j.overlap?.value("exact.pixels") == 0)
        #expect(j.overlap?.expected.displayHeight == 47)
        // The lab's default: the verdict alone.
        let plain = Judge(gate: nil).judge(expected: e, actual: a)
        #expect(plain.alignment == nil && plain.overlap == nil)
    }
}

private extension Array where Element == UInt8 {
    /// The RGB triples of a row.
    var chunked3: [[UInt8]] { Swift.stride(from: 0, to: count, by: 3).map { Array(self[$0..<($0 + 3)]) } }
}
