/// SSIMULACRA 2's three maps (SSIM', artifact, detail lost) of one channel, summed per column
/// over the rows of a tile, from one block of `Float` rows ``stride`` floats apart:
///
/// - rows 0…11, the blurred signals of one output row: 0…2 μ1 of X, Y, B; 3…5 μ1 − μ2;
///   6…8 G∗(x1² + x2²); 9…11 G∗(x1 − x2)² (``SSIMULACRA2Lanes/transpose(_:count:into:stride:)``
///   writes them);
/// - rows 12…29, the column sums of the current chunk of rows in `Float`,
///   [channel][SSIM', SSIM'⁴, artifact, artifact⁴, detail lost, detail lost⁴].
///
/// Every loop is a plain `Float` loop over contiguous rows with constant row offsets in one
/// block, so the loop vectorizer widens it (four lanes on x86-64, eight with AVX2) without
/// runtime alias checks, and each column's sum is its own lane: no sum is reassociated, the
/// order of additions is fixed by the tile alone, so both builds give the same bits. A chunk
/// holds at most ``chunkRows`` rows (as many additions per `Float` sum as the 64-pixel chunks
/// before), then ``flush(_:into:count:)`` adds it into `Double` column sums.
enum SSIMULACRA2Maps {
    /// Floats between two rows of the block: a tile is at most 256 columns wide.
    static let stride = 256
    /// Rows of the block: 12 blurred signals and 18 column sums.
    static let rows = 30
    /// The first row of the column sums.
    static let sumsRow = 12
    /// Rows added into one `Float` column sum before it goes into `Double`.
    static let chunkRows = 64

    /// Adds the maps of one output row of `count` pixels (≤ ``stride``) to the column sums.
    /// `original` and `distorted` point at the pixels' own X, Y, B rows, `pixelStride` floats
    /// apart. `structure`: the channels whose SSIM' map is computed (the others weigh nothing).
    ///
    /// SSIM' with S = σ11 + σ22 and D = σ11 + σ22 − 2σ12 = G∗(x1 − x2)² − (μ1 − μ2)²: the
    /// reference's 1 − (1 − Δμ²)(2σ12 + C2)/(σ11 + σ22 + C2) is exactly
    /// (Δμ²(S + C2 − D) + D)/(S + C2), clamped at 0. The edge maps: e = (1 + |v − μ2|)/(1 + |a − μ1|) − 1,
    /// artifact = max(e, 0), detail lost = max(−e, 0).
    static func addRow(_ block: UnsafeMutablePointer<Float>, original: UnsafePointer<Float>,
                       distorted: UnsafePointer<Float>, pixelStride: Int, count: Int, structure: Range<Int>) {
        // Literal channels, so every row offset below is a constant.
        if structure.contains(0) {
            addChannel(block, 0, original, distorted, count: count, structure: true)
        } else {
            addChannel(block, 0, original, distorted, count: count, structure: false)
        }
        if structure.contains(1) {
            addChannel(block, 1, original + pixelStride, distorted + pixelStride, count: count, structure: true)
        } else {
            addChannel(block, 1, original + pixelStride, distorted + pixelStride, count: count, structure: false)
        }
        if structure.contains(2) {
            addChannel(block, 2, original + 2 * pixelStride, distorted + 2 * pixelStride, count: count, structure: true)
        } else {
            addChannel(block, 2, original + 2 * pixelStride, distorted + 2 * pixelStride, count: count, structure: false)
        }
    }

    @inline(__always)
    private static func addChannel(_ p: UnsafeMutablePointer<Float>, _ c: Int, _ a: UnsafePointer<Float>,
                                   _ v: UnsafePointer<Float>, count: Int, structure: Bool) {
        let s = stride
        let mu1Row = c &* s, dmRow = (3 &+ c) &* s, sqRow = (6 &+ c) &* s, dsqRow = (9 &+ c) &* s
        let sums = (sumsRow &+ 6 &* c) &* s
        let c2: Float = 0.0009
        for x in 0..<count {
            let mu1 = p[mu1Row &+ x], dm = p[dmRow &+ x]
            let mu2 = mu1 - dm
            if structure {
                let dm2 = dm * dm
                let sigmaSum = p[sqRow &+ x] - mu1 * mu1 - mu2 * mu2 + c2
                let dd = p[dsqRow &+ x] - dm2
                let ratio = (dm2 * (sigmaSum - dd) + dd) / sigmaSum
                let d = ratio < 0 ? 0 : ratio
                let d2 = d * d
                p[sums &+ x] += d
                p[sums &+ s &+ x] += d2 * d2
            }
            let e = (1 + (v[x] - mu2).magnitude) / (1 + (a[x] - mu1).magnitude) - 1
            let positive = e > 0
            let artifact = positive ? e : 0
            let detail = positive ? 0 : 0 - e
            let artifact2 = artifact * artifact, detail2 = detail * detail
            p[sums &+ 2 &* s &+ x] += artifact
            p[sums &+ 3 &* s &+ x] += artifact2 * artifact2
            p[sums &+ 4 &* s &+ x] += detail
            p[sums &+ 5 &* s &+ x] += detail2 * detail2
        }
    }

    /// Adds the `Float` column sums of the chunk (the first `count` columns) into `totals`
    /// (18 rows of ``stride`` `Double`s, same order) and clears them for the next chunk.
    static func flush(_ block: UnsafeMutablePointer<Float>, into totals: UnsafeMutablePointer<Double>, count: Int) {
        let sums = block + sumsRow * stride
        for k in 0..<18 {
            let f = sums + k * stride, d = totals + k * stride
            for x in 0..<count {
                d[x] += Double(f[x])
                f[x] = 0
            }
        }
    }

    /// The 18 sums ([channel][map]) of the first `count` columns of `totals`, added left to right.
    static func totals(_ totals: UnsafePointer<Double>, count: Int) -> [Double] {
        (0..<18).map { k in
            var sum = 0.0
            for x in 0..<count { sum += totals[k * stride + x] }
            return sum
        }
    }
}
