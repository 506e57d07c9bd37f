import ImageCore
import ImageCodecs

/// The ImageIO thumbnail contract (`kCGImageSourceThumbnailMaxPixelSize` with
/// `kCGImageSourceCreateThumbnailWithTransform`): decode a file's bytes into an upright image
/// whose longer side is at most `maxPixelSize`, never enlarging.
///
/// JPEGs are decoded at 1/2, 1/4 or 1/8 scale in the DCT domain when that still leaves at
/// least the target size, so a 6000×4000 photo is never decoded in full for a 640 thumbnail;
/// the remaining reduction is resampled with `options.kernel` in `options.lightSpace`.
public enum MaxPixelSizeThumbnail {
    /// The DCT scale denominator (1, 2, 4 or 8) a JPEG of `width × height` is decoded at to
    /// reach `target` without decoding fewer pixels than the output: the largest `d` with
    /// `ceil(w/d) ≥ target width` and `ceil(h/d) ≥ target height`.
    public static func jpegScaleDenominator(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] where (width + d - 1) / d >= target.width && (height + d - 1) / d >= target.height {
            return d
        }
        return 1
    }

    /// Makes the thumbnail of an encoded image.
    /// - Parameters:
    ///   - bytes: a PNG, JPEG, GIF, TIFF or BMP file.
    ///   - maxPixelSize: the longest side of the result, in pixels (> 0).
    /// - Throws: `DecodeError` for unreadable input, ``ResizeError`` for a bad size.
    public static func thumbnail(of bytes: [UInt8], maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                 limits: DecodeLimits = .default) throws -> Image {
        guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
        let header = try ImageCodecs.readHeader(bytes, options: DecodeOptions(limits: limits))
        let display = header.orientation.displaySize(width: header.width, height: header.height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        var decode = DecodeOptions(limits: limits)
        if header.container == .jpeg {
            let storedTarget = header.orientation.swapsDimensions ? (target.height, target.width) : (target.width, target.height)
            decode.jpegScaleDenominator = jpegScaleDenominator(width: header.width, height: header.height, target: storedTarget)
            // The budget applies to what is decoded, which is the scaled size.
        }
        let image = try ImageCodecs.decode(bytes, options: decode)
        return try image.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
    }
}
