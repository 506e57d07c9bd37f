import ImageCore

/// One frame handed to ``APNGWriter``: the pixels of its region and how it joins the canvas.
public struct APNGFrame: Sendable, Hashable {
    /// The region's pixels; the region's size is the bitmap's size.
    public var pixels: Bitmap
    /// Left edge of the region on the canvas, in pixels.
    public var x: Int
    /// Top edge of the region on the canvas, in pixels.
    public var y: Int
    /// How long the frame shows, in seconds (written as delay_num / delay_den).
    public var delay: Double
    /// What happens to the region after the delay (APNG dispose_op; `.unspecified` is written as NONE).
    public var disposal: FrameDisposal
    /// How the region combines with the canvas (APNG blend_op).
    public var blend: FrameBlend

    /// A frame whose region is `pixels` placed at (`x`, `y`); `delay` in seconds.
    public init(pixels: Bitmap, x: Int = 0, y: Int = 0, delay: Double, disposal: FrameDisposal = .none, blend: FrameBlend = .source) {
        self.pixels = pixels
        self.x = x
        self.y = y
        self.delay = delay
        self.disposal = disposal
        self.blend = blend
    }
}

/// Writes APNG files from explicit frames, each with its own region, delay, dispose op and
/// blend op, so test corpora can exercise every APNG rule.
///
/// All frames share one IHDR: when every frame (and the default image) has the same pixel
/// format, that format's storable form is used (see ``PNGCodec/encode(_:options:)``);
/// otherwise every frame is converted to RGBA, 16-bit if any input has more than 8 bits.
/// Delays are written as the smallest denominator among 1, 10, 100, 1000, 10000 that
/// represents them exactly, else in milliseconds (capped at 65.535 s, then whole seconds).
public enum APNGWriter {
    /// Encodes an APNG.
    ///
    /// - Parameters:
    ///   - canvasWidth: IHDR width, pixels.
    ///   - canvasHeight: IHDR height, pixels.
    ///   - frames: the animation, at least one frame, each region inside the canvas.
    ///   - loopCount: acTL num_plays; 0 plays forever.
    ///   - defaultImage: a canvas-sized image shown by viewers without APNG support and not
    ///     part of the animation. When `nil`, frame 0 is the default image and must cover the
    ///     whole canvas (APNG spec).
    ///   - metadata: ICC, sRGB, gamma and EXIF written as for a still PNG.
    ///   - orientation: written in eXIf when not `.up` and `options.writeOrientation`.
    ///   - options: `interlaced` applies to every frame.
    /// - Throws: ``EncodeError/invalidOption(_:)`` for an empty animation, a region outside
    ///   the canvas, a bad delay or loop count; ``EncodeError/library(_:_:)`` when libpng fails.
    public static func encode(canvasWidth: Int, canvasHeight: Int, frames: [APNGFrame], loopCount: Int = 0,
                              defaultImage: Bitmap? = nil, metadata: ImageMetadata = ImageMetadata(),
                              orientation: Orientation = .up, options: EncodeOptions = EncodeOptions()) throws(EncodeError) -> [UInt8] {
        guard !frames.isEmpty else { throw .invalidOption("an APNG needs at least one frame") }
        guard canvasWidth > 0, canvasHeight > 0, canvasWidth <= 0x7FFF_FFFF, canvasHeight <= 0x7FFF_FFFF else {
            throw .invalidOption("APNG canvas \(canvasWidth)×\(canvasHeight) is empty or too large")
        }
        guard (0...Int(UInt32.max)).contains(loopCount) else { throw .invalidOption("APNG loop count \(loopCount) is outside 0...2^32-1") }
        for (i, frame) in frames.enumerated() {
            let w = frame.pixels.width, h = frame.pixels.height
            guard frame.x >= 0, frame.y >= 0, frame.x <= canvasWidth - w, frame.y <= canvasHeight - h else {
                throw .invalidOption("APNG frame \(i) region \(w)×\(h)+\(frame.x)+\(frame.y) leaves the \(canvasWidth)×\(canvasHeight) canvas")
            }
        }
        if let defaultImage {
            guard defaultImage.width == canvasWidth, defaultImage.height == canvasHeight else {
                throw .invalidOption("the default image is \(defaultImage.width)×\(defaultImage.height), the canvas \(canvasWidth)×\(canvasHeight)")
            }
        } else if frames[0].x != 0 || frames[0].y != 0 || frames[0].pixels.width != canvasWidth || frames[0].pixels.height != canvasHeight {
            throw .invalidOption("frame 0 is the default image, so it must cover the whole canvas (or pass a defaultImage)")
        }

        let inputs = frames.map(\.pixels) + (defaultImage.map { [$0] } ?? [])
        let target: PixelFormat
        if inputs.allSatisfy({ $0.format == inputs[0].format }) {
            target = PNGEncoder.storableFormat(for: inputs[0].format)
        } else {
            target = inputs.contains { $0.format.bitsPerComponent > 8 } ? .rgba16 : .rgba8
        }
        func encoded(_ bitmap: Bitmap) throws(EncodeError) -> PNGChunkList {
            let pixels: Bitmap
            if bitmap.format == target { pixels = bitmap.tightlyPacked() } else {
                do { pixels = try bitmap.converted(to: target) } catch {
                    throw .unsupportedFormat(.png, bitmap.format, suggestion: "convert to \(target) first (\(error))")
                }
            }
            let png = try PNGEncoder.writeImageChunks(pixels, interlaced: options.interlaced)
            do { return try PNGChunkList(parsing: png) } catch {
                throw .library(.png, "libpng wrote a file imglab cannot walk: \(error)")
            }
        }

        let frameFiles = try frames.map { (frame) throws(EncodeError) -> PNGChunkList in try encoded(frame.pixels) }
        let defaultFile = try defaultImage.map { (image) throws(EncodeError) -> PNGChunkList in try encoded(image) }
        let template = defaultFile ?? frameFiles[0]

        var ihdr = Array(template.chunks[0].data)
        ihdr.replaceSubrange(0..<8, with: PNGChunkList.bigEndian(UInt32(canvasWidth)) + PNGChunkList.bigEndian(UInt32(canvasHeight)))
        var out = PNGChunkList.signature + PNGChunkList.serialize("IHDR", ihdr)
        out += PNGEncoder.metadataChunks(metadata, orientation: orientation, options: options)
        for chunk in template.chunks where chunk.type == "PLTE" || chunk.type == "tRNS" {
            out += PNGChunkList.serialize(chunk.type, chunk.data)
        }
        out += PNGChunkList.serialize("acTL", PNGChunkList.bigEndian(UInt32(frames.count)) + PNGChunkList.bigEndian(UInt32(loopCount)))
        if let defaultFile { out += imageData(of: defaultFile, as: "IDAT", sequence: nil).chunks }
        var sequence: UInt32 = 0
        for (i, frame) in frames.enumerated() {
            out += try frameControl(frame, sequence: sequence)
            sequence += 1
            let data = imageData(of: frameFiles[i], as: i == 0 && defaultFile == nil ? "IDAT" : "fdAT", sequence: sequence)
            out += data.chunks
            sequence = data.nextSequence
        }
        out += PNGChunkList.serialize("IEND", [])
        return out
    }

