import Foundation
import ImageCodecs

/// Decodes batches of rows on a thread of its own while the caller filters the previous
/// batch, so decoding (inflate, IDCT) overlaps resampling. A fixed pool of batch buffers
/// bounds the memory; batches come out in order, so results do not depend on timing.
final class RowPrefetcher: @unchecked Sendable {
    /// One filled buffer: `count` rows starting at input row `firstRow`.
    struct Batch {
        var buffer: Int
        var firstRow: Int
        var count: Int
    }

    private let reader: any RowReader
    private let stride: Int
    private let batchRows: Int
    private let rowsToRead: Int
    private var buffers: [UnsafeMutableRawBufferPointer]
    private let condition = NSCondition()
    private var free: [Int]
    private var filled: [Batch] = []
    private var failure: Error?
    private var finished = false
    private var cancelled = false

    /// Starts decoding the first `rowsToRead` rows of `reader` into `bufferCount` buffers.
    init(reader: any RowReader, stride: Int, batchRows: Int, rowsToRead: Int, bufferCount: Int = 3) {
        self.reader = reader
        self.stride = stride
        self.batchRows = batchRows
        self.rowsToRead = rowsToRead
        buffers = (0..<bufferCount).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: max(stride * batchRows, 1), alignment: 16)
        }
        free = Array(0..<bufferCount)
        // The thread holds this prefetcher until it returns; the prefetcher must not hold the
        // thread (a Thread keeps its closure), or neither is ever freed (LeakSanitizer found it).
        let thread = Thread { [self] in produce() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        buffers.forEach { $0.deallocate() }
    }

    /// The rows of a filled batch's buffer.
    func rows(_ batch: Batch) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffers[batch.buffer]) }

    /// The next batch in order, nil at the end; rethrows the decoder's error.
    func next() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while filled.isEmpty && failure == nil && !finished { condition.wait() }
        if !filled.isEmpty { return filled.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Gives a batch's buffer back to the decoder thread.
    func recycle(_ batch: Batch) {
        condition.lock()
        free.append(batch.buffer)
        condition.signal()
        condition.unlock()
    }

    /// Stops the decoder thread and waits for it, so the reader is no longer used.
    func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished && failure == nil { condition.wait() }
        condition.unlock()
    }

    private func produce() {
        var nextRow = 0
        while true {
            condition.lock()
            while free.isEmpty && !cancelled { condition.wait() }
            if cancelled || nextRow >= rowsToRead {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let buffer = free.removeFirst()
            condition.unlock()
            let wanted = min(batchRows, rowsToRead - nextRow)
            let result: Result<Int, Error>
            do { result = .success(try reader.readRows(into: buffers[buffer], stride: stride, count: wanted)) }
            catch { result = .failure(error) }
            condition.lock()
            switch result {
            case .success(let got) where got > 0:
                filled.append(Batch(buffer: buffer, firstRow: nextRow, count: got))
                nextRow += got
            case .success:
                failure = DecodeError.truncated(reader.container, reason: "the decoder delivered \(nextRow) of \(rowsToRead) rows", offset: nil)
            case .failure(let error):
                failure = error
            }
            let stop = failure != nil
            condition.broadcast()
            condition.unlock()
            if stop { return }
        }
    }
}
