import Foundation

/// The recursive ("truncated cosine") Gaussian of D. Charalampidis, "Recursive implementation
/// of the Gaussian filter using truncated cosine functions", IEEE TSP 64(14), 2016, as libjxl's
/// `CreateRecursiveGaussian` / `FastGaussian1D` build and run it (used by SSIMULACRA 2).
///
/// Three second-order recursions (k = 1, 3, 5) fed by `in[n − N − 1] + in[n + N − 1]`; samples
/// outside the line are 0 and the result is *not* renormalised near the ends.
/// Coefficients are derived and kept in `Double` (the reference rounds them to `float`, a 1e-8
/// relative change); the lane version, which SSIMULACRA 2 runs, rounds them to `Float` like the reference.
struct RecursiveGaussian: Sendable {
    /// N = round(3.2795·σ + 0.2546).
    let radius: Int
    /// Input gains n2_k = −β_k·cos(ω_k(N + 1)).
    let n2: [Double]
    /// Feedback d1_k = −2·cos(ω_k).
    let d1: [Double]

    /// The filter for σ = 1.5 (N = 5).
    static let sigma15 = RecursiveGaussian(sigma: 1.5)

    init(sigma: Double) {
        let radius = (3.2795 * sigma + 0.2546).rounded()
        let piOver2r = Double.pi / (2 * radius)
        let omega = [piOver2r, 3 * piOver2r, 5 * piOver2r]
        let p1 = 1 / tan(0.5 * omega[0]), p3 = -1 / tan(0.5 * omega[1]), p5 = 1 / tan(0.5 * omega[2])
        let r1 = p1 * p1 / sin(omega[0]), r3 = -p3 * p3 / sin(omega[1]), r5 = p5 * p5 / sin(omega[2])
        let rho = omega.map { exp(-0.5 * sigma * sigma * $0 * $0) / radius }
        let d13 = p1 * r3 - r1 * p3, d35 = p3 * r5 - r3 * p5, d51 = p5 * r1 - r5 * p1
        let zeta15 = d35 / d13, zeta35 = d51 / d13
        // β = A⁻¹ γ with A = [[p1, p3, p5], [r1, r3, r5], [ζ15, ζ35, 1]] (Cramer's rule).
        let a = [[p1, p3, p5], [r1, r3, r5], [zeta15, zeta35, 1]]
        let gamma = [1, radius * radius - sigma * sigma, zeta15 * rho[0] + zeta35 * rho[1] + rho[2]]
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        let beta = (0..<3).map { col -> Double in
            var m = a
            for row in 0..<3 { m[row][col] = gamma[row] }
            return det(m) / d
        }
        self.radius = Int(radius)
        n2 = (0..<3).map { Double(-beta[$0] * cos(omega[$0] * (radius + 1))) }
        d1 = omega.map { Double(-2 * cos($0)) }
    }

    /// Blurs one line (`input.count` samples) into `output` (same length).
    func blur(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>) {
        let len = input.count, n = radius
        let (a1, a3, a5) = (n2[0], n2[1], n2[2]), (b1, b3, b5) = (d1[0], d1[1], d1[2])
        var p1 = 0.0, p3 = 0.0, p5 = 0.0, q1 = 0.0, q3 = 0.0, q5 = 0.0
        for i in (-n + 1)..<len {
            let left = i - n - 1, right = i + n - 1
            let sum = (left >= 0 ? input[left] : 0) + (right < len ? input[right] : 0)
            let y1 = a1 * sum - b1 * p1 - q1
            let y3 = a3 * sum - b3 * p3 - q3
            let y5 = a5 * sum - b5 * p5 - q5
            q1 = p1; p1 = y1; q3 = p3; p3 = y3; q5 = p5; p5 = y5
            if i >= 0 { output[i] = y1 + y3 + y5 }
        }
    }

