import ImageCore

/// GIF (GIF87a / GIF89a) through giflib 5.2.
///
/// Spec: https://www.w3.org/Graphics/GIF/spec-gif89a.txt
///
/// Decoding reads record by record (``GIFReader``) and composites (``GIFCompositor``):
/// a single frame comes out as an 8-bit `.indexed` bitmap whose palette is the frame's colour
/// table, with the transparent index's entry at alpha 0; several frames come out as an
/// ``Animation`` of composited 8-bit canvases (RGBA when any frame has a transparent index,
/// RGB otherwise), the first canvas also being ``Image/bitmap``. Delays are centiseconds / 100
/// seconds. ``Animation/loopCount`` is the NETSCAPE2.0 / ANIMEXTS1.0 value (0 = forever); a file
/// without a loop extension plays once, loop count 1. `metadata.storedBitDepth` is the global
/// colour table's index bits, nil without a global table.
public enum GIFCodec: ImageCodec {
    public static let container = ContainerFormat.gif

    /// Reads the screen size, the delivered format and the number of image descriptors,
    /// walking every record but decoding no pixels.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        var limits = options.limits
        let stream = try GIFReader.read(bytes, depth: .structure, limits: &limits)
        let layout = try GIFCompositor.layout(of: stream)
        var header = ImageHeader(container: .gif, width: stream.width, height: stream.height,
                                 format: GIFCompositor.format(of: layout), frameCount: stream.frames.count,
                                 metadata: GIFCompositor.metadata(of: stream))
        if stream.frames.count > 1 {
            // As GIFCompositor reports them: no control extension is a zero delay, no loop extension plays once.
            header.timing = AnimationTiming(loopCount: stream.loopCount ?? 1,
                                            delays: stream.frames.map { Double($0.control?.delayCentiseconds ?? 0) / 100 })
        }
        return header
    }

    /// Decodes the first frame, or every frame when `options.decodeAllFrames`.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        var limits = options.limits
        let stream = try GIFReader.read(bytes, depth: options.decodeAllFrames ? .allFrames : .firstFrame, limits: &limits)
        return try GIFCompositor.image(from: stream, limits: &limits)
    }

    /// Encodes a still image or an animation; see ``GIFEncoder`` for what is accepted.
    /// - Throws: ``EncodeError/unsupportedFormat(_:_:suggestion:)`` for more than 256 colours
    ///   or partial alpha; ``EncodeError/library(_:_:)`` when giflib fails.
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try GIFEncoder.encode(image, options: options)
    }
}
