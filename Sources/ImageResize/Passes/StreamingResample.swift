import Foundation
import ImageCore
import ImageCodecs

/// The production resampler: rows stream in from a ``RowReader``, are converted to the
/// premultiplied float working form, filtered horizontally, and kept in a ring buffer only as
/// long as some output row's vertical window needs them. Memory therefore grows with the
/// output width and the kernel's window, not with the input: a 12000×8000 source costs a few
/// rows of floats.
///
/// Same geometry and weights as ``Resample`` (``Coefficients``); the horizontal pass of each
/// batch of rows is spread over the cores in fixed bands, so results do not depend on the
/// number of threads. Agrees with ``Resample`` + ``WorkingImage`` to within one 8-bit code.
public enum StreamingResample {
    /// Rows read and filtered per batch.
    static let batchRows = 32

    /// Resamples the rows of `reader` (or its `source` rectangle, in input pixels) to
    /// `width × height` pixels of `format`. The reader's orientation is not applied: the result
    /// has the reader's stored orientation.
    public static func resample(_ reader: any RowReader, width: Int, height: Int, kernel: Kernel,
                                lightSpace: LightSpace, format: PixelFormat,
                                source: (x: Double, y: Double, width: Double, height: Double)? = nil) throws -> Bitmap {
        try OutputLimits.check(width: width, height: height)
        let inWidth = reader.width, inHeight = reader.height
        let src = source ?? (0, 0, Double(inWidth), Double(inHeight))
        let horizontalIdentity = width == inWidth && src.x == 0 && src.width == Double(inWidth)
        let verticalIdentity = height == inHeight && src.y == 0 && src.height == Double(inHeight)
        let xc = horizontalIdentity ? nil : Coefficients(inputSize: inWidth, sourceStart: src.x, sourceLength: src.width, outputSize: width, kernel: kernel)
        let yc = verticalIdentity ? nil : Coefficients(inputSize: inHeight, sourceStart: src.y, sourceLength: src.height, outputSize: height, kernel: kernel)
        let lastNeededRow = yc.map { $0.windows.last?.upperBound ?? inHeight } ?? inHeight

        let input = InputRowConverter(format: reader.format, width: inWidth, lightSpace: lightSpace)
        let output = OutputRowConverter(format: format, width: width, lightSpace: lightSpace)
        let inStride = reader.format.minimumBytesPerRow(width: inWidth)
        let outStride = format.minimumBytesPerRow(width: width)
        let maxWindow = yc.map { c in c.windows.map(\.count).max() ?? 1 } ?? 1
        let ringRows = maxWindow + batchRows
        let rowFloats = width * 4

        var result = [UInt8](repeating: 0, count: outStride * height)
        var ring = [Float](repeating: 0, count: ringRows * rowFloats)
        var scratch = [Float](repeating: 0, count: inWidth * 4 * batchRows)
        var vertical = [Float](repeating: 0, count: rowFloats)
        var nextInput = 0, nextOutput = 0

        let prefetcher = RowPrefetcher(reader: reader, stride: inStride, batchRows: batchRows, rowsToRead: lastNeededRow)
        defer { prefetcher.stop() }
        while let batch = try prefetcher.next() {
            let got = batch.count, firstRow = batch.firstRow
            // Convert and filter the batch horizontally, bands of rows per core.
            let rows = prefetcher.rows(batch)
            scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                ring.withUnsafeMutableBufferPointer { ringBuffer in
                    let rowsBase = UncheckedSendable(rows), scratchBase = UncheckedSendable(scratchBuffer), ringBase = UncheckedSendable(ringBuffer)
                    Resample.forEachRow(got) { i in
                        let converted = scratchBase.value.baseAddress! + i * inWidth * 4
                        input.convert(rowsBase.value.baseAddress! + i * inStride, into: converted)
                        let slot = ringBase.value.baseAddress! + ((firstRow + i) % ringRows) * rowFloats
                        if let xc {
                            horizontal(converted, xc, into: slot)
                        } else {
                            slot.update(from: converted, count: rowFloats)
                        }
                    }
                }
            }
            prefetcher.recycle(batch)
            nextInput = firstRow + got
            // Emit every output row whose window is complete.
            while nextOutput < height {
                let window = yc.map { $0.windows[nextOutput] } ?? (nextOutput..<(nextOutput + 1))
                guard window.upperBound <= nextInput else { break }
                ring.withUnsafeBufferPointer { ringBuffer in
                    vertical.withUnsafeMutableBufferPointer { out in
                        let base = out.baseAddress!
                        if let yc {
                            for k in 0..<rowFloats { base[k] = 0 }
                            var wi = nextOutput * yc.windowSize
                            for j in window {
                                let w = yc.weights[wi]
                                let row = ringBuffer.baseAddress! + (j % ringRows) * rowFloats
                                for k in 0..<rowFloats { base[k] += w * row[k] }
                                wi += 1
                            }
                        } else {
                            base.update(from: ringBuffer.baseAddress! + (nextOutput % ringRows) * rowFloats, count: rowFloats)
                        }
                    }
                }
                result.withUnsafeMutableBytes { bytes in
                    vertical.withUnsafeBufferPointer { output.convert($0.baseAddress!, into: bytes.baseAddress! + nextOutput * outStride) }
                }
                nextOutput += 1
            }
        }
        guard nextOutput == height else {
            throw DecodeError.truncated(reader.container, reason: "the decoder delivered \(nextInput) of \(inHeight) rows", offset: nil)
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: outStride, bytes: result)
    }

    /// One row through the horizontal coefficients.
    @inline(__always)
    static func horizontal(_ row: UnsafeMutablePointer<Float>, _ c: Coefficients, into out: UnsafeMutablePointer<Float>) {
        c.weights.withUnsafeBufferPointer { weights in
            for i in 0..<c.outputSize {
                let window = c.windows[i]
                var sum = SIMD4<Float>(repeating: 0)
                var wi = i * c.windowSize
                var p = window.lowerBound * 4
                for _ in window {
                    let px = UnsafeRawPointer(row + p).loadUnaligned(as: SIMD4<Float>.self)
                    sum += weights[wi] * px
                    wi += 1
                    p += 4
                }
                out[4 * i] = sum.x; out[4 * i + 1] = sum.y; out[4 * i + 2] = sum.z; out[4 * i + 3] = sum.w
            }
        }
    }
}
