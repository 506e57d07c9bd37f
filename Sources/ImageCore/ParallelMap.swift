import Foundation

/// Computes `count` independent results on up to `threads` threads. Each result lands at its
/// own index, so the output is the same whatever the thread count or scheduling.
public enum ParallelMap {
    private final class Slots<T>: @unchecked Sendable {
        var values: [T?]
        var next = 0
        let lock = NSLock()
        init(_ count: Int) { values = Array(repeating: nil, count: count) }
        func claim() -> Int { lock.lock(); defer { lock.unlock() }; next += 1; return next - 1 }
        func store(_ i: Int, _ v: T) { lock.lock(); values[i] = v; lock.unlock() }
    }

    /// `body(i)` for i in 0..<count, on up to `threads` threads; results in index order.
    public static func run<T: Sendable>(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Slots<T>(count)
        let workers = max(1, min(threads, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = slots.claim()
                guard i < count else { return }
                slots.store(i, body(i))
            }
        }
        return slots.values.map { $0! }
    }
}