    /// The fcTL chunk of `frame`.
    private static func frameControl(_ frame: APNGFrame, sequence: UInt32) throws(EncodeError) -> [UInt8] {
        let (numerator, denominator) = try delayFraction(frame.delay)
        var data = PNGChunkList.bigEndian(sequence)
        data += PNGChunkList.bigEndian(UInt32(frame.pixels.width)) + PNGChunkList.bigEndian(UInt32(frame.pixels.height))
        data += PNGChunkList.bigEndian(UInt32(frame.x)) + PNGChunkList.bigEndian(UInt32(frame.y))
        data += PNGChunkList.bigEndian(numerator) + PNGChunkList.bigEndian(denominator)
        let disposeOp: UInt8
        switch frame.disposal {
        case .unspecified, .none: disposeOp = 0
        case .background: disposeOp = 1
        case .previous: disposeOp = 2
        }
        data += [disposeOp, frame.blend == .source ? 0 : 1]
        return PNGChunkList.serialize("fcTL", data)
    }

    /// The IDAT data of `file` re-chunked as IDAT or as fdAT with sequence numbers from `sequence`.
    private static func imageData(of file: PNGChunkList, as type: String, sequence: UInt32?) -> (chunks: [UInt8], nextSequence: UInt32) {
        let stream = file.chunks.filter { $0.type == "IDAT" }.flatMap { Array($0.data) }
        let pieceSize = 1 << 20
        var out: [UInt8] = []
        var next = sequence ?? 0
        var start = 0
        repeat {
            let piece = stream[start..<min(start + pieceSize, stream.count)]
            if type == "fdAT" {
                out += PNGChunkList.serialize("fdAT", PNGChunkList.bigEndian(next) + piece)
                next += 1
            } else {
                out += PNGChunkList.serialize("IDAT", piece)
            }
            start += pieceSize
        } while start < stream.count
        return (out, next)
    }

