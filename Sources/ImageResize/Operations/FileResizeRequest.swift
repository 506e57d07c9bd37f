import ImageCore
import ImageCodecs

/// One file-to-file resize (`imglab resize`, `imglab thumbnail`): read ``input``, make the
/// result, encode it as ``container`` and write ``output`` atomically.
///
/// The result is always upright. The steps, in order: ``crop`` (when given); the ``size`` (a
/// box in points at ``scale`` pixels per point, a rectangle scaled to a box, or the ImageIO
/// thumbnail); a transparent ``border`` and rounded corners of ``cornerRadius`` points; an
/// alpha channel when ``addsAlpha``. A box alone is resized straight from the file, streaming
/// rows where the container allows (``FileResize``); a thumbnail never decodes a JPEG in full
/// (``MaxPixelSizeThumbnail``); everything else is decoded whole first. Colours are delivered
/// with straight alpha unless the container stores premultiplied alpha (TIFF), so they are
/// rounded once.
public struct FileResizeRequest: Sendable {
    /// What size the result has.
    public enum Size: Sendable, Hashable {
        /// The upright image as it is.
        case original
        /// Into a box of `width × height` points, placed by `contentMode`.
        case box(width: Double, height: Double, contentMode: ContentMode)
        /// Exactly `rect` (pixels of the upright image, fractional edges allowed) scaled to a box of
        /// `width × height` points, ignoring aspect (CoreGraphics' `scaleToFill(from:in:)`).
        case rect(Rect, width: Double, height: Double)
        /// The ImageIO thumbnail: the longer side at most this many pixels, never enlarged.
        case maxPixelSize(Int)
    }

    /// The image file to read (PNG, JPEG, GIF, TIFF, BMP; animations frame by frame).
    public var input: String
    /// Where to write.
    public var output: String
    /// The output's container and its encoder settings.
    public var container: ContainerFormat
    public var encoding: EncodeOptions
    public var size: Size
    /// Pixels per point (2 for @2x): multiplies a box and ``cornerRadius``; the result's `metadata.scale`.
    public var scale: Double
    /// A rectangle of the upright image, in pixels, cropped before anything else.
    public var crop: Rect?
    /// Transparent border added around the result, in pixels.
    public var border: Int
    /// Radius of the antialiased rounded corners, in points.
    public var cornerRadius: Double
    /// Whether the result gets an alpha channel (opaque where the input had none).
    public var addsAlpha: Bool
    /// Kernel, light space, only-shrink.
    public var options: ResizeOptions
    /// The decoders' limits; `maxBytes` is the memory budget of the whole request.
    public var limits: DecodeLimits

    /// Why the box of ``size``, in pixels at ``scale`` (each side rounded half up) and framed by
    /// ``border``, is beyond ``OutputLimits``; `nil` when it is within them or there is no box.
    public var boxProblem: String? {
        let box: (width: Double, height: Double)
        switch size {
        case .box(let w, let h, _), .rect(_, let w, let h): box = (w, h)
        case .original, .maxPixelSize: return nil
        }
        // Within the command line's limits (≤ 65535 pt, scale ≤ 1000) the product is finite and exact enough.
        // The border frames the box on every side (clamped: a larger one is over the limit anyway).
        let frame = 2 * min(max(border, 0), OutputLimits.maxDimension)
        let width = Int((box.width * scale + 0.5).rounded(.down)) + frame, height = Int((box.height * scale + 0.5).rounded(.down)) + frame
        return OutputLimits.problem(width: width, height: height).map {
            "--size \(Int(box.width))x\(Int(box.height)) at --scale \(scale)" + (border > 0 ? " with --transparent-border \(border)" : "")
                + ": \($0)"
        }
    }

    public init(input: String, output: String, container: ContainerFormat, encoding: EncodeOptions = EncodeOptions(),
                size: Size = .original, scale: Double = 1, crop: Rect? = nil, border: Int = 0, cornerRadius: Double = 0,
                addsAlpha: Bool = false, options: ResizeOptions = ResizeOptions(), limits: DecodeLimits = .default) {
        self.input = input
        self.output = output
        self.container = container
        self.encoding = encoding
        self.size = size
        self.scale = scale
        self.crop = crop
        self.border = border
        self.cornerRadius = cornerRadius
        self.addsAlpha = addsAlpha
        self.options = options
        self.limits = limits
    }

    /// Makes the result and writes it.
    /// - Throws: ``FileResizeError``: the input cannot be read or resized, or the output cannot be written.
    public func write() throws(FileResizeError) {
        let image = try resized()
        do { try ImageCodecs.writeAtomically(try ImageCodecs.encode(image, as: container, options: encoding), to: output) } catch {
            throw .write(path: output, underlying: error)
        }
    }

