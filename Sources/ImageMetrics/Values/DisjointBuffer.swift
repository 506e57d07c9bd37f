/// A mutable buffer that concurrent jobs write in disjoint ranges (each job its own rows), for
/// the band-parallel passes that fill one output array (``ValueImage`` samples). The caller
/// guarantees the ranges never overlap and keeps the owning array alive and unmoved (inside its
/// `withUnsafeMutableBufferPointer`) until every job has finished.
struct DisjointBuffer<Element>: @unchecked Sendable {
    /// The owning array's elements (nil when it is empty: nothing is written then).
    let base: UnsafeMutablePointer<Element>?
    /// Number of elements.
    let count: Int

    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    /// Elements `range` of the buffer, for one job to write.
    func slice(_ range: Range<Int>) -> UnsafeMutableBufferPointer<Element> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "slice out of the buffer")
        guard let base else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        return UnsafeMutableBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}
