import Testing
import ImageCore
@testable import ImageMetrics

/// The machinery that makes the diagnosis cheap on large images must not change what it
/// computes: the sample it draws, the values its candidates read, and the scores that matter.
/// The images are synthetic: an opaque RGB pattern and a copy with a deterministic ±3-code
/// "noise", large enough (300 × 250) that each kind of pixel is drawn at a stride of 2.
@Suite("diagnosis sampling and cut-off")
struct DiagnosisSamplingTests {
    static let width = 300, height = 250

    /// A smooth pattern with edges: value per channel from x, y (8-bit codes × 257).
    static let expected: ValueImage = {
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = (x * 255) / (width - 1), g = (y * 255) / (height - 1), b = ((x / 20 + y / 20) % 2) * 200 + 20
                samples += [UInt16(r * 257), UInt16(g * 257), UInt16(b * 257)]
            }
        }
        return ValueImage(width: width, height: height, channels: 3, samples: samples, sourceBitsPerComponent: 8)
    }()

    /// Pixel i's change in 8-bit codes, −3…3, the same on every channel; zero where i % 2 == 1,
    /// so exactly half of the pixels (37 500) are unchanged.
    static func change(_ i: Int) -> Int { i % 2 == 1 ? 0 : [1, -2, 3, -3, 2, -1][(i / 2) % 6] }

    static let actual: ValueImage = {
        var samples = expected.wideSamples
        for i in 0..<(width * height) {
            for c in 0..<3 { samples[i * 3 + c] = UInt16(min(255, max(0, Int(samples[i * 3 + c]) / 257 + change(i))) * 257) }
        }
        return ValueImage(width: width, height: height, channels: 3, samples: samples, sourceBitsPerComponent: 8)
    }()

    @Test("the sample takes every stride-th differing and every stride-th unchanged pixel in pixel order, weighted by its stride")
    func sample() {
        let scan = DifferenceScan(expected: Self.expected, actual: Self.actual)
        // Definition: count each kind in pixel order from 0; the k-th of a kind is drawn when k
        // is a multiple of its stride ⌈count / 32768⌉.
        var differing = 0, unchanged = 0
        for i in 0..<(Self.width * Self.height) where Self.expected.wideSamples[(3 * i)..<(3 * i + 3)] != Self.actual.wideSamples[(3 * i)..<(3 * i + 3)] {
            differing += 1
        }
        unchanged = Self.width * Self.height - differing
        #expect(scan.differing == differing && differing == 37_500)
        let strideD = (differing + 32767) / 32768, strideU = (unchanged + 32767) / 32768
        #expect(strideD == 2 && strideU == 2)
        var expected: [(Int, Int, Double)] = [], seenD = 0, seenU = 0
        for i in 0..<(Self.width * Self.height) {
            let differs = Self.expected.wideSamples[(3 * i)..<(3 * i + 3)] != Self.actual.wideSamples[(3 * i)..<(3 * i + 3)]
            if differs {
                if seenD % strideD == 0 { expected.append((i % Self.width, i / Self.width, Double(strideD))) }
                seenD += 1
            } else {
                if seenU % strideU == 0 { expected.append((i % Self.width, i / Self.width, Double(strideU))) }
                seenU += 1
            }
        }
        let drawn = scan.samples()
        #expect(drawn.count == expected.count)
        #expect(zip(drawn, expected).allSatisfy { $0.x == $1.0 && $0.y == $1.1 && $0.weight == $1.2 })
    }

    @Test("every local candidate reads the same bits from the gathered neighbourhoods as from the image, borders included")
    func neighbourhoods() {
        let view = ExpectedView(Self.expected)
        // Corners, edges and inner pixels.
        let samples = [(0, 0), (Self.width - 1, 0), (0, Self.height - 1), (Self.width - 1, Self.height - 1), (1, 0), (0, 7), (150, 125), (37, 211)]
            .map { Diagnoser.Sample(x: $0.0, y: $0.1, weight: 1) }
        let hoods = SampleNeighbourhoods(expected: view, actual: ExpectedView(Self.actual), samples: samples)
        var compared = 0
        for c in CandidateCatalog.all {
            guard case .neighbourhood(let predict) = c.reading else { continue }
            hoods.expected.withUnsafeBufferPointer { planes in
                for (i, s) in samples.enumerated() {
                    let gathered = predict(Neighbourhood(planes: planes, index: i, stride: hoods.count))
                    // The reference reads the 3×3 pixels straight from the view (clamped).
                    let direct = c.predict(view, s.x, s.y)
                    #expect(gathered == direct, "\(c.id) at \(s.x), \(s.y)")
                    compared += 1
                }
            }
            #expect(hoods.actual.indices.allSatisfy { hoods.actual[$0] == ExpectedView(Self.actual).pixel(samples[$0].x, samples[$0].y) })
        }
        // 5 channel orders, 2 alpha placements, 2 + 4 alpha ones, light, 4 one-pixel and 6 half-pixel shifts, CMYK, nearest,
        // 4 widenings, 4 value-range scalings and float samples read as linear light.
        #expect(compared == 35 * samples.count)
    }

    @Test("a candidate whose scoring stops is below five scored candidates of at least two classes, so it cannot be shown, named or the rival")
    func cutOff() {
        let scan = DifferenceScan(expected: Self.expected, actual: Self.actual)
        let scoring = CandidateScoring(expected: Self.expected, actual: Self.actual, samples: scan.samples(), dim: 3, dropAlpha: true)
        let exact = CandidateCatalog.all.filter { $0.kind == .exact && $0.size(Self.width, Self.height) == (Self.width, Self.height) }
        let fitted = CandidateCatalog.all.filter { $0.kind == .fitted }.map(scoring.score)
        let kept = scoring.scoresThatMatter(exact, besides: fitted)
        let full = exact.map(scoring.score)
        var stopped = 0
        for (k, f) in zip(kept, full) {
            if let k {
                // Scored to the end: the same bits as scoring every sample.
                #expect(k.explained == f.explained && k.id == f.id)
            } else {
                stopped += 1
                let above = (fitted + kept.compactMap { $0 }).filter { $0.explained > f.explained }
                #expect(above.count >= 5 && Set(above.map(\.bugClass)).count >= 2, "\(f.id)")
            }
        }
        // Noise: most candidates make the difference far worse and stop early.
        #expect(stopped > 0)
    }

    @Test("the tone prefilter passes every channel whose term of r − b is negative")
    func tonePrefilter() {
        // Per channel the term is 65535·t² − 2·t·Δ (t = toLinear(e) − e ≤ 0); the prefilter
        // must pass (Δ + θ < 0) wherever it is negative, for every code and difference tried.
        let lin = PixelStatistics.linearOf16
        var negative = 0
        for e in Swift.stride(from: 0, through: 65535, by: 7) {
            let t = lin[e] - Double(e) / 65535
            for d in Swift.stride(from: -e, through: 65535 - e, by: 97) where 65535 * t * t - 2 * t * Double(d) < 0 {
                negative += 1
                #expect(d + Int(FineDetailToneSignature.tonePrefilter[e]) < 0, "code \(e), Δ \(d)")
            }
        }
        #expect(negative > 1000)
    }
}
