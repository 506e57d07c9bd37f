import ImageCore
import ImageCodecs

/// How an image is placed in a target box.
public enum ContentMode: Sendable, Hashable {
    /// Stretch to exactly the box, ignoring aspect ratio (UIViewContentModeScaleToFill).
    case scaleToFill
    /// The largest size with the image's aspect ratio inside the box (the output may be smaller
    /// than the box on one side).
    case aspectFit
    /// Cover the box and crop the overflow; `anchor` places the crop (0 = left/top, ½ = centre,
    /// 1 = right/bottom). The output is exactly the box.
    case aspectFill(anchor: Anchor = .center)
    /// Cover the box without cropping (the output may be larger than the box on one side).
    case aspectFillWithoutCrop
}

/// A point of a rectangle in unit coordinates: (0, 0) top-left, (1, 1) bottom-right.
public struct Anchor: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let center = Anchor(x: 0.5, y: 0.5)
    public static let top = Anchor(x: 0.5, y: 0)
    public static let bottom = Anchor(x: 0.5, y: 1)
    public static let left = Anchor(x: 0, y: 0.5)
    public static let right = Anchor(x: 1, y: 0.5)
}

extension Image {
    /// Resizes into a box of `width × height` pixels (of the *displayed*, oriented image).
    ///
    /// The orientation is baked in first, so the result is upright with orientation `.up`.
    /// Pixels are resampled premultiplied, in `options.lightSpace`. Sizes follow
    /// ``OutputGeometry``'s rule. Animation frames are all resized; delays, disposal and the
    /// loop count are kept. Metadata keeps ICC, gamma and scale; the EXIF orientation is dropped.
    /// - Throws: ``ResizeError/invalidGeometry(_:)`` for an empty box or a result beyond ``OutputLimits``.
    public func resized(width: Int, height: Int, contentMode: ContentMode = .scaleToFill,
                        options: ResizeOptions = ResizeOptions()) throws(ResizeError) -> Image {
        guard width > 0, height > 0 else { throw .invalidGeometry("box \(width)×\(height) is empty") }
        let upright = oriented()
        let (w, h) = (upright.width, upright.height)
        if options.onlyShrink && w <= width && h <= height {
            return try upright.resampled(width: w, height: h, source: nil, options: options)
        }
        switch contentMode {
        case .scaleToFill:
            return try upright.resampled(width: width, height: height, source: nil, options: options)
        case .aspectFit:
            let size = OutputGeometry.aspectFit(width: w, height: h, boxWidth: width, boxHeight: height)
            return try upright.resampled(width: size.width, height: size.height, source: nil, options: options)
        case .aspectFillWithoutCrop:
            let size = OutputGeometry.aspectCover(width: w, height: h, boxWidth: width, boxHeight: height)
            return try upright.resampled(width: size.width, height: size.height, source: nil, options: options)
        case .aspectFill(let anchor):
            let source = OutputGeometry.aspectFillSource(width: w, height: h, boxWidth: width, boxHeight: height,
                                                         anchor: (anchor.x, anchor.y))
            return try upright.resampled(width: width, height: height, source: source, options: options)
        }
    }

    /// Resamples an upright image (or the `source` rectangle of it) to `width × height`. A still
    /// image that states its colours other than sRGB's is resampled between the colour stages
    /// (``ProfileLightStage``: in the profile's own linear light, or converted to sRGB, as
    /// `options.colour` says; averaging encoded values, ``LightSpace/sRGB``, averages the stored
    /// ones and keeps the statement, but CMYK inks are always converted to sRGB).
    func resampled(width: Int, height: Int, source: (x: Double, y: Double, width: Double, height: Double)?,
                   options: ResizeOptions, needsAlpha: Bool = false) throws(ResizeError) -> Image {
        try OutputLimits.check(width: width, height: height)
        if animation == nil, let stage = ProfileLightStage(self, mode: options.colour), options.lightSpace == .linear || stage.convertsInks {
            let working = try stage.before(self)
            let resampled = try working.resampled(width: width, height: height, source: source, options: options, needsAlpha: needsAlpha)
            guard let asked = options.outputFormat else { return try stage.after(resampled) }
            // A caller that asks for a format (float, for corners that follow) gets it, rounded once.
            var out = try stage.after(resampled, toSourceDepth: false)
            do { out.bitmap = try out.bitmap.converted(to: asked) } catch { throw .conversion(error) }
            return out
        }
        let format = options.deliveredFormat(natural: OutputFormat.result(for: self.format, needsAlpha: needsAlpha))
        if format.isIndexed {
            // An indexed target needs every resampled colour in its palette: take the exact path,
            // which reports the first missing colour.
            func exact(_ bitmap: Bitmap) throws(ResizeError) -> Bitmap {
                let working = WorkingImage(bitmap, lightSpace: options.lightSpace)
                let out = Resample.resample(working, width: width, height: height, kernel: options.kernel, source: source)
                do { return try out.bitmap(format: format) } catch { throw .conversion(error) }
            }
            return try resampledFrames(exact)
        }
        func one(_ bitmap: Bitmap) throws(ResizeError) -> Bitmap {
            do {
                return try StreamingResample.resample(BitmapRowReader(bitmap), width: width, height: height, kernel: options.kernel,
                                                      lightSpace: options.lightSpace, format: format, source: source)
            } catch {
                // A bitmap in memory delivers every row; nothing else can fail here.
                throw .invalidGeometry("resampling failed: \(error)")
            }
        }
        return try resampledFrames(one)
    }

    /// Applies `one` to the image and to every animation frame; the result is upright.
    private func resampledFrames(_ one: (Bitmap) throws(ResizeError) -> Bitmap) throws(ResizeError) -> Image {
        var result = Image(bitmap: try one(bitmap), orientation: .up, metadata: metadata)
        if metadata.exif != nil { result.metadata.exif = EXIF.replacingOrientation(in: metadata.exif, with: .up) }
        if let animation {
            var frames: [AnimationFrame] = []
            for frame in animation.frames {
                var f = frame
                f.canvas = try one(frame.canvas)
                // Each resized frame is a whole composited canvas: it replaces the canvas.
                f.region = PixelRect(x: 0, y: 0, width: f.canvas.width, height: f.canvas.height)
                f.blend = .source
                frames.append(f)
            }
            result.animation = Animation(loopCount: animation.loopCount, frames: frames)
            result.bitmap = frames.first?.canvas ?? result.bitmap
        }
        return result
    }
}


extension Image {
    /// Resizes into a box given in points for a display of `scale` pixels per point (2 for
    /// @2x, 3 for @3x): the pixel box is `points × scale`, rounded half up, and the result's
    /// `metadata.scale` is `scale`, so a 100 × 100 pt thumbnail at @3x is 300 × 300 pixels —
    /// never a blurry 100 × 100 (D8).
    public func resized(pointWidth: Double, pointHeight: Double, scale: Double, contentMode: ContentMode = .scaleToFill,
                        options: ResizeOptions = ResizeOptions()) throws(ResizeError) -> Image {
        guard scale > 0, scale.isFinite, pointWidth > 0, pointHeight > 0 else {
            throw .invalidGeometry("\(pointWidth)×\(pointHeight) pt at scale \(scale) is empty")
        }
        let width = try PointSize.pixels(pointWidth, scale: scale), height = try PointSize.pixels(pointHeight, scale: scale)
        var result = try resized(width: width, height: height, contentMode: contentMode, options: options)
        result.metadata.scale = scale
        return result
    }
}
