import Testing
@testable import ImageMetrics

/// The opaque pass's integer forms of the general pass's `Double` tests: the over-tolerance
/// count (an integer threshold) and the |Δ| buckets (a table), at the edges where a rounding
/// slip would show.
@Suite("opaque pixel pass")
struct OpaquePixelPassTests {
    /// One row of RGB pixels whose expected colour is black and whose actual red channel
    /// differs by `red[i]` 16-bit units (257 units = one 8-bit code).
    static func row(red: [Int]) -> (ValueImage, ValueImage) {
        let e = [UInt16](repeating: 0, count: red.count * 3)
        var a = e
        for (i, d) in red.enumerated() { a[i * 3] = UInt16(d) }
        return (ValueImage(width: red.count, height: 1, channels: 3, samples: e),
                ValueImage(width: red.count, height: 1, channels: 3, samples: a))
    }

    @Test("a pixel is over the tolerance exactly when its largest |Δ| exceeds it, at integer, fractional and NaN bounds",
          arguments: [(1.0, 3), (0.0, 5), (2.0, 1), (0.39, 4), (Double.nan, 0)])
    func overTolerance(tolerance: Double, expected: Int) {
        // |Δ| in 8-bit codes: 0, 1, 258/257, 2, 100/257, 255.
        let (e, a) = Self.row(red: [0, 257, 258, 514, 100, 65535])
        var opaque = PixelStatistics(backgrounds: 1)
        opaque.accumulateOpaque(e, a, rows: 0..<1, tolerance: tolerance)
        #expect(opaque.overTolerance == expected)
        var general = PixelStatistics(backgrounds: 1)
        general.accumulate(e, a, rows: 0..<1, backgrounds: [0], tolerance: tolerance)
        #expect(general.overTolerance == expected)
    }

    @Test("each |Δ| lands in the first bucket whose edge is not below it: edges 0, 1, 2, 5, 10, 20, 50, 100, 255 codes")
    func buckets() {
        // Just below, at and just above the edges of 1 and 2 codes (257 and 514 units), 5 codes,
        // and 255 codes (the last bucket).
        let (e, a) = Self.row(red: [0, 256, 257, 258, 513, 514, 515, 1285, 1286, 65535])
        var opaque = PixelStatistics(backgrounds: 1)
        opaque.accumulateOpaque(e, a, rows: 0..<1, tolerance: 0)
        // Bucket 0: exact zeros; 1: (0, 1]; 2: (1, 2]; 3: (2, 5]; 4: (5, 10]; …; 8: (100, 255].
        #expect(opaque.buckets == [1, 2, 3, 2, 1, 0, 0, 0, 1])
    }
}
