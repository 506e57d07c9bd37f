import ImageCore
import ImageCodecs

/// The ImageIO thumbnail contract (`kCGImageSourceThumbnailMaxPixelSize` with
/// `kCGImageSourceCreateThumbnailWithTransform`): decode a file's bytes into an upright image
/// whose longer side is at most `maxPixelSize`, never enlarging.
///
/// JPEGs are decoded at 1/2, 1/4 or 1/8 scale in the DCT domain, and still WebPs at that scale by
/// libwebp's rescaler while decoding, when that still leaves at least the target size, so a
/// 6000×4000 photo is never decoded in full for a 640 thumbnail (scale-on-load); the remaining
/// reduction is resampled with `options.kernel` in `options.lightSpace`.
public enum MaxPixelSizeThumbnail {
    /// The scale denominator (1, 2, 4 or 8) a JPEG or still WebP of `width × height` is decoded
    /// at to reach `target` without decoding fewer pixels than the output: the largest `d` with
    /// `ceil(w/d) ≥ target width` and `ceil(h/d) ≥ target height`.
    public static func scaleDenominator(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] where (width + d - 1) / d >= target.width && (height + d - 1) / d >= target.height {
            return d
        }
        return 1
    }

    /// Makes the thumbnail of an encoded image.
    /// - Parameters:
    ///   - bytes: a PNG, JPEG, GIF, TIFF, BMP, WebP, HEIF or AVIF file.
    ///   - maxPixelSize: the longest side of the result, in pixels (> 0).
    /// - Throws: `DecodeError` for unreadable input, ``ResizeError`` for a bad size.
    public static func thumbnail(of bytes: [UInt8], maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                 limits: DecodeLimits = .default) throws -> Image {
        guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
        let header = try ImageCodecs.readHeader(bytes, options: DecodeOptions(limits: limits))
        let display = header.orientation.displaySize(width: header.width, height: header.height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        let storedTarget = header.orientation.swapsDimensions ? (target.height, target.width) : (target.width, target.height)
        let d = scaleDenominator(width: header.width, height: header.height, target: storedTarget)
        var decode = DecodeOptions(limits: limits)  // the budget applies to what is decoded: the scaled size
        if header.container == .jpeg { decode.jpegScaleDenominator = d }
        if header.container == .webp && header.frameCount == 1 { decode.webpScaleDenominator = d }
        let image = try ImageCodecs.decode(bytes, options: decode)
        try ResizeMemory.check(image, fileBytes: bytes.count, target: target, options: options, limits: limits)
        guard decode.jpegScaleDenominator > 1 || decode.webpScaleDenominator > 1 else {
            return try image.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
        }
        let upright = image.oriented()
        // A JPEG decoded at 1/d spans display / d pixels, not ⌈display / d⌉ (the last scaled row and
        // column hold the padding of the last 8 × 8 block too); libwebp's rescaler fills them all.
        let scale = Double(decode.jpegScaleDenominator)
        let source = decode.jpegScaleDenominator > 1 ? (0, 0, Double(display.width) / scale, Double(display.height) / scale)
            : (0.0, 0.0, Double(upright.width), Double(upright.height))
        return try upright.resampled(width: target.width, height: target.height, source: source, options: options)
    }

    /// Makes the thumbnail of an image file, streaming: JPEGs are read from disk row by row at
    /// the chosen DCT scale (still WebPs are decoded whole at that scale by libwebp's rescaler),
    /// and non-interlaced still PNGs row by row through libpng and zlib,
    /// and resampled through a ring buffer of rows, so memory grows with the output, not the
    /// input; uncompressed BMP and TIFF strips or tiles stream alike. Other files (interlaced PNG,
    /// APNG, GIF, run-length BMP, TIFF through libtiff's RGBA interface) are decoded whole first. The
    /// resampling happens in the stored orientation and the small result is then oriented
    /// (resizing commutes with the eight orientations); both routes give the same result.
    /// - Parameters:
    ///   - path: the image file.
    ///   - maxPixelSize: the longest side of the result, in pixels (> 0).
    ///
    /// The streamed rows are averaged with the sRGB curve: a file that states its colours other
    /// than sRGB's is thumbnailed again from its whole decode, between the colour stages
    /// (``Image/resized(width:height:contentMode:options:)``).
    public static func thumbnail(atPath path: String, maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                 limits: DecodeLimits = .default) throws -> Image {
        let streamed = try streamedThumbnail(atPath: path, maxPixelSize: maxPixelSize, options: options, limits: limits)
        guard ProfileLightStage.statesColours(streamed) else { return streamed }
        let image = try ImageCodecs.decode(contentsOf: path, options: DecodeOptions(limits: limits))
        let display = image.displaySize
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        try ResizeMemory.check(image, fileBytes: 0, target: target, options: options, limits: limits)
        return try image.resized(width: target.width, height: target.height, options: options)
    }

    /// ``thumbnail(atPath:maxPixelSize:options:limits:)`` from the streamed rows alone, averaged
    /// with the sRGB curve whatever the file states (a caller that redoes tagged files itself).
    static func streamedThumbnail(atPath path: String, maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                  limits: DecodeLimits = .default) throws -> Image {
        guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
        return try thumbnail(of: try rows(path: path, maxPixelSize: maxPixelSize, limits: limits), maxPixelSize: maxPixelSize,
                             options: options, limits: limits)
    }

    /// The rows ``thumbnail(atPath:maxPixelSize:options:limits:)`` reads: a JPEG or a still WebP
    /// at the scale ``scaleDenominator(width:height:target:)`` gives for the thumbnail's size in
    /// stored axes, any other file at full size (streaming when the container allows, else the whole
    /// decode behind a ``BitmapRowReader``).
    public static func rows(path: String, maxPixelSize: Int, limits: DecodeLimits = .default) throws -> ScaledRows {
        try ScaledRows.open(path: path, limits: limits) { header in
            let display = header.orientation.displaySize(width: header.width, height: header.height)
            let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: max(1, maxPixelSize))
            let stored = header.orientation.swapsDimensions ? (width: target.height, height: target.width) : target
            return scaleDenominator(width: header.width, height: header.height, target: stored)
        }
    }

    /// The thumbnail of `rows`: resampled in the stored orientation to the size `maxPixelSize`
    /// gives the displayed stored image (a JPEG reader decoding at a DCT scale is smaller than
    /// the file's image), then oriented. A whole decode behind a ``BitmapRowReader`` is resized
    /// in memory; both routes give the same result.
    public static func thumbnail(of rows: ScaledRows, maxPixelSize: Int, options: ResizeOptions = ResizeOptions(),
                                 limits: DecodeLimits = .default) throws -> Image {
        guard maxPixelSize > 0 else { throw ResizeError.invalidGeometry("max pixel size \(maxPixelSize) must be positive") }
        let reader = rows.reader
        if rows.denominator == 1, let whole = (reader as? BitmapRowReader)?.image {
            let display = whole.orientation.displaySize(width: whole.width, height: whole.height)
            let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
            try ResizeMemory.check(whole, fileBytes: 0, target: target, options: options, limits: limits)
            return try whole.resized(width: target.width, height: target.height, contentMode: .scaleToFill, options: options)
        }
        let display = rows.displaySize
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: maxPixelSize)
        let stored = reader.orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        let format = options.deliveredFormat(natural: OutputFormat.result(for: reader.format))
        let source = rows.denominator > 1 ? rows.readerRect((0, 0, Double(rows.storedWidth), Double(rows.storedHeight))) : nil
        try ResizeMemory.checkStreaming(reader, target: stored, format: format, kernel: options.kernel, source: source,
                                        limits: limits)
        let bitmap = try StreamingResample.resample(reader, width: stored.width, height: stored.height, kernel: options.kernel,
                                                    lightSpace: options.lightSpace, format: format, source: source)
        var metadata = reader.metadata
        if metadata.exif != nil { metadata.exif = EXIF.replacingOrientation(in: metadata.exif, with: .up) }
        return Image(bitmap: reader.orientation.apply(to: bitmap), orientation: .up, metadata: metadata)
    }
}
