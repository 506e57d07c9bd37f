/// The weights of a one-dimensional resampling, computed once per axis.
///
/// Output pixel `i` reads input pixels `windows[i]` with weights
/// `weights[i * windowSize ..< i * windowSize + windows[i].count]`, which sum to 1.
/// Geometry (Pillow's `precompute_coeffs`): output pixel centres sit at
/// `sourceStart + (i + ½) · scale` in input coordinates, where `scale = sourceLength / outputSize`;
/// when shrinking, the kernel is stretched by `scale` (which is what antialiases); windows are
/// clamped to the input, and weights renormalised so edges keep their level.
public struct Coefficients: Sendable {
    /// Number of output pixels.
    public let outputSize: Int
    /// The input range each output pixel reads.
    public let windows: [Range<Int>]
    /// Stride between the weight lists of consecutive output pixels.
    public let windowSize: Int
    /// The weights, `outputSize × windowSize`, zero-padded after each window.
    public let weights: [Float]

    /// - Parameters:
    ///   - inputSize: pixels along the axis of the input.
    ///   - sourceStart: first input coordinate covered (a crop may start mid-pixel).
    ///   - sourceLength: input length covered, in input pixels (> 0).
    ///   - outputSize: pixels along the axis of the output (> 0).
    public init(inputSize: Int, sourceStart: Double = 0, sourceLength: Double? = nil, outputSize: Int, kernel: Kernel) {
        let length = sourceLength ?? Double(inputSize)
        let scale = length / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = kernel.support * filterScale
        let windowSize = Int((support * 2).rounded(.up)) + 2
        var windows: [Range<Int>] = []
        windows.reserveCapacity(outputSize)
        var weights = [Float](repeating: 0, count: outputSize * windowSize)
        var w = [Double](repeating: 0, count: windowSize)
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
                w[j - lo] = v
                total += v
            }
            if total == 0 {
                // The kernel found no input (a nearest box between pixel centres): take the closest pixel.
                let nearest = min(max(Int(center.rounded(.down)), 0), inputSize - 1)
                lo = nearest; hi = nearest + 1; w[0] = 1; total = 1
            }
            for j in 0..<(hi - lo) { weights[i * windowSize + j] = Float(w[j] / total) }
            windows.append(lo..<hi)
        }
        self.outputSize = outputSize
        self.windows = windows
        self.windowSize = windowSize
        self.weights = weights
    }
}
