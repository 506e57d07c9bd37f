import Testing
import ImageCore
import ImageResize

/// The declared rounding rule, checked against exact rationals.
@Suite("Output geometry")
struct OutputGeometryTests {
    /// The exact rational `a·b/c` rounded half up, by a route independent of the implementation:
    /// compare 2·remainder with the divisor.
    static func roundHalfUp(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let q = (a * b) / c, r = (a * b) % c
        return max(1, 2 * r >= c ? q + 1 : q)
    }

    @Test("the documents' cases: 1000×333, 11×5 and 1×150")
    func documentedCases() {
        #expect(OutputGeometry.aspectFit(width: 1000, height: 333, boxWidth: 100, boxHeight: 100) == (100, 33))
        #expect(OutputGeometry.aspectFit(width: 11, height: 5, boxWidth: 100, boxHeight: 100) == (100, 45))
        #expect(OutputGeometry.aspectFit(width: 1, height: 150, boxWidth: 128, boxHeight: 128) == (1, 128))
        #expect(OutputGeometry.maxPixelSize(width: 1, height: 150, limit: 128) == (1, 128))
        #expect(OutputGeometry.maxPixelSize(width: 100, height: 50, limit: 128) == (100, 50), "never enlarges")
    }

    /// Ten boxes people use: thumbnails, avatars, screens.
    static let boxes: [(Int, Int)] = [(100, 100), (128, 128), (150, 150), (200, 200), (256, 256),
                                      (320, 240), (640, 480), (800, 600), (1024, 768), (1920, 1080)]

    @Test("a sweep of sizes 1…3000 fits every box exactly: one side equals the box, the other is the rounded rational")
    func sweep() {
        var checked = 0
        for w in stride(from: 1, through: 3000, by: 7) {
            for h in stride(from: 1, through: 3000, by: 11) {
                for (bw, bh) in Self.boxes {
                    let fit = OutputGeometry.aspectFit(width: w, height: h, boxWidth: bw, boxHeight: bh)
                    #expect(fit.width >= 1 && fit.height >= 1)
                    #expect(fit.width <= bw && fit.height <= bh)
                    if w * bh >= h * bw {
                        #expect(fit == (bw, Self.roundHalfUp(h, bw, w)))
                    } else {
                        #expect(fit == (Self.roundHalfUp(w, bh, h), bh))
                    }
                    let cover = OutputGeometry.aspectCover(width: w, height: h, boxWidth: bw, boxHeight: bh)
                    #expect(cover.width >= bw && cover.height >= bh)
                    checked += 1
                }
            }
        }
        #expect(checked > 100_000)
    }

    @Test("aspect-fill source rectangles have the box's aspect ratio and honour the anchor")
    func fillSource() {
        let centre = OutputGeometry.aspectFillSource(width: 400, height: 200, boxWidth: 100, boxHeight: 100)
        #expect(centre == (100, 0, 200, 200))
        let left = OutputGeometry.aspectFillSource(width: 400, height: 200, boxWidth: 100, boxHeight: 100, anchor: (0, 0.5))
        #expect(left.x == 0)
        let tall = OutputGeometry.aspectFillSource(width: 90, height: 300, boxWidth: 30, boxHeight: 20, anchor: (0.5, 1))
        #expect(tall.width == 90 && tall.height == 60 && tall.y == 240)
    }
}

@Suite("Shrink-on-load planning")
struct ShrinkOnLoadTests {
    @Test("the DCT scale is the largest that still leaves at least the target size")
    func denominator() {
        // 6000×4000 → fit 640: 640×427; 6000/8 = 750 ≥ 640 and 4000/8 = 500 ≥ 427 → 1/8.
        #expect(MaxPixelSizeThumbnail.scaleDenominator(width: 6000, height: 4000, target: (640, 427)) == 8)
        // 2000×1500 → 640×480: /4 gives 500 < 640, /2 gives 1000 ≥ 640 → 1/2.
        #expect(MaxPixelSizeThumbnail.scaleDenominator(width: 2000, height: 1500, target: (640, 480)) == 2)
        // Odd sizes use libjpeg's ceil(w/d): 1281/2 → 641 ≥ 641.
        #expect(MaxPixelSizeThumbnail.scaleDenominator(width: 1281, height: 10, target: (641, 5)) == 2)
        #expect(MaxPixelSizeThumbnail.scaleDenominator(width: 100, height: 100, target: (100, 100)) == 1)
    }
}
