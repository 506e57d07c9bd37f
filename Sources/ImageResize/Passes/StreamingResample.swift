import Foundation
import ImageCore
import ImageCodecs

/// The production resampler: rows stream in from a ``RowReader``, are converted to the
/// premultiplied float working form, filtered horizontally, and passed to the vertical filter,
/// which keeps only what some unfinished output row still needs. Memory therefore grows with
/// the output width and the kernel's window, not with the input, whatever its shape
/// (``StreamingPlan``): a 12000×8000 source costs a few rows of floats, a 2,000,000×1 one a
/// chunk of its only row, a 1×16,000,000 one a few running sums.
///
/// Same geometry and weights as ``Resample`` (``Coefficients``), and the same sums in the same
/// order, so the vertical filter's two forms and a row's chunks give the same floats; the
/// horizontal pass of each batch of rows is spread over the cores in fixed bands, so results
/// do not depend on the number of threads. Agrees with ``Resample`` + ``WorkingImage`` to
/// within one 8-bit code.
public enum StreamingResample {
    /// Resamples the rows of `reader` (or its `source` rectangle, in input pixels) to
    /// `width × height` pixels of `format`. The reader's orientation is not applied: the result
    /// has the reader's stored orientation.
    public static func resample(_ reader: any RowReader, width: Int, height: Int, kernel: Kernel,
                                lightSpace: LightSpace, format: PixelFormat,
                                source: (x: Double, y: Double, width: Double, height: Double)? = nil) throws -> Bitmap {
        try resample(reader, width: width, height: height, kernel: kernel, lightSpace: lightSpace, format: format,
                     source: source, plan: { $0 })
    }

