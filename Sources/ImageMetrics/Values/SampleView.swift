/// A value image's samples read as 16-bit values, whichever way the image holds them
/// (``ValueImage/Storage``): an 8-bit code c reads as c · 257. Valid only during
/// ``ValueImage/withSamples(_:)``.
public struct SampleView {
    private let eightBit: UnsafePointer<UInt8>?
    private let sixteenBit: UnsafePointer<UInt16>?
    /// Number of samples.
    public let count: Int

    init(eightBit: UnsafePointer<UInt8>?, sixteenBit: UnsafePointer<UInt16>?, count: Int) {
        self.eightBit = eightBit
        self.sixteenBit = sixteenBit
        self.count = count
    }

    /// Sample `i` (interleaved order) as a 16-bit value, 0…65535.
    @inline(__always)
    public subscript(i: Int) -> UInt16 {
        if let eightBit { return UInt16(eightBit[i]) &* 257 }
        return sixteenBit.unsafelyUnwrapped[i]
    }

    /// Calls `body` with `count` samples from `start` as contiguous 16-bit values: the image's own
    /// memory when it holds 16-bit samples, else a temporary widened copy (for the vectorised
    /// loops that read plain pointers).
    @inline(__always)
    public func withSixteenBit<R>(from start: Int, count: Int, _ body: (UnsafePointer<UInt16>) throws -> R) rethrows -> R {
        if eightBit == nil, let sixteenBit { return try body(sixteenBit + start) }
        return try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) { staged in
            let out = staged.baseAddress.unsafelyUnwrapped  // capacity ≥ 1
            copy(from: start, count: count, into: out)
            return try body(out)
        }
    }

    /// Copies `count` samples from `start` into `out` as 16-bit values.
    @inline(__always)
    public func copy(from start: Int, count: Int, into out: UnsafeMutablePointer<UInt16>) {
        if let eightBit {
            let codes = eightBit + start
            for k in 0..<count { out[k] = UInt16(codes[k]) &* 257 }
        } else if let sixteenBit {
            out.update(from: sixteenBit + start, count: count)
        }
    }
}
