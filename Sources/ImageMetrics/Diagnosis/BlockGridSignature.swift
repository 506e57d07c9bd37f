import Foundation
import ImageCodecs

/// The quality of a JPEG compression an image went through, read from its pixels alone (a JPEG
/// decoded and saved again as PNG): the luma of each 8 × 8 block aligned to the top-left corner
/// is transformed by the JPEG DCT, and the coefficients of each low frequency then sit at
/// multiples of that frequency's quantisation step. The steps found are compared with the
/// libjpeg tables of every quality (``JPEGQuality``). An image that never went through JPEG has
/// continuous coefficients and no step.
///
/// Read on at most ``blockBudget`` blocks at a regular stride; the DC coefficient is left out (a
/// flat area's is a multiple of 8 whatever its history).
struct BlockGridSignature: Sendable {
    /// Largest number of blocks read.
    static let blockBudget = 4096
    /// The frequencies examined: zig-zag positions 1…14, as (u, v) = (column, row).
    static let frequencies: [(u: Int, v: Int)] = [
        (1, 0), (0, 1), (0, 2), (1, 1), (2, 0), (3, 0), (2, 1), (1, 2), (0, 3), (0, 4), (1, 3), (2, 2), (3, 1), (4, 0),
    ]
    /// A coefficient within this distance of a multiple of the step counts as on it (decoding
    /// rounds each pixel, which moves a coefficient by about 0.35 RMS).
    static let tolerance = 0.75
    /// Smallest excess of on-step coefficients over chance (`2 · tolerance / step`) for a step.
    static let minimumExcess = 0.5
    /// Fewest frequencies with a step for the image to carry a grid.
    static let minimumSteps = 4

    /// The quantisation step found for each frequency that has one, keyed by its natural-order
    /// index (`8v + u`).
    let steps: [Int: Int]
    /// The libjpeg quality whose table is nearest to `steps`, when at least ``minimumSteps``
    /// were found and the table fits them (mean |log ratio| ≤ 0.25).
    let quality: Int?

    /// The JPEG DCT's basis: `basis[u][x] = C(u) / 2 · cos((2x + 1) u π / 16)`, C(0) = 1/√2.
    private static let basis: [[Double]] = (0..<8).map { (u: Int) -> [Double] in
        let weight: Double = u == 0 ? 0.5 * (0.5).squareRoot() : 0.5
        return (0..<8).map { (x: Int) -> Double in weight * cos(Double(2 * x + 1) * Double(u) * Double.pi / 16) }
    }

    /// Reads the blocks of `image`.
    init(_ image: ValueImage) {
        let n = image.channels, w = image.width
        let columns = image.width / 8, rows = image.height / 8
        let stride = max(1, (columns * rows) / Self.blockBudget)
        var coefficients = [[Double]](repeating: [], count: Self.frequencies.count)
        var block = [Double](repeating: 0, count: 64)
        var index = 0
        while index < columns * rows {
            let bx = (index % columns) * 8, by = (index / columns) * 8
            index += stride
            var opaque = true
            for y in 0..<8 {
                for x in 0..<8 {
                    let i = ((by + y) * w + bx + x) * n
                    if n == 4 && image.sample(i + 3) != 65535 { opaque = false }
                    let r = Double(image.sample(i)), g = Double(image.sample(i + 1)), b = Double(image.sample(i + 2))
                    block[y * 8 + x] = (0.299 * r + 0.587 * g + 0.114 * b) / ValueImage.perEightBitUnit - 128
                }
            }
            guard opaque else { continue }
            for (k, f) in Self.frequencies.enumerated() {
                var c = 0.0
                for y in 0..<8 {
                    var row = 0.0
                    for x in 0..<8 { row += Self.basis[f.u][x] * block[y * 8 + x] }
                    c += Self.basis[f.v][y] * row
                }
                coefficients[k].append(c)
            }
        }
        var steps: [Int: Int] = [:]
        for (k, f) in Self.frequencies.enumerated() {
            if let step = Self.step(coefficients[k]) { steps[f.v * 8 + f.u] = step }
        }
        self.steps = steps
        guard steps.count >= Self.minimumSteps else { quality = nil; return }
        var best = (quality: 0, error: Double.infinity)
        for q in 1...100 {
            let table = JPEGQuality.scaledTable(q)
            let error = steps.reduce(0.0) { $0 + abs(log(Double($1.value) / Double(table[$1.key]))) } / Double(steps.count)
            if error < best.error { best = (q, error) }
        }
        quality = best.error <= 0.25 ? best.quality : nil
    }

    /// The largest step (3…100) the non-zero coefficients `values` sit on, with the best excess
    /// over chance, when it reaches ``minimumExcess`` on at least 50 coefficients.
    static func step(_ values: [Double]) -> Int? {
        let nonZero = values.filter { abs($0) >= 1 }
        guard nonZero.count >= 50 else { return nil }
        var best: (step: Int, excess: Double)?
        for q in 3...100 {
            let step = Double(q), inverse = 1 / step
            var on = 0
            for v in nonZero where abs(v - step * (v * inverse).rounded()) <= tolerance { on += 1 }
            let excess = Double(on) / Double(nonZero.count) - 2 * tolerance / step
            if excess >= minimumExcess, excess >= (best?.excess ?? 0) - 0.02 { best = (q, excess) }
        }
        return best?.step
    }
}
