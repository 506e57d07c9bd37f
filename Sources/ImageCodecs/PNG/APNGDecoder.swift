import ImageCore

/// Decoding the frames of a well-formed APNG and compositing them (``APNGCompositor``).
///
/// Policy where the file and the pixel model meet:
/// - `Image.bitmap` is frame 0 in the stored format (gray, palette… as IHDR says) when
///   frame 0 covers the canvas, which makes it identical to the first composited frame
///   except for colour under zero alpha. Otherwise it is the first composited canvas.
/// - The canvases of `Image.animation` are RGBA, 16-bit when IHDR says 16, else 8-bit.
/// - acTL `num_frames` is the frame count reported. Frames beyond it are ignored; when the
///   file holds fewer, the last canvas is repeated with zero delay. Both repairs are
///   recorded in `metadata.properties["apng repair"]`.
/// - A default image that is not part of the animation is not decoded.
/// - With one frame, `Image.animation` is `nil` (the pixel model's rule for still images).
enum APNGDecoder {
    /// Decodes an APNG whose chunks passed ``APNGStructure/parse(_:header:)``.
    static func decode(_ bytes: [UInt8], list: PNGChunkList, header: PNGImageHeader, structure: APNGStructure,
                       metadata: ImageMetadata, orientation: Orientation, decodeAllFrames: Bool,
                       limits: inout DecodeLimits) throws(DecodeError) -> Image {
        try limits.check(frames: structure.declaredFrameCount)
        var metadata = metadata
        metadata.properties["apng frames"] = String(structure.declaredFrameCount)
        metadata.properties["apng plays"] = structure.plays == 0 ? "forever" : String(structure.plays)
        metadata.properties["apng default image"] = structure.frames[0].isDefaultImage ? "frame 0" : "not part of the animation"
        var repairs: [String] = []
        if structure.frames.count > structure.declaredFrameCount {
            repairs.append("\(structure.frames.count - structure.declaredFrameCount) frame(s) beyond acTL num_frames ignored")
        }
        if structure.frames.count < structure.declaredFrameCount {
            repairs.append("acTL declares \(structure.declaredFrameCount) frames, the file holds \(structure.frames.count): last canvas repeated with zero delay")
        }
        if !repairs.isEmpty { metadata.properties["apng repair"] = repairs.joined(separator: "; ") }

        let frames = Array(structure.frames.prefix(decodeAllFrames ? structure.declaredFrameCount : 1))
        let canvasFormat: PixelFormat = header.bitDepth == 16 ? .rgba16 : .rgba8
        let canvasBytes = canvasFormat.minimumBytesPerRow(width: header.width) * header.height
        var compositor = APNGCompositor(width: header.width, height: header.height, format: canvasFormat)
        try limits.reserve(bytes: canvasBytes)
        var firstStored: Bitmap?
        var animationFrames: [AnimationFrame] = []
        for (index, frame) in frames.enumerated() {
            let stored = try decodePixels(of: frame, index: index, bytes: bytes, list: list, header: header, limits: &limits)
            if index == 0 { firstStored = stored }
            let pixels: Bitmap
            do { pixels = try stored.converted(to: canvasFormat) } catch {
                throw .malformed(.png, reason: "APNG frame \(index) cannot be drawn: \(error)", offset: frame.offset)
            }
            try limits.reserve(bytes: canvasBytes)
            let shown = compositor.draw(pixels, region: frame.region, blend: frame.blend, disposal: frame.disposal)
            animationFrames.append(AnimationFrame(canvas: shown, delay: frame.delay, region: frame.region,
                                                  disposal: frame.disposal, blend: frame.blend))
        }
        if decodeAllFrames, let last = animationFrames.last {
            for _ in animationFrames.count..<structure.declaredFrameCount {
                try limits.reserve(bytes: canvasBytes)
                animationFrames.append(AnimationFrame(canvas: last.canvas, delay: 0, region: last.region, disposal: .none, blend: .source))
            }
        }
        guard let first = animationFrames.first, let firstStored else {
            throw .malformed(.png, reason: "APNG has no frame to show", offset: nil)
        }
        let coversCanvas = frames[0].region == PixelRect(x: 0, y: 0, width: header.width, height: header.height)
        if !coversCanvas {
            metadata.storedFormatNote = "frame 0 covers \(frames[0].region) of the canvas; delivered as the composited RGBA canvas"
        }
        let animation = animationFrames.count > 1 ? Animation(loopCount: structure.plays, frames: animationFrames) : nil
        return Image(bitmap: coversCanvas ? firstStored : first.canvas, orientation: orientation,
                     metadata: metadata, animation: animation)
    }

    /// The stored pixels of one frame: the file itself for the default image, else a
    /// standalone PNG built from its fdAT data.
    private static func decodePixels(of frame: APNGStructure.Frame, index: Int, bytes: [UInt8], list: PNGChunkList,
                                     header: PNGImageHeader, limits: inout DecodeLimits) throws(DecodeError) -> Bitmap {
        if frame.isDefaultImage {
            return try PNGPixelDecoder.decode(bytes, header: header, chunks: list, limits: &limits)
        }
        var frameHeader = header
        frameHeader.width = frame.region.width
        frameHeader.height = frame.region.height
        return try PNGPixelDecoder.decode(APNGStructure.standalonePNG(for: frame, in: list), header: frameHeader,
                                          limits: &limits, context: "APNG frame \(index) (fcTL at byte \(frame.offset))")
    }

    /// How a broken animation is reported in `metadata.properties`.
    static func describe(_ reason: String, _ offset: Int?) -> String {
        "\(reason)\(offset.map { " (at byte \($0))" } ?? ""); showing the default image"
    }
}
