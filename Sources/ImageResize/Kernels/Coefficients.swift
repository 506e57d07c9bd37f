/// The weights of a one-dimensional resampling, computed once per axis.
///
/// Output pixel `i` reads input pixels `windows[i]` with weights ``weight(_:_:)``, which sum to 1.
/// Geometry (Pillow's `precompute_coeffs`): output pixel centres sit at
/// `sourceStart + (i + ½) · scale` in input coordinates, where `scale = sourceLength / outputSize`;
/// when shrinking, the kernel is stretched by `scale` (which is what antialiases); windows are
/// clamped to the input, and weights renormalised so edges keep their level.
///
/// The weights are kept as a table (``weights``) when it holds at most `tableLimit` floats;
/// beyond, each is computed when read, from the same formula, so both give the same floats. A
/// table grows with `outputSize × 2 · support · scale`: about six floats an input pixel for
/// Lanczos 3 when shrinking, which for a 16,000,000-pixel axis would be 384 MB.
public struct Coefficients: Sendable {
    /// Number of output pixels.
    public let outputSize: Int
    /// The input range each output pixel reads.
    public let windows: [Range<Int>]
    /// Stride between the weight lists of consecutive output pixels in ``weights``; also the
    /// longest window possible.
    public let windowSize: Int
    /// The weights, `outputSize × windowSize`, zero-padded after each window; empty when the
    /// table would exceed the limit given at init (``isTabulated`` is false).
    public let weights: [Float]
    /// Output pixel centres in input coordinates.
    private let centers: [Double]
    /// The sum of each window's kernel weights, which normalises them; 0 marks a window that
    /// fell back to the nearest pixel (weight 1).
    private let totals: [Double]
    private let filterScale: Double
    private let kernel: Kernel

    /// Floats a table of weights for `outputSize` pixels along an axis of `sourceLength` input
    /// pixels would hold (`outputSize × windowSize`), or `Int.max` when that overflows.
    public static func tableFloats(sourceLength: Double, outputSize: Int, kernel: Kernel) -> Int {
        let (n, overflow) = outputSize.multipliedReportingOverflow(by: windowSize(sourceLength: sourceLength, outputSize: outputSize, kernel: kernel))
        return overflow ? .max : n
    }

    /// The longest window: `⌈2 · support · max(scale, 1)⌉ + 2` input pixels.
    public static func windowSize(sourceLength: Double, outputSize: Int, kernel: Kernel) -> Int {
        let support = kernel.support * max(sourceLength / Double(outputSize), 1)
        return Int(min((support * 2).rounded(.up), Double(Int.max >> 2))) + 2
    }

    /// The most output pixels whose windows can share one input pixel: their centres lie within
    /// `support · max(scale, 1) + 1` of it on either side, `scale` apart.
    public static func sharingOutputs(sourceLength: Double, outputSize: Int, kernel: Kernel) -> Int {
        let scale = sourceLength / Double(outputSize)
        let reach = 2 * kernel.support * max(scale, 1) + 2
        return min(outputSize, Int(min((reach / scale).rounded(.down), Double(Int.max >> 2))) + 3)
    }

    /// - Parameters:
    ///   - inputSize: pixels along the axis of the input.
    ///   - sourceStart: first input coordinate covered (a crop may start mid-pixel).
    ///   - sourceLength: input length covered, in input pixels (> 0).
    ///   - outputSize: pixels along the axis of the output (> 0).
    ///   - tableLimit: the most floats kept in ``weights``; beyond, weights are computed when read.
    public init(inputSize: Int, sourceStart: Double = 0, sourceLength: Double? = nil, outputSize: Int, kernel: Kernel,
                tableLimit: Int = .max) {
        let length = sourceLength ?? Double(inputSize)
        let scale = length / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = kernel.support * filterScale
        let windowSize = Self.windowSize(sourceLength: length, outputSize: outputSize, kernel: kernel)
        let tabulated = Self.tableFloats(sourceLength: length, outputSize: outputSize, kernel: kernel) <= tableLimit
        var windows: [Range<Int>] = []
        windows.reserveCapacity(outputSize)
        var weights = [Float](repeating: 0, count: tabulated ? outputSize * windowSize : 0)
        var centers = [Double](repeating: 0, count: outputSize), totals = [Double](repeating: 0, count: outputSize)
        var w = [Double](repeating: 0, count: tabulated ? windowSize : 0)
        for i in 0..<outputSize {
            let center = sourceStart + (Double(i) + 0.5) * scale
            var lo = Int((center - support).rounded(.down))
            var hi = Int((center + support).rounded(.up))
            lo = min(max(lo, 0), inputSize - 1)
            hi = min(max(hi, lo + 1), inputSize)
            if hi - lo > windowSize { hi = lo + windowSize }
            var total = 0.0
            for j in lo..<hi {
                let v = kernel.weight((Double(j) + 0.5 - center) / filterScale)
                if tabulated { w[j - lo] = v }
                total += v
            }
            centers[i] = center
            if total == 0 {
                // The kernel found no input (a nearest box between pixel centres): take the closest pixel.
                let nearest = min(max(Int(center.rounded(.down)), 0), inputSize - 1)
                lo = nearest; hi = nearest + 1
                if tabulated { w[0] = 1 }
            } else {
                totals[i] = total
            }
            if tabulated {
                for j in 0..<(hi - lo) { weights[i * windowSize + j] = Float(w[j] / (total == 0 ? 1 : total)) }
            }
            windows.append(lo..<hi)
        }
        self.outputSize = outputSize
        self.windows = windows
        self.windowSize = windowSize
        self.weights = weights
        self.centers = centers
        self.totals = totals
        self.filterScale = filterScale
        self.kernel = kernel
    }

    /// Whether ``weights`` holds the table.
    public var isTabulated: Bool { !weights.isEmpty || outputSize == 0 }

    /// The weight of input pixel `j` (in `windows[i]`) for output pixel `i`: the table's entry,
    /// or the same float computed now.
    @inline(__always)
    public func weight(_ i: Int, _ j: Int) -> Float {
        if !weights.isEmpty { return weights[i * windowSize + j - windows[i].lowerBound] }
        let total = totals[i]
        guard total != 0 else { return 1 }
        return Float(kernel.weight((Double(j) + 0.5 - centers[i]) / filterScale) / total)
    }
}
