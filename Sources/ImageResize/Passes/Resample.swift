import Foundation
import ImageCore

/// Separable resampling of the float working form: a horizontal pass, then a vertical pass,
/// each skipped when its axis does not change. Values are premultiplied RGBA, so colour under
/// α = 0 carries no weight. Rows are independent, so the result is identical whatever the
/// number of threads.
public enum Resample {
    /// Resamples `image` (or the `source` rectangle of it, in input pixels, fractional allowed)
    /// to `width × height`.
    public static func resample(_ image: WorkingImage, width: Int, height: Int, kernel: Kernel,
                                source: (x: Double, y: Double, width: Double, height: Double)? = nil) -> WorkingImage {
        let src = source ?? (0, 0, Double(image.width), Double(image.height))
        var current = image
        let horizontalChanges = width != image.width || src.x != 0 || src.width != Double(image.width)
        let verticalChanges = height != image.height || src.y != 0 || src.height != Double(image.height)
        if horizontalChanges {
            let c = Coefficients(inputSize: image.width, sourceStart: src.x, sourceLength: src.width, outputSize: width, kernel: kernel)
            current = horizontal(current, c)
        }
        if verticalChanges {
            let c = Coefficients(inputSize: image.height, sourceStart: src.y, sourceLength: src.height, outputSize: height, kernel: kernel)
            current = vertical(current, c)
        }
        return current
    }

    /// Applies `c` along x to every row.
    static func horizontal(_ input: WorkingImage, _ c: Coefficients) -> WorkingImage {
        var out = WorkingImage(width: c.outputSize, height: input.height, lightSpace: input.lightSpace)
        let inStride = input.width * 4, outStride = c.outputSize * 4
        input.pixels.withUnsafeBufferPointer { src in
            c.weights.withUnsafeBufferPointer { weights in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    let dstBase = UnsafeMutableBufferPointer(rebasing: dst[...])
                    forEachRow(input.height) { y in
                        let row = y * inStride, orow = y * outStride
                        for i in 0..<c.outputSize {
                            let window = c.windows[i]
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var wi = i * c.windowSize
                            var p = row + window.lowerBound * 4
                            for _ in window {
                                let w = weights[wi]
                                r += w * src[p]; g += w * src[p + 1]; b += w * src[p + 2]; a += w * src[p + 3]
                                wi += 1; p += 4
                            }
                            let o = orow + i * 4
                            dstBase[o] = r; dstBase[o + 1] = g; dstBase[o + 2] = b; dstBase[o + 3] = a
                        }
                    }
                }
            }
        }
        return out
    }

    /// Applies `c` along y to every column.
    static func vertical(_ input: WorkingImage, _ c: Coefficients) -> WorkingImage {
        var out = WorkingImage(width: input.width, height: c.outputSize, lightSpace: input.lightSpace)
        let stride = input.width * 4
        input.pixels.withUnsafeBufferPointer { src in
            c.weights.withUnsafeBufferPointer { weights in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    let dstBase = UnsafeMutableBufferPointer(rebasing: dst[...])
                    forEachRow(c.outputSize) { i in
                        let window = c.windows[i]
                        let orow = i * stride
                        for k in 0..<stride { dstBase[orow + k] = 0 }
                        var wi = i * c.windowSize
                        for j in window {
                            let w = weights[wi]
                            let row = j * stride
                            for k in 0..<stride { dstBase[orow + k] += w * src[row + k] }
                            wi += 1
                        }
                    }
                }
            }
        }
        return out
    }

    /// Runs `body` for every row, spread over the cores in fixed bands.
    static func forEachRow(_ rows: Int, _ body: (Int) -> Void) {
        let bands = min(rows, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard bands > 1 else { for y in 0..<rows { body(y) }; return }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let start = rows * band / bands, end = rows * (band + 1) / bands
                for y in start..<end { box.value(y) }
            }
        }
    }
}

/// Carries a value across a concurrency boundary the compiler cannot check (disjoint rows).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
