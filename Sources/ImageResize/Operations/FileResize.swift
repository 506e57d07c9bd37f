import ImageCore
import ImageCodecs

/// Resizing straight from a file, streaming where the container allows: a JPEG, a
/// non-interlaced still PNG, an uncompressed BMP or a TIFF read by strips or tiles is read row
/// by row (``ImageCodecs/rowReader(path:options:)``) into ``StreamingResample``, in its stored
/// orientation, and only the small result is oriented. Other files (GIF, APNG, interlaced PNG,
/// run-length BMP, TIFF through libtiff's RGBA interface) are decoded whole and resized by
/// ``Image/resized(width:height:contentMode:options:)``; both routes give the same result.
/// A JPEG is decoded at 1/2, 1/4 or 1/8 in the DCT domain when that still leaves at least a
/// factor of two for the resample over the region the operation reads (shrink-on-load), so a
/// 6000×4000 photo resized to fit 800×600 is decoded at 3000×2000.
public enum FileResize {
    /// Resizes the image in `path` into a `width × height` box of the *displayed* image,
    /// following ``Image/resized(width:height:contentMode:options:)``'s rules. The result is
    /// upright, with orientation `.up`. A JPEG is decoded at the DCT scale
    /// ``jpegScaleDenominator(region:target:)`` allows for the operation (shrink-on-load; the
    /// result's `metadata.properties["jpeg.scale"]` says `1/d` when `d` > 1).
    public static func resized(path: String, width: Int, height: Int, contentMode: ContentMode = .scaleToFill,
                               options: ResizeOptions = ResizeOptions(), limits: DecodeLimits = .default) throws -> Image {
        guard width > 0, height > 0 else { throw ResizeError.invalidGeometry("box \(width)×\(height) is empty") }
        let rows = try rows(path: path, width: width, height: height, contentMode: contentMode, options: options, limits: limits)
        return try resized(rows, width: width, height: height, contentMode: contentMode, options: options, limits: limits)
    }

    /// The rows ``resized(path:width:height:contentMode:options:limits:)`` reads: a JPEG at the
    /// DCT scale ``jpegScaleDenominator(region:target:)`` gives for the stored region the
    /// operation uses and its stored output size (EXIF orientation applied to the box), any other
    /// file at full size (streaming when the container allows, else the whole decode behind a
    /// ``BitmapRowReader``).
    public static func rows(path: String, width: Int, height: Int, contentMode: ContentMode = .scaleToFill,
                            options: ResizeOptions = ResizeOptions(), limits: DecodeLimits = .default) throws -> ScaledRows {
        try ScaledRows.open(path: path, limits: limits) { header in
            guard header.container == .jpeg else { return 1 }
            let p = placement(storedWidth: header.width, storedHeight: header.height, orientation: header.orientation,
                              width: width, height: height, contentMode: contentMode, onlyShrink: options.onlyShrink)
            let region = p.source ?? (0, 0, Double(header.width), Double(header.height))
            return jpegScaleDenominator(region: (region.width, region.height), target: p.target)
        }
    }

