import ImageCore
import ImageCodecs

/// The memory a resize of a whole decoded image needs, from its size and the target size, so
/// a request is refused before the working buffers are allocated when it would exceed the
/// budget (`DecodeLimits.maxBytes`, `--max-memory`).
///
/// Counted from the buffers the resize allocates, in bytes: the file; the decoded image (every
/// frame of an animation) and its upright copy when it is not stored upright; then either the
/// streamed resample (``StreamingResample``: a ring of float rows as wide as the wider of source
/// and target, 16 bytes a pixel, as many rows as the kernel's reach covers, `2 · support` target
/// rows' worth of source rows plus two) or, for an indexed image, the exact resample (a float
/// copy of the source and of the horizontal pass, 16 bytes a pixel); and the delivered bitmaps
/// (target pixels × 8 a frame, 16-bit RGBA at most) with a float row set (16 a pixel).
public enum ResizeMemory {
    /// The bytes resizing `image` to `target` pixels with `kernel` needs, the file's
    /// `fileBytes` included, or `Int.max` when the count overflows.
    public static func needed(_ image: Image, fileBytes: Int, target: (width: Int, height: Int), kernel: Kernel) -> Int {
        let frames = max(image.frameCount, 1)
        let w = image.width, h = image.height, wide = max(w, target.width)
        let reach = Int((2 * kernel.support).rounded(.up)) * ((h + max(target.height, 1) - 1) / max(target.height, 1)) + 2
        var terms: [(Int, Int, Int)] = [
            (w, h, frames * (max(image.format.bitsPerPixel, 8) / 8 + 1)),
            (image.orientation == .up ? 0 : w, h, max(image.format.bitsPerPixel, 8) / 8 + 1),
            (target.width, target.height, 16 + 8 * frames),
        ]
        if image.format.isIndexed {
            terms += [(w, h, 16), (wide, h, 16)]
        } else {
            terms.append((wide, min(h, reach), 16))
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

    /// The bytes a streamed resize (a row reader into ``StreamingResample``) of a
    /// `width × height` source to `target` needs besides the reader's own band: the ring of
    /// float rows (as wide as the wider of source and target, 16 bytes a pixel, as many rows as
    /// the kernel's reach covers) and the delivered bitmap with its float rows (24 bytes a
    /// target pixel); `Int.max` when the count overflows.
    public static func neededStreaming(width: Int, height: Int, target: (width: Int, height: Int), kernel: Kernel) -> Int {
        let wide = max(width, target.width)
        let reach = Int((2 * kernel.support).rounded(.up)) * ((height + max(target.height, 1) - 1) / max(target.height, 1)) + 2
        var total = 0
        for (a, b, bytes) in [(wide, min(height, reach), 16), (target.width, target.height, 24)] {
            let (pixels, o1) = a.multipliedReportingOverflow(by: b)
            let (product, o2) = pixels.multipliedReportingOverflow(by: bytes)
            guard !o1, !o2, !total.addingReportingOverflow(product).overflow else { return .max }
            total += product
        }
        return total
    }

    /// Throws ``DecodeError/limitExceeded(_:requested:allowed:)`` (bytes) when a streamed resize
    /// (``neededStreaming(width:height:target:kernel:)``) would need more than `limits.maxBytes`;
    /// called before the ring of rows is allocated, so a header declaring a huge image costs
    /// nothing when its rows could never be held.
    public static func checkStreaming(width: Int, height: Int, target: (width: Int, height: Int), kernel: Kernel,
                                      limits: DecodeLimits) throws(DecodeError) {
        let bytes = neededStreaming(width: width, height: height, target: target, kernel: kernel)
        guard bytes <= limits.maxBytes else { throw .limitExceeded(.bytes, requested: bytes, allowed: limits.maxBytes) }
    }

    /// Throws ``DecodeError/limitExceeded(_:requested:allowed:)`` (bytes) when resizing the
    /// decoded `image` to `target` would need more than `limits.maxBytes` in all; called
    /// after the decode (which kept to the budget) and before the working buffers exist.
    public static func check(_ image: Image, fileBytes: Int, target: (width: Int, height: Int), kernel: Kernel,
                             limits: DecodeLimits) throws(DecodeError) {
        let bytes = needed(image, fileBytes: fileBytes, target: target, kernel: kernel)
        guard bytes <= limits.maxBytes else { throw .limitExceeded(.bytes, requested: bytes, allowed: limits.maxBytes) }
    }
}
