import ImageCore
import ImageCodecs

/// The memory a resize of a whole decoded image needs, from its size and the target size, so
/// a request is refused before the working buffers are allocated when it would exceed the
/// budget (`DecodeLimits.maxBytes`, `--max-memory`).
///
/// Counted from the buffers the resize allocates, in bytes: the file; the decoded image (every
/// frame of an animation) and its upright copy when it is not stored upright; then either the
/// streamed resample (what its ``StreamingPlan`` holds) or, for an indexed result (which takes the exact path),
/// the exact resample (a float copy of the source and of the horizontal pass, 16 bytes a pixel,
/// and both axes' weight tables); and the delivered bitmaps (target pixels × 8 a frame, 16-bit
/// RGBA at most) with a float row set (16 a pixel). An indexed *source* (a GIF) whose result is
/// not indexed streams like any other.
public enum ResizeMemory {
    /// The bytes resizing `image` to `target` pixels with `options` needs, the file's
    /// `fileBytes` included, or `Int.max` when the count overflows.
    public static func needed(_ image: Image, fileBytes: Int, target: (width: Int, height: Int), options: ResizeOptions) -> Int {
        let kernel = options.kernel
        let exact = options.deliveredFormat(natural: OutputFormat.result(for: image.format)).isIndexed
        let frames = max(image.frameCount, 1)
        let w = image.width, h = image.height, wide = max(w, target.width)
        var terms: [(Int, Int, Int)] = [
            (w, h, frames * (max(image.format.bitsPerPixel, 8) / 8 + 1)),
            (image.orientation == .up ? 0 : w, h, max(image.format.bitsPerPixel, 8) / 8 + 1),
            (target.width, target.height, 16 + 8 * frames),
        ]
        if exact {
            terms += [(w, h, 16), (wide, h, 16)]
            // The weight tables of both axes (the whole-image resample keeps them).
            for (length, size) in [(w, target.width), (h, target.height)] {
                terms.append((Coefficients.tableFloats(sourceLength: Double(length), outputSize: max(size, 1), kernel: kernel), 1, 4))
            }
        } else {
            // The upright image streamed through ``StreamingResample`` (what its plan holds; the
            // upright image itself is counted above).
            let shown = image.orientation.displaySize(width: w, height: h)
            let format = options.deliveredFormat(natural: OutputFormat.result(for: image.format))
            let plan = StreamingPlan(inputWidth: shown.width, inputHeight: shown.height, inputFormat: image.format,
                                     outputWidth: max(target.width, 1), outputHeight: max(target.height, 1),
                                     outputFormat: format, kernel: kernel)
            terms.append((plan.bytes, 1, 1))
        }
        var total = fileBytes
        for (a, b, bytes) in terms {
            let (pixels, o1) = a.multipliedReportingOverflow(by: b)
            let (product, o2) = pixels.multipliedReportingOverflow(by: bytes)
            guard !o1, !o2, !total.addingReportingOverflow(product).overflow else { return .max }
            total += product
        }
        return total
    }

    /// The bytes a streamed resize of `reader` (its `source` rectangle, in reader pixels) to
    /// `target` pixels of `format` needs: what ``StreamingPlan`` holds at once (the reader's
    /// rows, the batches, float chunks, weight tables, the vertical filter's rows and the
    /// delivered bitmap) and the upright copy of the bitmap when the reader is not stored upright;
    /// `Int.max` when the count overflows.
    public static func neededStreaming(_ reader: any RowReader, target: (width: Int, height: Int), format: PixelFormat,
                                       kernel: Kernel, source: (x: Double, y: Double, width: Double, height: Double)? = nil) -> Int {
        let plan = StreamingPlan(inputWidth: reader.width, inputHeight: reader.height, inputFormat: reader.format,
                                 outputWidth: target.width, outputHeight: target.height, outputFormat: format,
                                 kernel: kernel, source: source)
        let (upright, o1) = format.minimumBytesPerRow(width: target.width).multipliedReportingOverflow(by: target.height)
        let (total, o2) = plan.bytes.addingReportingOverflow(reader.orientation == .up ? 0 : upright)
        return o1 || o2 ? .max : total
    }

    /// Throws ``DecodeError/limitExceeded(_:requested:allowed:)`` (bytes) when a streamed resize
    /// (``neededStreaming(_:target:format:kernel:source:)``) would need more than
    /// `limits.maxBytes`; called before any row is decoded, so a header declaring a huge image,
    /// or a shape whose rows could never be held, costs nothing.
    public static func checkStreaming(_ reader: any RowReader, target: (width: Int, height: Int), format: PixelFormat,
                                      kernel: Kernel, source: (x: Double, y: Double, width: Double, height: Double)? = nil,
                                      limits: DecodeLimits) throws(DecodeError) {
        let bytes = neededStreaming(reader, target: target, format: format, kernel: kernel, source: source)
        guard bytes <= limits.maxBytes else { throw .limitExceeded(.bytes, requested: bytes, allowed: limits.maxBytes) }
    }

    /// Throws ``DecodeError/limitExceeded(_:requested:allowed:)`` (bytes) when resizing the
    /// decoded `image` to `target` would need more than `limits.maxBytes` in all; called
    /// after the decode (which kept to the budget) and before the working buffers exist.
    public static func check(_ image: Image, fileBytes: Int, target: (width: Int, height: Int), options: ResizeOptions,
                             limits: DecodeLimits) throws(DecodeError) {
        let bytes = needed(image, fileBytes: fileBytes, target: target, options: options)
        guard bytes <= limits.maxBytes else { throw .limitExceeded(.bytes, requested: bytes, allowed: limits.maxBytes) }
    }
}
