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
        try ResizeMemory.check(image, fileBytes: bytes.count, target: target, kernel: options.kernel, limits: limits)
        return try image.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
    }

    /// Makes the thumbnail of an image file, streaming: JPEGs are read from disk row by row at
    /// the chosen DCT scale, and non-interlaced still PNGs row by row through libpng and zlib,
    /// and resampled through a ring buffer of rows, so memory grows with the output, not the
    /// input; uncompressed BMP and TIFF strips or tiles stream alike. Other files (interlaced PNG,
    /// APNG, GIF, run-length BMP, TIFF through libtiff's RGBA interface) are decoded whole first. The
    /// resampling happens in the stored orientation and the small result is then oriented
    /// (resizing commutes with the eight orientations); both routes give the same result.
    /// - Parameters:
    ///   - path: the image file.
    ///   - maxPixelSize: the longest side of the result, in pixels (> 0).
    public static func thumbnail(atPath path: String, maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                 limits: DecodeLimits = .default) throws -> Image {
        guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
        let head = try ImageCodecs.readFile(path, limit: .max, prefix: 64 << 10)
        guard ContainerFormat(sniffing: head) == .jpeg else {
            // Streams when the container allows; otherwise the reader holds the whole decode,
            // for which the file's bytes were charged to the budget.
            let reader = try ImageCodecs.rowReader(path: path, options: DecodeOptions(limits: limits))
            if let whole = (reader as? BitmapRowReader)?.image {
                let display = whole.orientation.displaySize(width: whole.width, height: whole.height)
                let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
                try ResizeMemory.check(whole, fileBytes: 0, target: target, kernel: options.kernel, limits: limits)
                return try whole.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
            }
            return try streamed(reader, maxPixelSize: maxPixelSize, options: options, limits: limits)
        }
        let header = try jpegHeader(path: path, prefix: head, limits: limits)
        let display = header.orientation.displaySize(width: header.width, height: header.height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        let stored = header.orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        var decode = DecodeOptions(limits: limits)
        decode.jpegScaleDenominator = jpegScaleDenominator(width: header.width, height: header.height, target: stored)
        let reader = try ImageCodecs.rowReader(path: path, options: decode)
        return try streamed(reader, maxPixelSize: maxPixelSize, options: options, limits: limits, display: display)
    }

    /// The thumbnail of a streaming reader's rows: resampled in the stored orientation to the
    /// size `maxPixelSize` gives the displayed image (`display`, the reader's own displayed size
    /// when `nil`; a JPEG reader decoding at a DCT scale is smaller than the file's image).
    private static func streamed(_ reader: any RowReader, maxPixelSize: Int, options: ResizeOptions, limits: DecodeLimits,
                                 display: (width: Int, height: Int)? = nil) throws -> Image {
        let display = display ?? reader.orientation.displaySize(width: reader.width, height: reader.height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        let stored = reader.orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        try ResizeMemory.checkStreaming(width: reader.width, height: reader.height, target: stored,
                                        kernel: options.kernel, limits: limits)
        let format = options.deliveredFormat(natural: OutputFormat.result(for: reader.format))
        let bitmap = try StreamingResample.resample(reader, width: stored.width, height: stored.height, kernel: options.kernel,
                                                    lightSpace: options.lightSpace, format: format)
        var metadata = reader.metadata
        if metadata.exif != nil { metadata.exif = EXIF.replacingOrientation(in: metadata.exif, with: .up) }
        return Image(bitmap: reader.orientation.apply(to: bitmap), orientation: .up, metadata: metadata)
    }

    /// The header from the file's first bytes, reading more when the markers before the frame
    /// header (EXIF, ICC) are larger than the prefix.
    private static func jpegHeader(path: String, prefix: [UInt8], limits: DecodeLimits) throws(DecodeError) -> ImageHeader {
        var bytes = prefix
        var size = prefix.count
        while true {
            let result: Result<ImageHeader, DecodeError>
            do { result = .success(try ImageCodecs.readHeader(bytes, options: DecodeOptions(limits: limits))) }
            catch { result = .failure(error) }
            switch result {
            case .success(let header): return header
            case .failure(let error):
                guard case .truncated = error, bytes.count == size, size < 64 << 20 else { throw error }
                size *= 8
                bytes = try ImageCodecs.readFile(path, limit: .max, prefix: size)
            }
        }
    }
}