    /// `seconds` as delay_num / delay_den (see the type's doc for the choice of denominator).
    static func delayFraction(_ seconds: Double) throws(EncodeError) -> (UInt16, UInt16) {
        guard seconds.isFinite, seconds >= 0 else { throw .invalidOption("frame delay \(seconds) s is not a finite, non-negative number") }
        for denominator in [1.0, 10, 100, 1000, 10000] {
            let numerator = seconds * denominator
            if numerator <= 65535, abs(numerator - numerator.rounded()) < 1e-9 * max(1, numerator) {
                return (UInt16(numerator.rounded()), UInt16(denominator))
            }
        }
        if seconds * 1000 <= 65535 { return (UInt16((seconds * 1000).rounded()), 1000) }
        return (UInt16(min(seconds.rounded(), 65535)), 1)
    }

    /// Writes `animation` (composited canvases) as APNG: frame 0 is the whole first canvas;
    /// each later frame is the recorded region when the canvas outside it is what the
    /// previous frame's disposal leaves, else the whole canvas. Every frame uses blend_op
    /// SOURCE, so the decoded canvases equal the given ones exactly.
    static func encode(animation: Animation, of image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let first = animation.frames[0].canvas
        let width = first.width, height = first.height
        let format: PixelFormat = animation.frames.contains { $0.canvas.format.bitsPerComponent > 8 } ? .rgba16 : .rgba8
        var compositor = APNGCompositor(width: width, height: height, format: format)
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        var frames: [APNGFrame] = []
        for (i, frame) in animation.frames.enumerated() {
            guard frame.canvas.width == width, frame.canvas.height == height else {
                throw .invalidOption("animation frame \(i) canvas is \(frame.canvas.width)×\(frame.canvas.height), frame 0's is \(width)×\(height)")
            }
            let canvas: Bitmap
            do { canvas = try frame.canvas.converted(to: format) } catch {
                throw .unsupportedFormat(.png, frame.canvas.format, suggestion: "convert to \(format) first (\(error))")
            }
            let r = frame.region
            let regionFits = r.width > 0 && r.height > 0 && r.x >= 0 && r.y >= 0 && r.x <= width - r.width && r.y <= height - r.height
            let region = i > 0 && regionFits && equalOutside(canvas, compositor.canvas, r) ? r : whole
            let pixels = crop(canvas, region)
            _ = compositor.draw(pixels, region: region, blend: .source, disposal: frame.disposal)
            frames.append(APNGFrame(pixels: pixels, x: region.x, y: region.y, delay: frame.delay, disposal: frame.disposal, blend: .source))
        }
        return try encode(canvasWidth: width, canvasHeight: height, frames: frames, loopCount: animation.loopCount,
                          metadata: image.metadata, orientation: image.orientation, options: options)
    }

    /// Whether two same-format canvases agree everywhere outside `region`.
    private static func equalOutside(_ a: Bitmap, _ b: Bitmap, _ region: PixelRect) -> Bool {
        let pixelBytes = a.format.bitsPerPixel / 8
        for y in 0..<a.height {
            let rowA = a.bytes[(y * a.bytesPerRow)..<(y * a.bytesPerRow + a.width * pixelBytes)]
            let rowB = b.bytes[(y * b.bytesPerRow)..<(y * b.bytesPerRow + b.width * pixelBytes)]
            if y < region.y || y >= region.y + region.height {
                if !rowA.elementsEqual(rowB) { return false }
            } else {
                let left = region.x * pixelBytes, right = (region.x + region.width) * pixelBytes
                if !rowA.prefix(left).elementsEqual(rowB.prefix(left)) { return false }
                if !rowA.dropFirst(right).elementsEqual(rowB.dropFirst(right)) { return false }
            }
        }
        return true
    }

    /// The pixels of `region` of a canvas whose pixels are whole bytes.
    private static func crop(_ bitmap: Bitmap, _ region: PixelRect) -> Bitmap {
        let pixelBytes = bitmap.format.bitsPerPixel / 8
        let rowBytes = region.width * pixelBytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowBytes * region.height)
        for y in region.y..<(region.y + region.height) {
            let start = y * bitmap.bytesPerRow + region.x * pixelBytes
            bytes += bitmap.bytes[start..<(start + rowBytes)]
        }
        return Bitmap(uncheckedWidth: region.width, height: region.height, format: bitmap.format, bytesPerRow: rowBytes, bytes: bytes)
    }
}
