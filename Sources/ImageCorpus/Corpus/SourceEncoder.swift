import ImageCore
import ImageCodecs

/// A corpus source that could not be made: a bug in the corpus definition, never bad input.
public struct CorpusGenerationError: Error, Sendable, CustomStringConvertible {
    /// The case.
    public var caseID: String
    /// What failed.
    public var reason: String
    public var description: String { "\(caseID): \(reason)" }
}

/// Makes the bytes of a corpus source file from its case.
///
/// The upright canvas is rendered by the ``Oracle`` at the identity placement (so the source
/// *is* the identity oracle, quantised), converted from 32-bit float straight sRGB-encoded
/// RGBA to the encoding's pixel format by ImageCore's exact rules, transformed by the inverse
/// of the case's orientation, and encoded with the orientation recorded.
///
/// The oracle's rendering is premultiplied, so it has no colour under α = 0. Every pixel the
/// pixel format stores at α = 0 (all of whose area is transparent, or whose alpha rounds to 0)
/// gets the case's hidden colour (``CorpusCase/hiddenColour(frame:pixelX:pixelY:)``) before the
/// final conversion; visible pixels are untouched, so a source and its ``CorpusCase/hiddenTwin``
/// differ only there. A tagged encoding (``Encoding/colours``) stores the values that show the
/// rendering's colours under its statement, and records the statement.
public enum SourceEncoder {
    /// The identity rendering of frame `k` of a case.
    public static func uprightRendering(_ c: CorpusCase, frame k: Int = 0) -> OracleImage {
        Oracle.render(canvasWidth: c.width, canvasHeight: c.height, placement: .identity(width: c.width, height: c.height),
                      scene: c.content(frame: k))
    }

    /// The file's bytes.
    public static func encode(_ c: CorpusCase) throws(CorpusGenerationError) -> [UInt8] {
        func fail(_ reason: String) -> CorpusGenerationError { CorpusGenerationError(caseID: c.id, reason: reason) }
        let encoding = c.encoding
        if let plan = c.animation { return try encodeAnimation(c, plan: plan) }
        let float = uprightRendering(c).straightFloatBitmap()
        let upright: Bitmap
        do {
            switch encoding.storage {
            case .pixels(let format):
                // A tagged file stores the values that show the scene's sRGB colours under its statement.
                let colours = encoding.colours
                upright = try storingHiddenColour(float, of: c, frame: 0) {
                    let stored = try (colours?.storing($0) ?? $0).converted(to: format)
                    // HEIF and AVIF hold 16-bit samples at 10 or 12 bits: alpha that rounds to 0 there hides its colour.
                    guard [.heif, .avif].contains(encoding.container) else { return stored }
                    return HEIFFamily.storedSamples(stored, as: encoding.container, options: encoding.options)
                }
            case .exactPalette(let bits):
                upright = try storingHiddenColour(float, of: c, frame: 0) { try $0.converted(to: .rgba8).withExactPalette(bitsPerComponent: bits) }
            case .bmp565:
                return BMP565Writer.encode(c.orientation.inverse.apply(to: float))
            case .animation:
                throw fail("animation without a plan")
            }
        } catch let error as CorpusGenerationError {
            throw error
        } catch {
            throw fail("cannot convert the rendering: \(error)")
        }
        var image = Image(bitmap: c.orientation.inverse.apply(to: upright), orientation: c.orientation)
        if let colours = encoding.colours { image.metadata = try colours.metadata(caseID: c.id) }
        if let kind = encoding.thumbnail { image.metadata.exif = EXIFThumbnail(jpeg: try kind.jpeg(for: c)).block(orientation: c.orientation) }
        var options = encoding.options
        if let statement = encoding.exifBesideTransform {
            options.heifExifOrientation = statement == .agrees ? c.orientation : c.orientation.followed(by: .down)
        }
        do {
            return try ImageCodecs.encode(image, as: encoding.container, options: options)
        } catch {
            throw fail("cannot encode: \(error)")
        }
    }

