import CImageShim
import ImageCore

/// WebP (RFC 9649) through the system's libwebp, loaded when first used.
///
/// The header is read by imglab itself (``WebPStructure``), so `imglab info` describes a WebP file
/// even where libwebp is missing; decoding and encoding need the library and otherwise throw
/// ``DecodeError/unsupported(_:feature:)`` naming the package to install (``availability``).
///
/// Pixels come out as libwebp delivers them: 8-bit straight RGBA when the file has alpha,
/// otherwise 8-bit RGB. An animation (`ANIM` + `ANMF`) comes out as an ``Animation`` of canvases
/// composited by libwebpdemux (blending and disposal applied), each frame's delay its ANMF
/// duration in seconds. The orientation is the EXIF chunk's (WebP has no orientation of its own);
/// the ICCP chunk's profile is ``ImageMetadata/iccProfile``.
public enum WebPCodec: ImageCodec {
    public static let container = ContainerFormat.webp

    /// Whether libwebp could be loaded, and if not why (with the package to install).
    public static var availability: (available: Bool, reason: String) {
        var why = [CChar](repeating: 0, count: 512)
        let available = imglab_webp_available(&why, why.count) == 1
        return (available, available ? "" : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Reads the chunks: canvas size, alpha, compression, frames and their timing, ICC and EXIF.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let structure = try WebPStructure(bytes)
        var header = ImageHeader(container: .webp, width: structure.width, height: structure.height,
                                 format: structure.hasAlpha ? .rgba8 : .rgb8, orientation: orientation(structure),
                                 frameCount: max(1, structure.frames.count), metadata: metadata(structure))
        if !structure.frames.isEmpty {
            header.timing = AnimationTiming(loopCount: structure.loopCount,
                                            delays: structure.frames.map { Double($0.duration) / 1000 })
        }
        return header
    }

    /// The scale denominators a still decodes at (``DecodeOptions/webpScaleDenominator``).
    public static let scaleDenominators = [1, 2, 4, 8]

    /// The size a still `width × height` decodes to at 1/`d`: ⌈width/d⌉ × ⌈height/d⌉, in pixels.
    /// Unlike a JPEG's scaled decode, every output pixel is image: the rescaler maps the whole
    /// stored picture onto the whole output.
    public static func scaledSize(width: Int, height: Int, denominator d: Int) -> (width: Int, height: Int) {
        ((width + d - 1) / d, (height + d - 1) / d)
    }

    /// Decodes the still image (at 1/`options.webpScaleDenominator`), or the animation's
    /// canvases (only the first unless `options.decodeAllFrames`). The canvas size, the frame
    /// count and the bytes of every canvas are checked against the limits before libwebp
    /// allocates anything; a scaled still is budgeted at its scaled size.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        let structure = try WebPStructure(bytes)
        var limits = options.limits
        let d = structure.frames.isEmpty ? options.webpScaleDenominator : 1
        guard scaleDenominators.contains(d) else {
            throw .unsupported(.webp, feature: "scale 1/\(d) (imglab scales a WebP by 1/1, 1/2, 1/4 or 1/8)")
        }
        guard structure.width <= limits.maxDimension, structure.height <= limits.maxDimension else {
            throw .limitExceeded(.dimension, requested: max(structure.width, structure.height), allowed: limits.maxDimension)
        }
        let size = scaledSize(width: structure.width, height: structure.height, denominator: d)
        try limits.check(width: size.width, height: size.height)
        let (available, reason) = availability
        guard available else { throw .unsupported(.webp, feature: "decoding: \(reason)") }
        let format: PixelFormat = structure.hasAlpha ? .rgba8 : .rgb8
        var meta = metadata(structure)
        let orientation = orientation(structure)
        if structure.frames.isEmpty {
            let rowBytes = size.width * format.bitsPerPixel / 8
            try limits.reserve(bytes: rowBytes * size.height)
            var pixels = [UInt8](repeating: 0, count: rowBytes * size.height)
            let status = bytes.withUnsafeBufferPointer { input in
                pixels.withUnsafeMutableBufferPointer { output in
                    imglab_webp_decode_still(input.baseAddress, input.count, structure.hasAlpha ? 1 : 0,
                                             Int32(size.width), Int32(size.height), output.baseAddress, output.count,
                                             Int32(rowBytes))
                }
            }
            guard status == 0 else { throw .malformed(.webp, reason: "libwebp cannot decode the bitstream (status \(status))", offset: nil) }
            let bitmap = Bitmap(uncheckedWidth: size.width, height: size.height, format: format,
                                bytesPerRow: rowBytes, bytes: pixels)
            if d > 1 { meta.properties["webp.scale"] = "1/\(d)" }
            return Image(bitmap: bitmap, orientation: orientation, metadata: meta)
        }
        let wanted = options.decodeAllFrames ? structure.frames.count : 1
        try limits.check(frames: wanted)
        let canvasBytes = structure.width * structure.height * 4
        let (total, overflow) = canvasBytes.multipliedReportingOverflow(by: wanted + 1)
        try limits.reserve(bytes: overflow ? .max : total)
        let frames = try WebPAnimationReader.canvases(bytes, structure: structure, count: wanted, format: format)
        guard let first = frames.first else { throw .malformed(.webp, reason: "the animation has no frame", offset: nil) }
        let animation = Animation(loopCount: structure.loopCount, frames: frames)
        return Image(bitmap: first.canvas, orientation: orientation, metadata: meta,
                     animation: options.decodeAllFrames && frames.count > 1 ? animation : nil)
    }

    /// Encodes the image (its first frame) with libwebp: lossless unless `options.webpQuality`
    /// asks for lossy; the orientation (when not up and `options.writeOrientation`) in an EXIF
    /// chunk, the ICC profile in an ICCP chunk.
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try WebPEncoder.encode(image, options: options)
    }

    static func orientation(_ s: WebPStructure) -> Orientation {
        s.exif.flatMap { EXIF.orientation(in: $0) } ?? .up
    }

    static func metadata(_ s: WebPStructure) -> ImageMetadata {
        var metadata = ImageMetadata(iccProfile: s.iccProfile, exif: s.exif)
        metadata.storedBitDepth = 8
        metadata.properties["compression"] = s.compression.rawValue
        if s.exif.flatMap({ EXIF.orientation(in: $0) }) != nil { metadata.orientationSource = .webpExif }
        if !s.frames.isEmpty { metadata.properties["frames"] = "\(s.frames.count), loop count \(s.loopCount)" }
        return metadata
    }
}
