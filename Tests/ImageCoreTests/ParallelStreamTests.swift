import Foundation
import Testing
import ImageCore

@Suite("Parallel stream: results handed over in index order")
struct ParallelStreamTests {
    /// What the consumer saw and how far the workers ran ahead of it.
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var delivered: [Int] = []
        var started = 0
        var mostAhead = 0
        func start() { lock.lock(); started += 1; mostAhead = max(mostAhead, started - delivered.count); lock.unlock() }
        func deliver(_ i: Int) { lock.lock(); delivered.append(i); lock.unlock() }
    }

    @Test("results that finish out of order (later ones first) are handed over 0, 1, 2, … once each", arguments: [1, 2, 4])
    func inOrder(threads: Int) throws {
        let count = 60, log = Log()
        // Index i sleeps (9 − i mod 10) ms: within each run of ten, later indices finish first.
        try ParallelStream.run(count, threads: threads, { i -> Int in
            log.start()
            usleep(UInt32(9 - i % 10) * 1000)
            return i * i
        }, deliver: { i, square in
            #expect(square == i * i)
            log.deliver(i)
        })
        #expect(log.delivered == Array(0..<count))
    }

    @Test("no result is started more than the window ahead of the last one handed over")
    func window() throws {
        let log = Log()
        // Index 0 is the slowest, so the other thread runs ahead until the window (4) stops it.
        try ParallelStream.run(40, threads: 2, window: 4, { i -> Int in
            log.start()
            if i == 0 { usleep(50_000) }
            return i
        }, deliver: { i, _ in log.deliver(i) })
        #expect(log.delivered == Array(0..<40))
        #expect(log.mostAhead <= 4)
    }

    struct Refused: Error {}

    @Test("an error from the consumer stops the stream, is rethrown, and nothing after it is handed over")
    func consumerError() {
        let log = Log()
        #expect(throws: Refused.self) {
            try ParallelStream.run(100, threads: 2, window: 8, { i in i }, deliver: { i, _ in
                if i == 5 { throw Refused() }
                log.deliver(i)
            })
        }
        #expect(log.delivered == [0, 1, 2, 3, 4])
        // At most the window past index 5 was started before the error stopped the workers.
        #expect(log.started <= 6 + 8)
    }

    @Test("an empty stream hands nothing over")
    func empty() throws {
        let log = Log()
        try ParallelStream.run(0, threads: 4, { i in i }, deliver: { i, _ in log.deliver(i) })
        #expect(log.delivered.isEmpty)
    }
}