    /// ``resample(_:width:height:kernel:lightSpace:format:source:)`` with the plan `adjusted` (tests).
    static func resample(_ reader: any RowReader, width: Int, height: Int, kernel: Kernel,
                         lightSpace: LightSpace, format: PixelFormat,
                         source: (x: Double, y: Double, width: Double, height: Double)?,
                         plan adjusted: (StreamingPlan) -> StreamingPlan) throws -> Bitmap {
        try OutputLimits.check(width: width, height: height)
        let inWidth = reader.width, inHeight = reader.height
        let src = source ?? (0, 0, Double(inWidth), Double(inHeight))
        let plan = adjusted(StreamingPlan(inputWidth: inWidth, inputHeight: inHeight, inputFormat: reader.format,
                                          outputWidth: width, outputHeight: height, outputFormat: format, kernel: kernel, source: src))
        let horizontalIdentity = width == inWidth && src.x == 0 && src.width == Double(inWidth)
        let verticalIdentity = height == inHeight && src.y == 0 && src.height == Double(inHeight)
        let limit = plan.weightTableFloats
        let xc = horizontalIdentity ? nil : Coefficients(inputSize: inWidth, sourceStart: src.x, sourceLength: src.width,
                                                         outputSize: width, kernel: kernel, tableLimit: limit)
        let yc = verticalIdentity ? nil : Coefficients(inputSize: inHeight, sourceStart: src.y, sourceLength: src.height,
                                                       outputSize: height, kernel: kernel, tableLimit: limit)
        let lastNeededRow = yc.map { $0.windows.last?.upperBound ?? inHeight } ?? inHeight

        let input = InputRowConverter(format: reader.format, width: inWidth, lightSpace: lightSpace)
        let output = OutputRowConverter(format: format, width: width, lightSpace: lightSpace)
        let inStride = reader.format.minimumBytesPerRow(width: inWidth)
        let outStride = format.minimumBytesPerRow(width: width)
        let batchRows = plan.batchRows, chunk = plan.chunkPixels
        let rowFloats = width * 4
        // Ring: filtered rows kept while an output row's window needs them (enlarging). Running
        // sums: one partial output row per output whose window is open (reducing); the batch's
        // filtered rows wait in `filtered` until added.
        let ringRows = plan.vertical == .ring ? plan.verticalRows : 0
        let sumRows = plan.vertical == .runningSums ? plan.verticalRows : 0

        var result = [UInt8](repeating: 0, count: outStride * height)
        var ring = [Float](repeating: 0, count: ringRows * rowFloats)
        var filtered = [Float](repeating: 0, count: ringRows > 0 ? 0 : batchRows * rowFloats)
        var sums = [Float](repeating: 0, count: sumRows * rowFloats)
        var scratch = [Float](repeating: 0, count: xc == nil ? 0 : chunk * 4 * batchRows)
        var vertical = [Float](repeating: 0, count: ringRows > 0 ? rowFloats : 0)
        var nextInput = 0, nextOutput = 0

        func emit(_ row: UnsafePointer<Float>) {
            result.withUnsafeMutableBytes { output.convert(row, into: $0.baseAddress! + nextOutput * outStride) }
            nextOutput += 1
        }

        let prefetcher = RowPrefetcher(reader: reader, stride: inStride, batchRows: batchRows, rowsToRead: lastNeededRow)
        defer { prefetcher.stop() }
        while let batch = try prefetcher.next() {
            let got = batch.count, firstRow = batch.firstRow
            // Convert and filter the batch horizontally, bands of rows per core.
            let rows = prefetcher.rows(batch)
            func filter(into target: inout [Float]) {
                scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                    target.withUnsafeMutableBufferPointer { targetBuffer in
                        let rowsBase = UncheckedSendable(rows), scratchBase = UncheckedSendable(scratchBuffer)
                        let targetBase = UncheckedSendable(targetBuffer)
                        Resample.forEachRow(got) { i in
                            let stored = rowsBase.value.baseAddress! + i * inStride
                            let slotIndex = ringRows > 0 ? (firstRow + i) % ringRows : i
                            let slot = targetBase.value.baseAddress! + slotIndex * rowFloats
                            if let xc {
                                let converted = scratchBase.value.baseAddress! + i * chunk * 4
                                horizontal(stored, input, xc, chunk: chunk, converted: converted, into: slot)
                            } else {
                                for c0 in stride(from: 0, to: inWidth, by: chunk) {
                                    input.convert(stored, pixels: c0..<min(c0 + chunk, inWidth), into: slot + 4 * c0)
                                }
                            }
                        }
                    }
                }
            }
            if ringRows > 0 { filter(into: &ring) } else { filter(into: &filtered) }
            prefetcher.recycle(batch)
            nextInput = firstRow + got
            if let yc, ringRows > 0 {
                // Emit every output row whose window is complete.
                while nextOutput < height {
                    let window = yc.windows[nextOutput]
                    guard window.upperBound <= nextInput else { break }
                    ring.withUnsafeBufferPointer { ringBuffer in
                        vertical.withUnsafeMutableBufferPointer { out in
                            let base = out.baseAddress!
                            for k in 0..<rowFloats { base[k] = 0 }
                            for j in window {
                                let w = yc.weight(nextOutput, j)
                                let row = ringBuffer.baseAddress! + (j % ringRows) * rowFloats
                                for k in 0..<rowFloats { base[k] += w * row[k] }
                            }
                        }
                    }
                    vertical.withUnsafeBufferPointer { emit($0.baseAddress!) }
                }
            } else if let yc {
                // Add each row to the open outputs whose windows hold it, in row order (the
                // ring's sums, term for term); emit each output whose window it closes.
                filtered.withUnsafeBufferPointer { rowsBuffer in
                    sums.withUnsafeMutableBufferPointer { sumsBuffer in
                        for r in 0..<got {
                            let j = firstRow + r
                            let row = rowsBuffer.baseAddress! + r * rowFloats
                            var i = nextOutput
                            while i < min(height, nextOutput + sumRows) {
                                let window = yc.windows[i]
                                if window.lowerBound > j { break }
                                if j < window.upperBound {
                                    let sum = sumsBuffer.baseAddress! + (i % sumRows) * rowFloats
                                    if j == window.lowerBound { for k in 0..<rowFloats { sum[k] = 0 } }
                                    let w = yc.weight(i, j)
                                    for k in 0..<rowFloats { sum[k] += w * row[k] }
                                }
                                i += 1
                            }
                            while nextOutput < height && yc.windows[nextOutput].upperBound <= j + 1 {
                                emit(sumsBuffer.baseAddress! + (nextOutput % sumRows) * rowFloats)
                            }
                        }
                    }
                }
            } else {
                filtered.withUnsafeBufferPointer { rowsBuffer in
                    for r in 0..<got { emit(rowsBuffer.baseAddress! + r * rowFloats) }
                }
            }
        }
        guard nextOutput == height else {
            throw DecodeError.truncated(reader.container, reason: "the decoder delivered \(nextInput) of \(inHeight) rows", offset: nil)
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: outStride, bytes: result)
    }

    /// One stored row through the horizontal coefficients `c`, converted `chunk` input pixels at
    /// a time into `converted`: each output pixel's sum continues across chunks in input order,
    /// so a row in one chunk and a row in many give the same floats.
    @inline(__always)
    static func horizontal(_ stored: UnsafeRawPointer, _ input: InputRowConverter, _ c: Coefficients, chunk: Int,
                           converted: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let inWidth = input.width
        let lastNeeded = c.windows.last?.upperBound ?? inWidth
        var first = 0  // the first output pixel whose window may reach the current chunk
        var c0 = c.windows.first.map { $0.lowerBound / chunk * chunk } ?? 0
        c.weights.withUnsafeBufferPointer { weights in
            while c0 < lastNeeded && first < c.outputSize {
                let c1 = min(c0 + chunk, inWidth)
                input.convert(stored, pixels: c0..<c1, into: converted)
                var i = first
                while i < c.outputSize {
                    let window = c.windows[i]
                    if window.lowerBound >= c1 { break }
                    if window.upperBound <= c0 {
                        if i == first { first += 1 }
                        i += 1
                        continue
                    }
                    let lo = max(window.lowerBound, c0), hi = min(window.upperBound, c1)
                    var sum = window.lowerBound >= c0 ? SIMD4<Float>(repeating: 0)
                        : SIMD4<Float>(out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3])
                    var p = (lo - c0) * 4
                    if weights.isEmpty {
                        for j in lo..<hi {
                            let px = UnsafeRawPointer(converted + p).loadUnaligned(as: SIMD4<Float>.self)
                            sum += c.weight(i, j) * px
                            p += 4
                        }
                    } else {
                        var wi = i * c.windowSize + lo - window.lowerBound
                        for _ in lo..<hi {
                            let px = UnsafeRawPointer(converted + p).loadUnaligned(as: SIMD4<Float>.self)
                            sum += weights[wi] * px
                            wi += 1
                            p += 4
                        }
                    }
                    out[4 * i] = sum.x; out[4 * i + 1] = sum.y; out[4 * i + 2] = sum.z; out[4 * i + 3] = sum.w
                    i += 1
                }
                c0 = c1
            }
        }
    }
}
