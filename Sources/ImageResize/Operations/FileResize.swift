import ImageCore
import ImageCodecs

/// Resizing straight from a file, streaming where the container allows: a JPEG, a
/// non-interlaced still PNG, an uncompressed BMP or a TIFF read by strips or tiles is read row
/// by row (``ImageCodecs/rowReader(path:options:)``) into ``StreamingResample``, in its stored
/// orientation, and only the small result is oriented. Other files (GIF, APNG, interlaced PNG,
/// run-length BMP, TIFF through libtiff's RGBA interface) are decoded whole and resized by
/// ``Image/resized(width:height:contentMode:options:)``; both routes give the same result.
public enum FileResize {
    /// Resizes the image in `path` into a `width × height` box of the *displayed* image,
    /// following ``Image/resized(width:height:contentMode:options:)``'s rules. The result is
    /// upright, with orientation `.up`.
    public static func resized(path: String, width: Int, height: Int, contentMode: ContentMode = .scaleToFill,
                               options: ResizeOptions = ResizeOptions(), limits: DecodeLimits = .default) throws -> Image {
        guard width > 0, height > 0 else { throw ResizeError.invalidGeometry("box \(width)×\(height) is empty") }
        let reader = try ImageCodecs.rowReader(path: path, options: DecodeOptions(limits: limits))
        if let whole = (reader as? BitmapRowReader)?.image {
            try ResizeMemory.check(whole, fileBytes: 0, target: (width, height), kernel: options.kernel, limits: limits)
            return try whole.resized(width: width, height: height, contentMode: contentMode, options: options)
        }
        let o = reader.orientation
        let display = o.displaySize(width: reader.width, height: reader.height)
        var target = (width: width, height: height)
        var displaySource: (x: Double, y: Double, width: Double, height: Double)?
        if options.onlyShrink && display.width <= width && display.height <= height {
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
        try ResizeMemory.checkStreaming(width: reader.width, height: reader.height, target: storedTarget,
                                        kernel: options.kernel, limits: limits)
        let format = options.deliveredFormat(natural: OutputFormat.result(for: reader.format))
        let bitmap = try StreamingResample.resample(reader, width: storedTarget.width, height: storedTarget.height,
                                                    kernel: options.kernel, lightSpace: options.lightSpace,
                                                    format: format, source: storedSource)
        var metadata = reader.metadata
        if metadata.exif != nil { metadata.exif = EXIF.replacingOrientation(in: metadata.exif, with: .up) }
        return Image(bitmap: o.apply(to: bitmap), orientation: .up, metadata: metadata)
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
