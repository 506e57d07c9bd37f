import Testing
import ImageCore
@testable import ImageMetrics

/// An image of 8-bit codes is held as the codes (one byte a sample), and every metric and the
/// diagnosis read it as the 16-bit samples c · 257: the same results as the same values held in
/// 16 bits.
@Suite("Value image storage")
struct ValueStorageTests {
    /// A deterministic 8-bit RGB(A) picture: smooth ramps, a sharp edge and noise.
    static func picture(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func noise() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 59) - 16
        }
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let edge = x > width / 2 ? 90 : 0
                for c in 0..<3 { bytes.append(UInt8(clamping: (x * 3 + y * (c + 1) + edge + noise() + 256) % 256)) }
                if channels == 4 { bytes.append(UInt8(clamping: y < height / 3 ? 255 : (x * 255) / max(1, width - 1))) }
            }
        }
        return bytes
    }

    /// The same image as 16-bit components c · 257 (big-endian).
    static func widened(_ codes: [UInt8]) -> [UInt8] {
        codes.flatMap { [$0, $0] }
    }

    static func image(_ bytes: [UInt8], width: Int, height: Int, format: PixelFormat) throws -> Image {
        Image(bitmap: try Bitmap(width: width, height: height, format: format, bytes: bytes))
    }

    @Test("a tight 8-bit RGB or RGBA bitmap is held as its own bytes; gray and padded rows as codes; 16-bit as samples")
    func storageFollowsTheSource() throws {
        let rgb = Self.picture(width: 5, height: 4, channels: 3, seed: 1)
        let held = ValueImage(try Bitmap(width: 5, height: 4, format: .rgb8, bytes: rgb), withAlpha: false)
        guard case .eightBit(let codes) = held.storage else { Issue.record("8-bit RGB held in 16 bits"); return }
        #expect(codes == rgb)
        #expect(held.wideSamples == rgb.map { UInt16($0) * 257 })
        let gray = ValueImage(try Bitmap(width: 2, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last),
                                         bytes: [10, 20, 30, 40]), withAlpha: true)
        #expect(gray.isEightBit)
        #expect(gray.wideSamples == [10, 10, 10, 20, 30, 30, 30, 40].map { UInt16($0) * 257 })
        let deep = ValueImage(try Bitmap(width: 5, height: 4, format: .rgb16, bytes: Self.widened(rgb)), withAlpha: false)
        #expect(!deep.isEightBit)
        #expect(deep.wideSamples == held.wideSamples)
        #expect(deep.sameSamples(as: held) && held.sameSamples(as: deep))
    }

    /// A pair of value images held as 8-bit codes, and the same pair held as 16-bit samples.
    static func pairs(channels: Int) -> (narrow: (ValueImage, ValueImage), wide: (ValueImage, ValueImage)) {
        let w = 200, h = 180
        let expected = picture(width: w, height: h, channels: channels, seed: 7)
        // The actual: red and blue swapped.
        var actual = expected
        for p in 0..<(w * h) { actual.swapAt(p * channels, p * channels + 2) }
        func narrow(_ codes: [UInt8]) -> ValueImage { ValueImage(width: w, height: h, channels: channels, eightBitCodes: codes) }
        func wide(_ codes: [UInt8]) -> ValueImage {
            ValueImage(width: w, height: h, channels: channels, samples: codes.map { UInt16($0) * 257 }, sourceBitsPerComponent: 8)
        }
        return ((narrow(expected), narrow(actual)), (wide(expected), wide(actual)))
    }

    @Test("every metric pass and the diagnosis give the same results for 8-bit codes as for the same samples in 16 bits",
          arguments: [3, 4])
    func metricsDoNotDependOnStorage(channels: Int) throws {
        let (narrow, wide) = Self.pairs(channels: channels)
        #expect(narrow.0.isEightBit && !wide.0.isEightBit)
        #expect(narrow.0 == wide.0 && narrow.1 == wide.1 && narrow.0 != narrow.1)

        let s = PixelStatistics.measure(narrow.0, narrow.1, tolerance: 2), t = PixelStatistics.measure(wide.0, wide.1, tolerance: 2)
        #expect(s.maxAbs == t.maxAbs && s.buckets == t.buckets && s.overTolerance == t.overTolerance && s.differing == t.differing)
        #expect(s.biasSums == t.biasSums && s.bandPixels == t.bandPixels && s.alphaSum == t.alphaSum && s.translucentSum == t.translucentSum)
        #expect(s.differing > 1000)
        for (u, v) in zip(s.visible, t.visible) {
            #expect(u.sumAbs == v.sumAbs && u.squared == v.squared && u.squaredY == v.squaredY && u.sumDE == v.sumDE && u.maxDE == v.maxDE)
            #expect(u.sumDL == v.sumDL && u.histogram == v.histogram)
        }
        for bg in [0.0, 1.0] {
            let m = VisiblePlane.ssimMeans(narrow.0, narrow.1, background: bg), n = VisiblePlane.ssimMeans(wide.0, wide.1, background: bg)
            #expect(m?.map(\.ssim) == n?.map(\.ssim) && m?.map(\.cs) == n?.map(\.cs))
            let ms = SSIM.downsampledScores(VisiblePlane.source(narrow.0, channel: 3, background: bg),
                                            VisiblePlane.source(narrow.1, channel: 3, background: bg), level1: m?[0])
            let ws = SSIM.downsampledScores(VisiblePlane.source(wide.0, channel: 3, background: bg),
                                            VisiblePlane.source(wide.1, channel: 3, background: bg), level1: n?[0])
            #expect(ms.wang == ws.wang && ms.multiScale == ws.multiScale)
        }
        let alpha = channels == 4
        #expect(SSIMULACRA2.score(original: .init(image: narrow.0, hasAlpha: alpha), distorted: .init(image: narrow.1, hasAlpha: alpha))
                == SSIMULACRA2.score(original: .init(image: wide.0, hasAlpha: alpha), distorted: .init(image: wide.1, hasAlpha: alpha)))
        #expect(AntiAliasing.nonAntiAliasedCounts(narrow.0, narrow.1, edges: AntiAliasing.edges)
                == AntiAliasing.nonAntiAliasedCounts(wide.0, wide.1, edges: AntiAliasing.edges))
        #expect(HeatMap.indexedBitmap(expected: narrow.0, actual: narrow.1) == HeatMap.indexedBitmap(expected: wide.0, actual: wide.1))

        let format = alpha ? PixelFormat.rgba8 : .rgb8
        let context = DiagnosisContext(expected: format, actual: format, source: nil, expectedBits: 8, actualBits: 8,
                                       expectedTranslucent: narrow.0.hasTranslucency)
        let d = Diagnoser.diagnose(expected: narrow.0, actual: narrow.1, context: context, counterfactuals: [])
        #expect(d == Diagnoser.diagnose(expected: wide.0, actual: wide.1, context: context, counterfactuals: []))
        #expect(d.bugClass != nil, "the swap is named: \(d.summary)")
    }
}
