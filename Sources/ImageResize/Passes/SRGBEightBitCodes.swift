import ImageCore

/// The 8-bit sRGB code of a linear-light value 0…1, exactly as rounding the interpolated curve
/// gives it (`round half up (255 · SRGBCurveTable.value(at: v, in: .encoding))`), found from the
/// 255 values where the code steps instead of from the curve: no interpolation per sample, and no
/// 65,536-entry table to build (65,536 `pow`s, about a millisecond of every thumbnail).
///
/// The code is a non-decreasing step function of v (the table rises, and each rounding step
/// keeps order), so `code(v)` is the number of steps at or below v. ``threshold`` holds, for
/// each code k in 1…255, the least `Float` v whose rounded code is at least k, found by bisection
/// over the bit patterns of the `Float`s in 0…1 with only the curve samples that bisection reads.
/// `SRGBEightBitCodesTests` compares the two for every `Float` in 0…1.
struct SRGBEightBitCodes: Sendable {
    /// The codes of every linear value, built once.
    static let shared = SRGBEightBitCodes()

    /// `threshold[k]`: the least v in 0…1 whose code is ≥ k (`threshold[0]` is 0, `threshold[256]`
    /// is +∞: no value reaches a code above 255).
    let threshold: [Float]
    /// `start[j]`: the code of j / ``buckets`` (the least value of bucket j), j in 0…buckets.
    let start: [UInt8]
    /// Buckets of equal width over 0…1 that `start` indexes. Within one bucket the encoded value
    /// rises by at most 12.92 · 255 / 4096 ≈ 0.8 of a code (12.92 is the curve's steepest slope),
    /// so the code steps at most once.
    static let buckets = 4096

    init() {
        var threshold = [Float](repeating: 0, count: 257)
        threshold[256] = .infinity
        for k in 1...255 {
            // Bisection over bit patterns: code(lo) < k ≤ code(hi), until they are adjacent.
            var lo = threshold[k - 1].bitPattern, hi = Float(1).bitPattern
            if Self.interpolatedCode(Float(bitPattern: lo)) >= k { threshold[k] = threshold[k - 1]; continue }
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2
                if Self.interpolatedCode(Float(bitPattern: mid)) >= k { hi = mid } else { lo = mid }
            }
            threshold[k] = Float(bitPattern: hi)
        }
        self.threshold = threshold
        var start = [UInt8](repeating: 0, count: Self.buckets + 1)
        var code = 0
        for j in 0...Self.buckets {
            let v = Float(j) / Float(Self.buckets)
            while code < 255 && threshold[code + 1] <= v { code += 1 }
            start[j] = UInt8(code)
        }
        self.start = start
    }

    /// The code of `v` (a straight linear-light value already limited to 0…1).
    @inline(__always)
    func code(_ v: Float, _ threshold: UnsafePointer<Float>, _ start: UnsafePointer<UInt8>) -> UInt8 {
        // v · 4096 is exact (a power of two), so bucket j holds exactly j/4096 ≤ v < (j+1)/4096.
        // At most one step above the bucket's first code (see ``buckets``), taken without a branch.
        let c = Int(start[Int(v * Float(Self.buckets))])
        return UInt8(truncatingIfNeeded: c &+ (threshold[c &+ 1] <= v ? 1 : 0))
    }

    /// Calls `body` with the two tables' base pointers, for ``code(_:_:_:)`` in a loop.
    func withTables<R>(_ body: (UnsafePointer<Float>, UnsafePointer<UInt8>) -> R) -> R {
        threshold.withUnsafeBufferPointer { t in
            start.withUnsafeBufferPointer { s in
                // Both arrays are non-empty (256 and 4097 entries), so their bases exist.
                guard let tb = t.baseAddress, let sb = s.baseAddress else { preconditionFailure("empty code tables") }
                return body(tb, sb)
            }
        }
    }

    /// The definition the tables follow: `SRGBCurveTable.value(at:in:)` on the encoding curve,
    /// times 255, rounded half up, with each curve sample computed as the table computes it.
    static func interpolatedCode(_ v: Float) -> Int {
        func sample(_ i: Int) -> Float { Float(SRGBTransfer.fromLinear(Double(min(i, 65535)) / 65535)) }
        let t = v * 65535
        let i = min(Int(t), 65535)
        let f = t - Float(i)
        let low = sample(i), high = sample(i + 1)
        let e = low + f * (high - low)
        return Int(UInt8((e * 255 + 0.5).clamped(0, 255)))
    }
}
