import ImageCodecs

/// The largest result an operation makes, checked before any pixel of it is allocated.
///
/// The pixel limit is the decoders' default (``DecodeLimits/default``), so nothing is made that
/// imglab could not read back. The side limit is its own: 65,535, what every container imglab
/// writes can store (GIF and JPEG sizes are 16-bit), far below the decoders' 2³¹ − 1.
public enum OutputLimits {
    /// Largest width or height of a result, in pixels (65,535).
    public static let maxDimension = 65_535
    /// Largest width × height of a result, in pixels (16,383² = 268,402,689).
    public static let maxPixels = DecodeLimits.default.maxPixels

    /// The limits in words, for messages and help: "at most 65535 pixels a side and 268402689 pixels in all".
    public static let summary = "at most \(maxDimension) pixels a side and \(maxPixels) pixels in all"

    /// Why a `width × height` result (in pixels) is beyond the limits, or `nil` when it is within them.
    public static func problem(width: Int, height: Int) -> String? {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= maxDimension, height <= maxDimension, !overflow, pixels <= maxPixels else {
            return "a \(width)×\(height) result is beyond the output limit (\(summary))"
        }
        return nil
    }

    /// Throws ``ResizeError/invalidGeometry(_:)`` when a `width × height` result is beyond the limits.
    static func check(width: Int, height: Int) throws(ResizeError) {
        if let problem = problem(width: width, height: height) { throw .invalidGeometry(problem) }
    }
}