    /// Sixteen independent lines at once, one per SIMD lane: the same recursion as
    /// ``blur(_:into:)``, lane by lane, in `Float` like the reference (libjxl `FastGaussian1D`
    /// keeps its state in `float`). SSIMULACRA 2 packs its signals into the lanes
    /// (``SSIMULACRA2Lanes``), so the three recursions run without waiting on each other.
    ///
    /// Rounding in `Float` state: each recursion's poles lie exactly on the unit circle (the
    /// coefficient of y[n − 2] is exactly −1, so rounding d1 only moves the pole's angle), so a
    /// rounding error neither grows nor decays: it rings on as a sinusoid of amplitude ≤
    /// 1/sin ω ≤ 3.2 times its size. Independent roundings add like a random walk: after L
    /// samples the state is off by about √(4L)·3.2·u·|y| (u = 2⁻²⁴, |y| ≲ 1 for signals ≲ 1):
    /// ≈ 2e-5 at the end of a 3840-sample line. SSIMULACRA 2 takes only differences of
    /// nearby blurred values or ratios against C2 = 9e-4 from them (see ``SSIMULACRA2``).
    func blur(lanes input: UnsafePointer<SIMD16<Float>>, into output: UnsafeMutablePointer<SIMD16<Float>>, count len: Int) {
        var padded = [SIMD16<Float>](repeating: SIMD16<Float>(), count: len + 3 * radius)
        padded.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + 2 * radius).update(from: input, count: len)
            blur(lanes: base + 2 * radius, samples: 0..<len, outputs: 0..<len, into: output)
        }
    }

    /// Outputs `outputs` of a line (`output[k]` = position `outputs.lowerBound + k`) from its
    /// samples `samples` (`input[j]` = position `samples.lowerBound + j`); samples outside the
    /// line are 0. `samples` must cover `outputs` widened by N + 1 on the left and N − 1 on the
    /// right, clipped to the line, and `input` must be readable and 0 for the 2N positions before
    /// `samples` and the N after it (so the loop needs no bounds tests). The recursion starts 2N
    /// positions before the first output, from a zero state, with the samples before `samples`
    /// taken as 0: each of the three recursions is a finite filter (an impulse is cancelled
    /// exactly 2N steps after it enters), so the outputs equal those of a pass over the whole
    /// line, up to rounding. This lets a line be cut into independent segments (SSIMULACRA 2's
    /// column tiles). Each step is evaluated as `(n2·sum − y[n−2]) − d1·y[n−1]`, so the chain
    /// from one step to the next is one product and one difference.
    func blur<V: SIMD>(lanes input: UnsafePointer<V>, samples: Range<Int>, outputs: Range<Int>,
                       into output: UnsafeMutablePointer<V>) where V.Scalar == Float {
        let n = radius
        let a1 = V(repeating: Float(n2[0])), a3 = V(repeating: Float(n2[1])), a5 = V(repeating: Float(n2[2]))
        let b1 = V(repeating: Float(d1[0])), b3 = V(repeating: Float(d1[1])), b5 = V(repeating: Float(d1[2]))
        var p1 = V(), p3 = p1, p5 = p1, q1 = p1, q3 = p1, q5 = p1
        let o0 = outputs.lowerBound
        let first = max(o0 - 2 * n, -n + 1)
        // The incoming (position i + N − 1) and outgoing (i − N − 1) samples of step i, moved
        // along by one each step (only positions inside the readable range are dereferenced).
        var incoming = input + (first + n - 1 - samples.lowerBound)
        var outgoing = input + (first - n - 1 - samples.lowerBound)
        var out = output
        for i in first..<outputs.upperBound {
            let sum = incoming.pointee + outgoing.pointee
            incoming += 1; outgoing += 1
            let y1 = (a1 * sum - q1) - b1 * p1
            let y3 = (a3 * sum - q3) - b3 * p3
            let y5 = (a5 * sum - q5) - b5 * p5
            q1 = p1; p1 = y1; q3 = p3; p3 = y3; q5 = p5; p5 = y5
            if i >= o0 {
                out.pointee = y1 + y3 + y5
                out += 1
            }
        }
    }

    /// Array convenience of ``blur(_:into:)``.
    func blur(_ input: [Double], into output: inout [Double]) {
        input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in blur(src, into: dst) }
        }
    }
}
