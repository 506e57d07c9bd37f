import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// ``RowPrefetcher`` is freed once its rows are read and it is stopped: it once kept its own
/// thread, whose closure kept it, so every streamed resize leaked its batch buffers (found by
/// LeakSanitizer in `imglab fuzz --pipeline resize`: memory grew with the number of inputs).
@Suite("row prefetcher")
struct RowPrefetcherTests {
    @Test("a prefetcher that delivered every row, or was stopped early, is freed", arguments: [true, false])
    func freedAfterUse(readAll: Bool) throws {
        let bitmap = try Bitmap(width: 16, height: 40, format: .rgba8, bytes: [UInt8](repeating: 7, count: 16 * 40 * 4))
        weak var released: RowPrefetcher?
        do {
            let prefetcher = RowPrefetcher(reader: BitmapRowReader(bitmap), stride: bitmap.bytesPerRow, batchRows: 8, rowsToRead: 40)
            released = prefetcher
            var rows = 0
            while let batch = try prefetcher.next() {
                rows += batch.count
                prefetcher.recycle(batch)
                if !readAll { break }
            }
            prefetcher.stop()
            #expect(rows == (readAll ? 40 : 8))
        }
        // The producer thread lets go of it when it returns, which stop() waited for; allow it
        // a moment to unwind its closure.
        let deadline = Date().addingTimeInterval(5)
        while released != nil && Date() < deadline { usleep(1000) }
        #expect(released == nil, "the prefetcher outlived its use")
    }
}