    /// `float` (``PixelFormat/rgbaFloat``: straight, sRGB-encoded) stored by `store`, with the
    /// case's hidden colour for frame `k` written under every pixel that `store` gives α = 0.
    /// `float` holds the canvas rows from `firstRow` on (a band of a streamed source).
    static func storingHiddenColour(_ float: Bitmap, of c: CorpusCase, frame k: Int, firstRow: Int = 0,
                                    store: (Bitmap) throws -> Bitmap) throws -> Bitmap {
        let first = try store(float)
        guard first.format.hasAlpha else { return first }
        var painted = float
        var changed = false
        for y in 0..<first.height {
            let row = first.straightRGBARow(y)
            for x in 0..<first.width where row[x * 4 + 3] == 0 {
                let colour = c.hiddenColour(frame: k, pixelX: x, pixelY: firstRow + y)
                let o = y * painted.bytesPerRow + x * 16
                for (i, v) in [colour.red, colour.green, colour.blue].enumerated() {
                    let bits = Float(SRGBTransfer.fromLinear(v)).bitPattern
                    // PixelFormat.rgbaFloat is host order: little-endian on every platform imglab runs on.
                    for b in 0..<4 { painted.bytes[o + 4 * i + b] = UInt8((bits >> (8 * UInt32(b))) & 0xFF) }
                }
                changed = true
            }
        }
        return changed ? try store(painted) : first
    }

    /// APNG and WebP frames are written as their regions with their dispose and blend ops
    /// (APNGWriter, WebPAnimationWriter);
    /// GIF frames as composited canvases, from which the GIF encoder recovers the regions; AVIF frames as the
    /// composited canvases themselves (an image sequence of whole pictures).
    static func encodeAnimation(_ c: CorpusCase, plan: AnimationPlan) throws(CorpusGenerationError) -> [UInt8] {
        func fail(_ reason: String) -> CorpusGenerationError { CorpusGenerationError(caseID: c.id, reason: reason) }
        do {
            switch plan.style {
            case .apng(_, let blend), .webp(_, let blend):
                var frames: [APNGFrame] = []
                for k in 0..<AnimationPlan.frameCount {
                    let r = plan.region(k)
                    let layer = Oracle.render(canvasWidth: r.width, canvasHeight: r.height,
                                              placement: .identity(width: r.width, height: r.height)) { x, y in plan.layer(k, x: x, y: y) }
                    let pixels = try storingHiddenColour(layer.straightFloatBitmap(), of: c, frame: k) { try $0.converted(to: .rgba8) }
                    frames.append(APNGFrame(pixels: pixels, x: r.x, y: r.y,
                                            delay: AnimationPlan.delay(k), disposal: plan.disposal(k), blend: blend))
                }
                if case .webp = plan.style {
                    return try WebPAnimationWriter.encode(canvasWidth: plan.width, canvasHeight: plan.height, frames: frames, loopCount: 0)
                }
                return try APNGWriter.encode(canvasWidth: plan.width, canvasHeight: plan.height, frames: frames, loopCount: 0)
            case .gif, .avif:
                var frames: [AnimationFrame] = []
                for k in 0..<AnimationPlan.frameCount {
                    let canvas = try uprightRendering(c, frame: k).straightFloatBitmap().converted(to: .rgba8)
                    frames.append(AnimationFrame(canvas: canvas, delay: AnimationPlan.delay(k), region: plan.region(k),
                                                 disposal: plan.disposal(k), blend: .over))
                }
                let image = Image(bitmap: frames[0].canvas, animation: Animation(loopCount: 0, frames: frames))
                return try ImageCodecs.encode(image, as: plan.style == .avif ? .avif : .gif, options: c.encoding.options)
            }
        } catch {
            throw fail("cannot encode the animation: \(error)")
        }
    }
}