    /// An upper bound of the result's size in pixels before border and corners, for the memory
    /// check: the box (in pixels), the thumbnail's side, or the image itself.
    func targetBound(_ image: Image) -> (width: Int, height: Int) {
        let display = image.displaySize
        func pixels(_ points: Double) -> Int { Int(min(points * scale + 1, Double(OutputLimits.maxDimension))) }
        switch size {
        case .original: return (display.width, display.height)
        case .box(let width, let height, .aspectFillWithoutCrop):
            return OutputGeometry.aspectCover(width: display.width, height: display.height, boxWidth: pixels(width), boxHeight: pixels(height))
        case .box(let width, let height, _), .rect(_, let width, let height): return (pixels(width), pixels(height))
        case .maxPixelSize(let limit): return (min(limit, display.width), min(limit, display.height))
        }
    }

    /// Makes the result without writing it.
    public func resized() throws(FileResizeError) -> Image {
        var options = self.options
        options.straightAlpha = !container.storesPremultipliedAlpha
        let finishing = border > 0 || cornerRadius > 0 || addsAlpha
        // The streamed paths average with the sRGB curve: a result that carries a profile other
        // than sRGB's (the file's, read as it streams) is made again from the whole decoded file
        // between the colour stages (``ProfileLightStage``). Untagged files pay nothing for it.
        let streamed: Image?
        switch size {
        case .maxPixelSize(let limit) where crop == nil && !finishing:
            do { streamed = try MaxPixelSizeThumbnail.streamedThumbnail(atPath: input, maxPixelSize: limit, options: options, limits: limits) } catch {
                throw .read(path: input, underlying: error)
            }
        case .box(let width, let height, let mode) where crop == nil && !finishing:
            do { streamed = try FileResize.resized(path: input, pointWidth: width, pointHeight: height, scale: scale, contentMode: mode, options: options, limits: limits) } catch {
                throw .read(path: input, underlying: error)
            }
        default:
            streamed = nil
        }
        if let streamed, !ProfileLightStage.statesColours(streamed) { return streamed }
        var image: Image
        do {
            image = try ImageCodecs.decode(contentsOf: input, options: DecodeOptions(limits: limits))
            try ResizeMemory.check(image, fileBytes: 0, target: targetBound(image), options: options, limits: limits)
        } catch { throw .read(path: input, underlying: error) }
        do throws(ResizeError) {
            let stage = ProfileLightStage(image, mode: options.colour)
            if let stage { image = try stage.before(image) }
            if let crop { image = try image.cropped(to: crop) }
            // With a border or corners to follow, the resize stays in float: one rounding in all.
            let cornered = border > 0 || cornerRadius > 0
            let steps = cornered ? image.cornerSteps(options) : (exact: options, finish: options)
            switch size {
            case .original:
                if crop == nil && !finishing { image = image.oriented() }
            case .box(let width, let height, let mode):
                image = try image.resized(pointWidth: width, pointHeight: height, scale: scale, contentMode: mode, options: steps.exact)
            case .rect(let rect, let width, let height):
                image = try image.scaledToFill(from: rect, width: try PointSize.pixels(width, scale: scale),
                                               height: try PointSize.pixels(height, scale: scale), options: steps.exact)
                image.metadata.scale = scale
            case .maxPixelSize(let limit):
                let display = image.displaySize
                let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: limit)
                image = try image.resized(width: target.width, height: target.height, options: steps.exact)
            }
            if cornered { image = try image.roundedCorners(radius: cornerRadius * scale, border: border, options: steps.finish) }
            if let stage { image = try stage.after(image) }
            if addsAlpha { image = try image.oriented().addingAlpha() }
        } catch {
            throw .resize(error)
        }
        return image
    }
}

/// Why a file-to-file resize failed; the description names the file where one is at fault.
public enum FileResizeError: Error, CustomStringConvertible {
    /// The input could not be read, or (for a streamed box or a thumbnail) resized.
    case read(path: String, underlying: any Error)
    /// An operation rejected the geometry or the output format.
    case resize(ResizeError)
    /// The result could not be encoded or written.
    case write(path: String, underlying: any Error)

    public var description: String {
        switch self {
        case .read(let path, let error), .write(let path, let error): return "\(path): \(error)"
        case .resize(let error): return "\(error)"
        }
    }
}

/// Lengths in points to pixels.
public enum PointSize {
    /// `points × scale` rounded half up, the one rule of every operation given points.
    /// - Throws: ``ResizeError/invalidGeometry(_:)`` when the product is not a number a size can have.
    public static func pixels(_ points: Double, scale: Double) throws(ResizeError) -> Int {
        let product = points * scale + 0.5
        guard product.isFinite, product >= 0, product < Double(1 << 40) else {
            throw .invalidGeometry("\(points) pt at scale \(scale) is not a size")
        }
        return Int(product.rounded(.down))
    }
}
