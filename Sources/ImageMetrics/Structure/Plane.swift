/// A single-channel image of `Double` samples, row-major, used by the structural metrics.
///
/// Planes are only materialised where a metric needs them (the downsampled levels of MS-SSIM
/// and Wang's `ssim.m`); the full-resolution pass reads the value images' samples directly
/// (``VisiblePlane/ssimMeans(_:_:background:)``) and the downsampling reads rows on demand
/// (``PlaneSource``), which keeps the peak memory of a 4K comparison bounded.
struct Plane: Sendable {
    let width: Int
    let height: Int
    var values: [Double]

    init(width: Int, height: Int, values: [Double]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// The plane as a row source.
    var source: PlaneSource {
        let values = self.values, width = self.width
        return PlaneSource(width: width, height: height) { y, out in
            values.withUnsafeBufferPointer { v in
                for x in 0..<width { out[x] = v[y * width + x] }
            }
        }
    }

    /// MS-SSIM's step between levels (Wang's `msssim.m`): `imfilter(img, ones(2)/4,
    /// 'symmetric', 'same')` then `img(1:2:end, 1:2:end)`, i.e. the mean of each aligned 2×2
    /// block with the last row/column repeated when the size is odd; size ⌈n/2⌉.
    func halved() -> Plane {
        Plane.boxDownsample(source, factor: 2)
    }

    /// Wang's `ssim.m` downsampling by `factor`: an f×f box filter with MATLAB `imfilter`
    /// 'symmetric' padding and 'same' size (kernel centre at ⌊(f+1)/2⌋, so the box covers
    /// offsets −⌊(f−1)/2⌋ … f−1−⌊(f−1)/2⌋), then every f-th sample from the first.
    /// (Computed by ``boxDownsamples(_:factors:)``.)
    static func boxDownsample(_ source: PlaneSource, factor f: Int) -> Plane {
        boxDownsamples(source, factors: [f])[0]
    }

    /// ``boxDownsample(_:factor:)`` by each of `factors` (in that order) from one read of
    /// `source` (Wang's `ssim.m` and MS-SSIM need the luma plane downsampled by two factors):
    /// each input row is read once into a ring of the last F = max(f) rows, and an output row is
    /// summed from the ring, in the order of its box, when the last row of its box comes in, so
    /// the values are those of downsampling by each factor alone.
    ///
    /// Bands of input rows (a multiple of F) run in parallel; a band makes the output rows whose
    /// box starts at an f-multiple inside it, reading the few rows its boxes reach outside it.
    /// The split depends only on the sizes, so the result is the same with any number of cores.
    static func boxDownsamples(_ source: PlaneSource, factors: [Int]) -> [Plane] {
        let w = source.width, h = source.height
        guard let big = factors.max(), big > 0, factors.allSatisfy({ $0 > 0 }), w > 0, h > 0 else {
            return factors.map { _ in Plane(width: 0, height: 0, values: []) }
        }
        @Sendable func mirror(_ i: Int, _ n: Int) -> Int {
            var i = i
            // MATLAB 'symmetric': x(0) = x(1), x(−1) = x(2); repeated for pads longer than n.
            while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
            return i
        }
        let widths = factors.map { (w + $0 - 1) / $0 }, heights = factors.map { (h + $0 - 1) / $0 }
        let before = factors.map { ($0 - 1) / 2 }
        // Rows a box reaches before its f-multiple, and after it.
        let reachBefore = before.max() ?? 0
        let reachAfter = factors.indices.map { factors[$0] - 1 - before[$0] }.max() ?? 0
        let span = big * max(1, 64 / big)
        let bandCount = (h + span - 1) / span
        let values = filledInPlace(counts: factors.indices.map { widths[$0] * heights[$0] }) { outputs in
            _ = Parallel.map(bandCount) { band -> Bool in
                let first = band * span, end = min(h, first + span)
                var ring = [[Double]](repeating: [Double](repeating: 0, count: w), count: big)
                var columnSums = [Double](repeating: 0, count: w)
                for r in max(0, first - reachBefore)..<min(h, end + reachAfter) {
                    source.read(r, &ring[r % big])
                    for k in factors.indices {
                        let f = factors[k], b = before[k]
                        // The output row whose box ends at r: exactly, or past the last row.
                        let oy = r == h - 1 ? ceilDivide(h - f + b, f) : (r + b + 1 - f) / f
                        guard oy >= 0, oy < heights[k], oy * f >= first, oy * f < end,
                              min(oy * f - b + f - 1, h - 1) == r else { continue }
                        columnSums.withUnsafeMutableBufferPointer { sums in
                            guard let sums = sums.baseAddress else { return }
                            sums.update(repeating: 0, count: w)
                            for j in 0..<f {
                                ring[mirror(oy * f - b + j, h) % big].withUnsafeBufferPointer { row in
                                    if let row = row.baseAddress { addRow(row, to: sums, w) }
                                }
                            }
                            let ow = widths[k], norm = 1 / Double(f * f)
                            let o = outputs[k].base + oy * ow
                            // Boxes inside the row, ox in inner: summed column by column for
                            // all of them at once (independent running sums, each in box order).
                            let firstInner = min(ow, ceilDivide(b, f))
                            let endInner = w - f + b >= 0 ? min(ow, (w - f + b) / f + 1) : 0
                            let inner = firstInner..<max(firstInner, endInner)
                            for ox in inner { o[ox] = 0 }
                            for j in 0..<f {
                                let column = sums + j - b
                                for ox in inner { o[ox] += column[ox * f] }
                            }
                            for ox in 0..<ow {
                                if inner.contains(ox) {
                                    o[ox] *= norm
                                } else {
                                    var s = 0.0
                                    for j in 0..<f { s += sums[mirror(ox * f - b + j, w)] }
                                    o[ox] = s * norm
                                }
                            }
                        }
                    }
                }
                return true
            }
        }
        return factors.indices.map { Plane(width: widths[$0], height: heights[$0], values: values[$0]) }
    }

    /// `sums[x] += row[x]` for x in 0 ..< `count` (a plain loop the vectorizer widens).
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func addRow(_ row: UnsafePointer<Double>, to sums: UnsafeMutablePointer<Double>, _ count: Int) {
        for x in 0..<count { sums[x] += row[x] }
    }

    /// ⌈a / b⌉ for b > 0 and any sign of a.
    private static func ceilDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? (a + b - 1) / b : -((-a) / b)
    }

    /// Arrays of `counts` values that `fill` writes completely (through one output per array,
    /// valid only during the call) before they are returned; no pass clears them first.
    private static func filledInPlace(counts: [Int], _ fill: ([BandOutput<Double>]) -> Void) -> [[Double]] {
        guard let count = counts.first else { fill([]); return [] }
        var rest: [[Double]] = []
        let array = [Double](unsafeUninitializedCapacity: count) { buffer, written in
            let output = buffer.baseAddress.map { BandOutput(base: $0) }
            rest = filledInPlace(counts: Array(counts.dropFirst())) { others in
                if let output { fill([output] + others) }
            }
            written = count
        }
        return [array] + rest
    }
}

/// Rows of a plane produced on demand: `read(y, &row)` fills `row[0..<width]`.
struct PlaneSource: Sendable {
    let width: Int
    let height: Int
    let read: @Sendable (Int, inout [Double]) -> Void

    init(width: Int, height: Int, read: @escaping @Sendable (Int, inout [Double]) -> Void) {
        self.width = width
        self.height = height
        self.read = read
    }
}
