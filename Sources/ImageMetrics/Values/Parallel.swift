import Foundation

/// Runs independent jobs on every core and returns their results in job order, so a
/// reduction over the results is the same whatever the number of cores (determinism rule:
/// the work is split into a fixed number of jobs that does not depend on the machine).
enum Parallel {
    /// `body(i)` for i in 0..<count, concurrently; results in index order.
    static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let results = ResultSlots<T>(count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            results.set(i, body(i))
        }
        return results.values()
    }

    /// Splits `rows` into fixed bands of about `rowsPerBand` rows: the split depends only on the sizes.
    static func bands(rows: Int, rowsPerBand: Int) -> [Range<Int>] {
        let n = max(1, (rows + rowsPerBand - 1) / rowsPerBand)
        return (0..<n).map { b in (rows * b / n)..<(rows * (b + 1) / n) }
    }
}

/// Slots written once each from different threads (disjoint indices), read after all writes.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()
    init(_ count: Int) { slots = [T?](repeating: nil, count: count) }
    func set(_ i: Int, _ value: T) { lock.lock(); slots[i] = value; lock.unlock() }
    func values() -> [T] { slots.compactMap { $0 } }
}
