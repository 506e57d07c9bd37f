import Foundation

/// Watches one input at a time and calls `onHang` (from its own thread) when an input takes
/// longer than `timeout` seconds.
public final class HangWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (index: Int, seed: String, started: Date)?
    private let timeout: Double

    /// Starts the watching thread; `onHang` gets the input number and its seed's name.
    public init(timeout: Double, onHang: @escaping @Sendable (_ index: Int, _ seed: String) -> Void) {
        self.timeout = timeout
        let thread = Thread { [weak self] in
            while let self {
                Thread.sleep(forTimeInterval: 0.5)
                self.lock.lock()
                let c = self.current
                self.lock.unlock()
                if let c, Date().timeIntervalSince(c.started) > self.timeout { onHang(c.index, c.seed) }
            }
        }
        thread.start()
    }

    /// Input `index` (made from `seed`) starts decoding.
    public func begin(_ index: Int, seed: String) {
        lock.lock(); current = (index, seed, Date()); lock.unlock()
    }

    /// The current input is done.
    public func end() {
        lock.lock(); current = nil; lock.unlock()
    }
}
