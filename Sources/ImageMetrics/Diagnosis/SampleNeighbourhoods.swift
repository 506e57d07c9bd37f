/// The 3×3 neighbourhoods of the expected image at every sampled pixel, gathered once for all
/// the candidates that read only there (``Candidate/Reading/neighbourhood(_:)``), and the
/// actual image's pixel at each sample. Gathering once replaces a scattered read of the large
/// image per candidate and sample; the values are the view's (``ExpectedView/pixel(_:_:)``,
/// coordinates clamped), so every prediction is the same to the bit.
///
/// Layout: nine planes of `count` pixels, plane `(dy + 1) · 3 + dx + 1` holding pixel
/// (x + dx, y + dy) of each sample, so a candidate that reads the centre only streams one plane.
/// Filled in fixed chunks of samples on every core (each value depends on its sample only).
struct SampleNeighbourhoods: Sendable {
    /// Number of samples.
    let count: Int
    /// `9 × count` straight RGBA pixels of the expected image (0…1), plane by plane.
    let expected: [SIMD4<Double>]
    /// `count` straight RGBA pixels of the actual image (0…1), at the samples themselves.
    let actual: [SIMD4<Double>]

    /// Gathers the neighbourhoods of `samples` (pixel positions of both images, equal sizes).
    init(expected e: ExpectedView, actual a: ExpectedView, samples: [Diagnoser.Sample]) {
        let count = samples.count
        self.count = count
        let chunks = Parallel.bands(rows: count, rowsPerBand: 4096)
        var expected = [SIMD4<Double>](repeating: SIMD4(repeating: 0), count: 9 * count)
        var actual = [SIMD4<Double>](repeating: SIMD4(repeating: 0), count: count)
        expected.withUnsafeMutableBufferPointer { wholeE in
            actual.withUnsafeMutableBufferPointer { wholeA in
                let planes = DisjointBuffer(wholeE), centres = DisjointBuffer(wholeA)
                _ = Parallel.map(chunks.count) { j -> UInt16 in
                    let range = chunks[j]
                    let out = centres.slice(range)
                    let outs = (0..<9).map { planes.slice(($0 * count + range.lowerBound)..<($0 * count + range.upperBound)) }
                    var touched: UInt16 = 0
                    for part in Swift.stride(from: range.lowerBound, to: range.upperBound, by: Self.touchAhead) {
                        let part = part..<min(range.upperBound, part + Self.touchAhead)
                        touched ^= Self.touch(e, a, samples[part])
                        for i in part {
                            let x = samples[i].x, y = samples[i].y, k = i - range.lowerBound
                            out[k] = a.pixel(x, y)
                            for dy in -1...1 {
                                for dx in -1...1 { outs[(dy + 1) * 3 + dx + 1][k] = e.pixel(x + dx, y + dy) }
                            }
                        }
                    }
                    return touched
                }
            }
        }
        self.expected = expected
        self.actual = actual
    }

    /// Samples whose memory is touched before they are read.
    static let touchAhead = 256

    /// Reads one value of every cache line the gathering of `samples` will read (the rows
    /// y − 1…y + 1, columns x − 1…x + 1 of the expected image, pixel (x, y) of the actual), in a
    /// loop that does nothing else, so the cache misses of many samples overlap instead of one
    /// sample's at a time; returns the values combined (to keep the reads).
    private static func touch(_ e: ExpectedView, _ a: ExpectedView, _ samples: ArraySlice<Diagnoser.Sample>) -> UInt16 {
        let w = e.width, h = e.height, n = e.image.channels, na = a.image.channels
        var touched: UInt16 = 0
        e.image.withSamples { es in
            a.image.withSamples { as_ in
                for s in samples {
                    let left = max(s.x - 1, 0), right = min(s.x + 1, w - 1)
                    for row in max(s.y - 1, 0)...min(s.y + 1, h - 1) {
                        touched ^= es[(row * w + left) * n] ^ es[(row * w + right) * n + n - 1]
                    }
                    let i = (s.y * a.width + s.x) * na
                    touched ^= as_[i] ^ as_[i + na - 1]
                }
            }
        }
        return touched
    }
}
