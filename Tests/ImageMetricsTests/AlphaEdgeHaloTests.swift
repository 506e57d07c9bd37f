import Testing
import ImageCore
@testable import ImageMetrics

/// The alpha-edge halo: straight colour resampled without premultiplying pulls the translucent
/// pixels of alpha edges toward the colour hidden under α = 0 (`AlphaEdgeHalo`).
@Suite("alpha-edge halo")
struct AlphaEdgeHaloTests {
    static let width = 16, height = 12

    /// Columns 0…5 opaque white, column 6 half covered (α = 128), the rest transparent; the
    /// translucent column's straight colour `edge`, the colour under α = 0 `hidden`.
    static func edge(_ edge: (Int) -> [UInt8], hidden: [UInt8]) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += x < 6 ? [255, 255, 255, 255] : x == 6 ? edge(y) + [128] : hidden + [0]
            }
        }
        return try Bitmap(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    /// Premultiplied, a 2-tap box over white and transparent gives white at α = ½; straight, it
    /// averages white with the hidden magenta: (255 + 255)/2, (255 + 0)/2 → 128, (255 + 255)/2.
    @Test("a translucent edge pulled halfway to the hidden magenta is named premultiplication by the halo")
    func namesHalo() throws {
        let expected = try Self.edge({ _ in [255, 255, 255] }, hidden: [0, 0, 0])
        let actual = try Self.edge({ _ in [255, 128, 255] }, hidden: [255, 0, 255])
        let d = Comparison(expected: ComparedImage(image: Image(bitmap: expected), name: "e"),
                           actual: ComparedImage(image: Image(bitmap: actual), name: "a"),
                           options: ComparisonOptions(structural: false)).diagnosis
        #expect(d.bugClass == "premultiplication" && d.candidate == AlphaEdgeHalo.id, "\(d.summary)")
        // s = ⟨A − E, H − E⟩ / |H − E|² = (127/255) / 1 puts the prediction on 128 exactly.
        #expect(abs((d.explained ?? 0) - 1) < 1e-9)
    }

    @Test("symmetric changes of translucent colour are not offered the halo")
    func symmetricNoiseIsNotOffered() throws {
        let expected = ValueImage(try Self.edge({ _ in [200, 200, 200] }, hidden: [0, 0, 0]), withAlpha: true)
        // Rows alternately 20 codes darker and lighter: half the pulls point away from the hidden black.
        let noisy = ValueImage(try Self.edge({ y in y % 2 == 0 ? [180, 180, 180] : [220, 220, 220] }, hidden: [0, 0, 0]), withAlpha: true)
        #expect(!AlphaEdgeHalo.pullsLikeAHalo(expected: expected, actual: noisy, hidden: HiddenColourField(noisy)))
        #expect(AlphaEdgeHalo.candidate(expected: expected, actual: noisy) == nil)
    }

    /// 200 → 120 toward black at α = 128/255: s = 80/200 = 0.4 against a full halo's
    /// 1 − α = 127/255, strength (0.4 / (127/255))² = 0.645 ≥ 0.05. 200 → 196: s = 0.02,
    /// strength 0.0016 < 0.05 — a few codes that lean toward the hidden colour are no bleed.
    @Test("the halo is offered for strong pulls toward the hidden colour, not for a few codes")
    func weakPullsAreNotOffered() throws {
        let expected = ValueImage(try Self.edge({ _ in [200, 200, 200] }, hidden: [0, 0, 0]), withAlpha: true)
        let pulled = ValueImage(try Self.edge({ _ in [120, 120, 120] }, hidden: [0, 0, 0]), withAlpha: true)
        #expect(AlphaEdgeHalo.pullsLikeAHalo(expected: expected, actual: pulled, hidden: HiddenColourField(pulled)))
        let nudged = ValueImage(try Self.edge({ _ in [196, 196, 196] }, hidden: [0, 0, 0]), withAlpha: true)
        #expect(!AlphaEdgeHalo.pullsLikeAHalo(expected: expected, actual: nudged, hidden: HiddenColourField(nudged)))
    }

    /// Pixels 0 and 4 transparent (red and blue under them), 1 and 3 visible: around pixel 2 the
    /// square of half-width 1 holds no transparent pixel, that of half-width 2 holds both.
    @Test("the hidden colour is the mean of the transparent pixels in the smallest square that holds any")
    func hiddenColour() {
        let samples: [UInt16] = [65535, 0, 0, 0,  0, 0, 0, 65535,  0, 0, 0, 30000,  0, 0, 0, 65535,  0, 0, 65535, 0]
        let field = HiddenColourField(ValueImage(width: 5, height: 1, channels: 4, samples: samples))
        #expect(field.colour(2, 0) == SIMD3(0.5, 0, 0.5))
        #expect(field.colour(1, 0) == SIMD3(1, 0, 0))
        #expect(HiddenColourField(ValueImage(width: 1, height: 1, channels: 4, samples: [0, 0, 0, 65535])).colour(0, 0) == nil)
    }

    /// A 64 × 1 row, transparent green at x = 0 only: from x = 40 the pixel squares (half-width
    /// ≤ 8: x 32…48) hold none; in blocks of 16, x = 40 is in block 2, whose square of half-width 1
    /// (blocks 1…3) holds none and of half-width 2 (blocks 0…4) holds block 0's green.
    @Test("a transparent pixel beyond the pixel squares is found through the block sums")
    func hiddenColourFarAway() {
        var samples = [UInt16](repeating: 0, count: 64 * 4)
        for x in 0..<64 { samples[x * 4 + 3] = 65535 }
        samples[1] = 65535; samples[3] = 0
        let field = HiddenColourField(ValueImage(width: 64, height: 1, channels: 4, samples: samples))
        #expect(field.colour(40, 0) == SIMD3(0, 1, 0))
        #expect(field.colour(8, 0) == SIMD3(0, 1, 0))
    }
}