    /// The DCT scale denominator (1, 2, 4 or 8) a JPEG is decoded at to resample a `region` of
    /// its stored image (in stored pixels) to `target` pixels (stored axes): the largest `d`
    /// that still leaves at least a factor of two for the resample on both axes,
    /// `region.width / d ≥ 2 · target.width` and `region.height / d ≥ 2 · target.height`
    /// (libvips' rule in `vips_thumbnail`), so the result keeps the quality of a kernel shrink
    /// from at least twice its size.
    public static func jpegScaleDenominator(region: (width: Double, height: Double), target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] where region.width / Double(d) >= 2 * Double(target.width) && region.height / Double(d) >= 2 * Double(target.height) {
            return d
        }
        return 1
    }

    /// Resizes `rows` (opened by ``rows(path:width:height:contentMode:options:limits:)`` or any
    /// reader of the caller's) into a `width × height` box of the displayed stored image, by
    /// ``resized(path:width:height:contentMode:options:limits:)``'s rules: streamed through
    /// ``StreamingResample`` in the stored orientation, the geometry taken from the stored size
    /// and the region mapped into the reader's pixels (``ScaledRows/readerRect(_:)``); a whole
    /// decode behind a ``BitmapRowReader`` is resized in memory. The result is upright.
    public static func resized(_ rows: ScaledRows, width: Int, height: Int, contentMode: ContentMode = .scaleToFill,
                               options: ResizeOptions = ResizeOptions(), limits: DecodeLimits = .default) throws -> Image {
        guard width > 0, height > 0 else { throw ResizeError.invalidGeometry("box \(width)×\(height) is empty") }
        let reader = rows.reader
        if rows.denominator == 1, let whole = (reader as? BitmapRowReader)?.image {
            try ResizeMemory.check(whole, fileBytes: 0, target: (width, height), options: options, limits: limits)
            return try whole.resized(width: width, height: height, contentMode: contentMode, options: options)
        }
        let o = reader.orientation
        let p = placement(storedWidth: rows.storedWidth, storedHeight: rows.storedHeight, orientation: o,
                          width: width, height: height, contentMode: contentMode, onlyShrink: options.onlyShrink)
        var source = p.source
        if rows.denominator > 1 {
            source = rows.readerRect(source ?? (0, 0, Double(rows.storedWidth), Double(rows.storedHeight)))
        }
        let format = options.deliveredFormat(natural: OutputFormat.result(for: reader.format))
        try ResizeMemory.checkStreaming(reader, target: p.target, format: format, kernel: options.kernel, source: source,
                                        limits: limits)
        let bitmap = try StreamingResample.resample(reader, width: p.target.width, height: p.target.height,
                                                    kernel: options.kernel, lightSpace: options.lightSpace,
                                                    format: format, source: source)
        var metadata = reader.metadata
        if metadata.exif != nil { metadata.exif = EXIF.replacingOrientation(in: metadata.exif, with: .up) }
        return Image(bitmap: o.apply(to: bitmap), orientation: .up, metadata: metadata)
    }

    /// Where a box resize of a `storedWidth × storedHeight` image shown under `o` reads and
    /// what it writes, in stored axes: the output size, and the stored rectangle it reads
    /// (`nil`: the whole image) — only `.aspectFill` crops.
    static func placement(storedWidth: Int, storedHeight: Int, orientation o: Orientation, width: Int, height: Int,
                          contentMode: ContentMode, onlyShrink: Bool)
        -> (target: (width: Int, height: Int), source: (x: Double, y: Double, width: Double, height: Double)?) {
        let display = o.displaySize(width: storedWidth, height: storedHeight)
        var target = (width: width, height: height)
        var displaySource: (x: Double, y: Double, width: Double, height: Double)?
        if onlyShrink && display.width <= width && display.height <= height {
            target = display
        } else {
            switch contentMode {
            case .scaleToFill: break
            case .aspectFit: target = OutputGeometry.aspectFit(width: display.width, height: display.height, boxWidth: width, boxHeight: height)
            case .aspectFillWithoutCrop: target = OutputGeometry.aspectCover(width: display.width, height: display.height, boxWidth: width, boxHeight: height)
            case .aspectFill(let anchor):
                displaySource = OutputGeometry.aspectFillSource(width: display.width, height: display.height,
                                                                boxWidth: width, boxHeight: height, anchor: (anchor.x, anchor.y))
            }
        }
        let storedTarget = o.swapsDimensions ? (width: target.height, height: target.width) : target
        let storedSource = displaySource.map { storedRect($0, displayWidth: display.width, displayHeight: display.height, orientation: o) }
        return (storedTarget, storedSource)
    }

    /// Resizes the image in `path` into a box given in points for a display of `scale` pixels
    /// per point, by ``Image/resized(pointWidth:pointHeight:scale:contentMode:options:)``'s
    /// rule; the result's `metadata.scale` is `scale`.
    public static func resized(path: String, pointWidth: Double, pointHeight: Double, scale: Double,
                               contentMode: ContentMode = .scaleToFill, options: ResizeOptions = ResizeOptions(),
                               limits: DecodeLimits = .default) throws -> Image {
        guard scale > 0, scale.isFinite, pointWidth > 0, pointHeight > 0 else {
            throw ResizeError.invalidGeometry("\(pointWidth)×\(pointHeight) pt at scale \(scale) is empty")
        }
        var result = try resized(path: path, width: try PointSize.pixels(pointWidth, scale: scale),
                                 height: try PointSize.pixels(pointHeight, scale: scale), contentMode: contentMode,
                                 options: options, limits: limits)
        result.metadata.scale = scale
        return result
    }

    /// The stored-image rectangle that displays as `rect` under orientation `o`.
    static func storedRect(_ rect: (x: Double, y: Double, width: Double, height: Double), displayWidth: Int, displayHeight: Int,
                           orientation o: Orientation) -> (x: Double, y: Double, width: Double, height: Double) {
        let inverse = o.inverse.matrix
        let (sw, sh) = o.inverse.displaySize(width: displayWidth, height: displayHeight)
        func map(_ u: Double, _ v: Double) -> (Double, Double) {
            // Centred coordinates, the inverse signed permutation, then back to corner origin.
            let cu = 2 * u - Double(displayWidth), cv = 2 * v - Double(displayHeight)
            let su = Double(inverse.a) * cu + Double(inverse.b) * cv, sv = Double(inverse.c) * cu + Double(inverse.d) * cv
            return ((su + Double(sw)) / 2, (sv + Double(sh)) / 2)
        }
        let p = map(rect.x, rect.y), q = map(rect.x + rect.width, rect.y + rect.height)
        return (min(p.0, q.0), min(p.1, q.1), abs(q.0 - p.0), abs(q.1 - p.1))
    }
}
