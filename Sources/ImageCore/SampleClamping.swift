/// Limiting float samples to a component range before they become integer codes.
///
/// Swift's `min` and `max` pass NaN through, and converting NaN or an infinity to an integer
/// traps; every float-to-code conversion limits its value here first. NaN (a sample with no
/// value) reads as the lower bound, ±∞ and every other out-of-range value as the nearer bound.
/// Inlinable: they run per sample in other modules' loops, where without it each was an
/// unspecialised generic call (seen in a profile of the JPEG thumbnail).
extension BinaryFloatingPoint {
    /// This value limited to `lower…upper`; NaN gives `lower`. The result is never NaN or
    /// infinite when both bounds are finite.
    @inlinable @inline(__always)
    package func clamped(_ lower: Self, _ upper: Self) -> Self {
        guard !isNaN else { return lower }
        return self < lower ? lower : (self > upper ? upper : self)
    }

    /// A stored float sample as the pipeline reads it: NaN → 0, +∞ → 1, −∞ → 0, every finite
    /// value unchanged (values above 1 and below 0 stay until they are quantised).
    @inlinable @inline(__always)
    package var finiteSample: Self {
        if isNaN { return 0 }
        if isInfinite { return self > 0 ? 1 : 0 }
        return self
    }
}
