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
    ///
    /// Output rows are independent (each reads its own f input rows), so they are computed in
    /// fixed bands in parallel; the result is the same with any number of cores.
    static func boxDownsample(_ source: PlaneSource, factor f: Int) -> Plane {
        let w = source.width, h = source.height
        let ow = (w + f - 1) / f, oh = (h + f - 1) / f
        let before = (f - 1) / 2
        @Sendable func mirror(_ i: Int, _ n: Int) -> Int {
            var i = i
            // MATLAB 'symmetric': x(0) = x(1), x(−1) = x(2); repeated for pads longer than n.
            while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
            return i
        }
        let norm = 1 / Double(f * f)
        let bands = Parallel.bands(rows: oh, rowsPerBand: max(1, 64 / f))
        var values = [Double](repeating: 0, count: ow * oh)
        values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let output = BandOutput(base: base)
            _ = Parallel.map(bands.count) { b -> Bool in
                var row = [Double](repeating: 0, count: w)
                var columnSums = [Double](repeating: 0, count: w)
                for oy in bands[b] {
                    for x in 0..<w { columnSums[x] = 0 }
                    for k in 0..<f {
                        source.read(mirror(oy * f - before + k, h), &row)
                        for x in 0..<w { columnSums[x] += row[x] }
                    }
                    let o = output.base + oy * ow
                    for ox in 0..<ow {
                        var s = 0.0
                        for k in 0..<f { s += columnSums[mirror(ox * f - before + k, w)] }
                        o[ox] = s * norm
                    }
                }
                return true
            }
        }
        return Plane(width: ow, height: oh, values: values)
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
