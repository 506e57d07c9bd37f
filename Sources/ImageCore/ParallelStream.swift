import Foundation

/// Computes `count` independent results on several threads and hands each one over in index
/// order as soon as every earlier one has been: the consumer sees 0, 1, 2, … whatever the
/// thread count or the order in which the results finish, and only the results finished ahead
/// of an unfinished earlier one are held (at most ``window`` at a time: a worker waits before
/// starting a result that far ahead of the last one handed over). So memory does not grow
/// with `count`, and the output is the same for any thread count.
public enum ParallelStream {
    /// The default bound on results computed ahead of the last one handed over, per thread.
    public static let windowPerThread = 16

    private final class State<T>: @unchecked Sendable {
        let condition = NSCondition()
        /// The next index to start.
        var next = 0
        /// The next index to hand over.
        var delivered = 0
        /// Finished results waiting for an earlier one.
        var waiting: [Int: T] = [:]
        /// Whether a thread is handing results over (only one does at a time).
        var delivering = false
        /// The first error the consumer threw; no result is started or handed over after it.
        var failure: (any Error)?
    }

    /// `body(i)` for i in 0..<count on up to `threads` threads; `deliver(i, result)` is called
    /// once per index, serially and in index order, on whichever worker thread finished the
    /// result that made it due. `window` bounds the results computed but not yet handed over
    /// (default ``windowPerThread`` × threads).
    /// - Throws: the first error `deliver` threw; nothing is started or delivered after it.
    public static func run<T: Sendable>(_ count: Int, threads: Int, window: Int? = nil, _ body: @escaping @Sendable (Int) -> T,
                                        deliver: @escaping @Sendable (Int, T) throws -> Void) throws {
        let state = State<T>()
        let workers = max(1, min(threads, count))
        let ahead = max(1, window ?? windowPerThread * workers)
        let c = state.condition
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                c.lock()
                while state.failure == nil, state.next < count, state.next - state.delivered >= ahead { c.wait() }
                guard state.failure == nil, state.next < count else { c.unlock(); return }
                let i = state.next
                state.next += 1
                c.unlock()

                let value = body(i)

                c.lock()
                state.waiting[i] = value
                if state.delivering { c.unlock(); continue }
                state.delivering = true
                while state.failure == nil, let due = state.waiting.removeValue(forKey: state.delivered) {
                    let k = state.delivered
                    c.unlock()
                    var thrown: (any Error)?
                    do { try deliver(k, due) } catch { thrown = error }
                    c.lock()
                    if let thrown { state.failure = thrown; state.waiting.removeAll() }
                    state.delivered += 1
                    c.broadcast()
                }
                state.delivering = false
                c.unlock()
            }
        }
        if let failure = state.failure { throw failure }
    }
}
