/// A preallocated output buffer that parallel jobs fill in disjoint ranges (fixed bands of
/// rows), so a band-parallel pass writes its result in place instead of concatenating per-band
/// copies (which would hold the output twice at the peak). Each index must be written by one job
/// only, and the buffer read only after ``Parallel/map(_:_:)`` returns.
struct BandOutput<Element>: @unchecked Sendable {
    /// Start of the buffer; valid while the owning array's `withUnsafeMutableBufferPointer` runs.
    let base: UnsafeMutablePointer<Element>
}
