import ImageCore

/// How ``StreamingResample`` lays out a resample, and the bytes it holds at once: chosen from the
/// sizes alone (the header's), so a request is refused before anything is allocated when it
/// would not fit the memory budget, whatever the image's shape.
///
/// - Rows are read and filtered in batches of ``batchRows``: as many as fit ``batchBytes`` of
///   stored rows or float rows, at most 32 (or as many as make 64 KiB when rows are tiny: a
///   1-pixel-wide image is read 4,096 rows at a time), at least one.
/// - A row is converted to floats ``chunkPixels`` at a time (16 bytes a pixel), so a
///   2,000,000-pixel row costs one chunk of floats, not 32 MB.
/// - The vertical filter keeps either a ring of filtered rows as long as a window
///   (``Vertical/ring``, best when enlarging) or one running sum per output row whose window is
///   open (``Vertical/runningSums``, best when reducing: about seven rows for Lanczos 3 at any
///   scale), whichever is smaller.
/// - Weight tables (``Coefficients``) are kept up to ``weightTableLimit`` floats an axis;
///   beyond, weights are computed when read.
public struct StreamingPlan: Sendable, Equatable {
    /// The vertical filter's form.
    public enum Vertical: Sendable, Equatable {
        /// A ring of ``StreamingPlan/verticalRows`` filtered rows.
        case ring
        /// ``StreamingPlan/verticalRows`` partial output rows, and a batch of filtered rows.
        case runningSums
        /// The height does not change: filtered rows go out as they come.
        case none
    }

    /// Bytes of stored or float rows a batch aims at.
    public static let batchBytes = 8 << 20
    /// Input pixels converted to floats at a time; a multiple of 8, so that a chunk of a format
    /// under 8 bits a pixel starts on a byte.
    public static let chunkPixels = 1 << 16
    /// The most floats a weight table of one axis holds (16 MiB).
    public static let weightTableLimit = 1 << 22

    /// Rows read and filtered per batch.
    public let batchRows: Int
    /// Input pixels converted at a time (the row's width when narrower than ``chunkPixels``).
    public private(set) var chunkPixels: Int
    /// The vertical filter's form.
    public private(set) var vertical: Vertical
    /// Rows of the ring, or running sums (output width × 16 bytes each).
    public var verticalRows: Int { vertical == .ring ? ringRows : vertical == .runningSums ? sumRows : 0 }
    /// The most floats a weight table holds (``weightTableLimit``).
    public private(set) var weightTableFloats = StreamingPlan.weightTableLimit
    /// Rows a ring needs: the longest window and a batch.
    private let ringRows: Int
    /// Running sums needed: the most output rows whose windows share an input row.
    private let sumRows: Int
    /// Bytes held at once: the reader's row buffers (two rows, as a PNG decoder keeps the previous
    /// row), the prefetcher's three batches of stored rows, the float chunks, the weight tables,
    /// the vertical filter's rows and the delivered bitmap; `Int.max` when the count overflows.
    public let bytes: Int

    /// The plan of resampling `source` (input pixels) of an `inputWidth × inputHeight` image of
    /// `inputFormat` to `outputWidth × outputHeight` pixels of `outputFormat` with `kernel`.
    public init(inputWidth: Int, inputHeight: Int, inputFormat: PixelFormat, outputWidth: Int, outputHeight: Int,
                outputFormat: PixelFormat, kernel: Kernel, source: (x: Double, y: Double, width: Double, height: Double)? = nil) {
        let src = source ?? (0, 0, Double(inputWidth), Double(inputHeight))
        let inStride = inputFormat.minimumBytesPerRow(width: inputWidth)
        let chunk = min(max(inputWidth, 1), Self.chunkPixels)
        let rowCost = max(inStride, chunk * 16, 1)
        batchRows = max(1, min(Self.batchBytes / rowCost, max(32, (64 << 10) / rowCost)))
        chunkPixels = chunk
        let horizontalIdentity = outputWidth == inputWidth && src.x == 0 && src.width == Double(inputWidth)
        let verticalIdentity = outputHeight == inputHeight && src.y == 0 && src.height == Double(inputHeight)
        ringRows = Coefficients.windowSize(sourceLength: src.height, outputSize: outputHeight, kernel: kernel) + batchRows
        sumRows = Coefficients.sharingOutputs(sourceLength: src.height, outputSize: outputHeight, kernel: kernel)
        vertical = verticalIdentity ? .none : ringRows <= sumRows + batchRows ? .ring : .runningSums
        let verticalRows = vertical == .ring ? ringRows : vertical == .runningSums ? sumRows : 0
        func table(_ length: Double, _ size: Int) -> Int {
            let floats = Coefficients.tableFloats(sourceLength: length, outputSize: size, kernel: kernel)
            return (floats <= Self.weightTableLimit ? floats * 4 : 0) + size * 40  // windows, centres, totals
        }
        let floatRows: Int
        switch vertical {
        case .ring: floatRows = verticalRows + 1
        case .runningSums: floatRows = verticalRows + batchRows
        case .none: floatRows = batchRows
        }
        let terms: [(Int, Int)] = [
            (inStride, 2 + 3 * batchRows),
            (horizontalIdentity ? 0 : chunk * 16, batchRows),
            (horizontalIdentity ? 0 : table(src.width, outputWidth), 1),
            (verticalIdentity ? 0 : table(src.height, outputHeight), 1),
            (outputWidth * 16, floatRows),
            (outputFormat.minimumBytesPerRow(width: outputWidth), outputHeight),
        ]
        var total = 0, overflow = false
        for (a, b) in terms {
            let (product, o1) = a.multipliedReportingOverflow(by: b)
            let (sum, o2) = total.addingReportingOverflow(product)
            overflow = overflow || o1 || o2
            total = sum
        }
        bytes = overflow ? .max : total
    }

    /// This plan with another chunk width, vertical form or weight table limit (tests compare
    /// the forms, which must give the same bytes); ``bytes`` is left as planned.
    func forcing(chunkPixels chunk: Int? = nil, vertical form: Vertical? = nil, weightTableFloats limit: Int? = nil) -> StreamingPlan {
        var plan = self
        if let chunk { plan.chunkPixels = max(8, chunk / 8 * 8) }
        if let form, vertical != .none, form != .none { plan.vertical = form }
        if let limit { plan.weightTableFloats = limit }
        return plan
    }
}
