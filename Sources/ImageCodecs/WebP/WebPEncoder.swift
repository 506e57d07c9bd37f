import CImageShim
import ImageCore

/// Writes WebP files with libwebp: 8-bit RGBA when the image has alpha (straight; premultiplied
/// colour is divided), 8-bit RGB otherwise; 16-bit and float samples are rounded to 8 bits
/// (WebP stores nothing deeper). Lossless by default, the colour under transparent pixels kept;
/// lossy at `options.webpQuality`. An animation's canvases become full-canvas frames
/// (``WebPChunkLayout/animation(_:width:height:loopCount:alpha:iccProfile:exif:)``).
///
/// The orientation, when not up and `options.writeOrientation`, goes into an EXIF chunk and the
/// ICC profile into an ICCP chunk, in the extended layout RFC 9649 §2.7 gives: VP8X (its ICC,
/// alpha and EXIF flags set), ICCP, the bitstream chunks libwebp wrote, EXIF.
enum WebPEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let (available, reason) = WebPCodec.availability
        guard available else { throw .library(.webp, reason) }
        if let quality = options.webpQuality, !(0...100).contains(quality) {
            throw .invalidOption("WebP quality \(quality) is outside 0…100")
        }
        var orientation = image.orientation
        let bakesOrientation = orientation != .up && !options.writeOrientation
        func stored(_ bitmap: Bitmap) -> Bitmap { bakesOrientation ? orientation.apply(to: bitmap) : bitmap }
        if bakesOrientation { orientation = .up }
        let alpha = image.bitmap.format.hasAlpha
        let exif = orientation == .up ? nil : EXIF.replacingOrientation(in: image.metadata.exif, with: orientation)
        if let animation = image.animation, animation.frames.count > 1 {
            let first = stored(image.bitmap)
            let canvas = PixelRect(x: 0, y: 0, width: first.width, height: first.height)
            var frames: [(region: PixelRect, chunks: [UInt8], milliseconds: Int, flags: UInt8)] = []
            for frame in animation.frames {
                let file = try bitstream(stored(frame.canvas), alpha: alpha, options: options)
                frames.append((canvas, WebPChunkLayout.chunks(of: file), Int((frame.delay * 1000).rounded()), 0x02))
            }
            return WebPChunkLayout.animation(frames, width: first.width, height: first.height, loopCount: animation.loopCount,
                                             alpha: alpha, iccProfile: image.metadata.iccProfile, exif: exif)
        }
        let file = try bitstream(stored(image.bitmap), alpha: alpha, options: options)
        return try WebPChunkLayout.extended(file, iccProfile: image.metadata.iccProfile, exif: exif, alpha: alpha)
    }

    /// A simple WebP file of one bitmap, as libwebp writes it.
    private static func bitstream(_ bitmap: Bitmap, alpha: Bool, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let target: PixelFormat = alpha ? .rgba8 : .rgb8
        let source: Bitmap
        do { source = bitmap.format == target ? bitmap : try bitmap.converted(to: target) } catch {
            throw .unsupportedFormat(.webp, bitmap.format, suggestion: "convert to RGB or RGBA 8-bit first (\(error))")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = source.bytes.withUnsafeBufferPointer { pixels in
            imglab_webp_encode(pixels.baseAddress, Int32(source.width), Int32(source.height), Int32(source.bytesPerRow),
                               alpha ? 1 : 0, options.webpQuality == nil ? 1 : 0, Float(options.webpQuality ?? 100), &output)
        }
        guard size > 0, let output else {
            throw .library(.webp, "libwebp could not encode the \(source.width)×\(source.height) image (WebP's largest side is 16,383)")
        }
        defer { imglab_webp_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

/// Lays out WebP chunks by RFC 9649 §2.7: a simple file made extended (to carry an ICC profile
/// and an EXIF block) and frames made an animation.
enum WebPChunkLayout {
    /// `file` unchanged when there is nothing to add; otherwise `RIFF`, `VP8X`, `ICCP`, the file's
    /// own chunks but its VP8X, `EXIF`, with the VP8X flags and canvas size set from them. An image
    /// with alpha keeps the VP8X alpha flag even when every pixel is opaque (libwebp then writes
    /// none), so it decodes to RGBA as it was given.
    static func extended(_ file: [UInt8], iccProfile: [UInt8]?, exif: [UInt8]?, alpha: Bool) throws(EncodeError) -> [UInt8] {
        let structure: WebPStructure
        do { structure = try WebPStructure(file) } catch { throw .library(.webp, "libwebp wrote an unreadable file: \(error)") }
        guard iccProfile != nil || exif != nil || alpha != structure.hasAlpha else { return file }
        return riff(flags: alpha ? 0x10 : 0, width: structure.width, height: structure.height, iccProfile: iccProfile,
                    exif: exif, body: chunks(of: file))
    }

    /// An animated file: `ANIM` (transparent background, `loopCount`), then one `ANMF` a frame:
    /// its region (an even offset), duration in milliseconds, flags (0x01 dispose to background,
    /// 0x02 do not blend) and bitstream chunks.
    static func animation(_ frames: [(region: PixelRect, chunks: [UInt8], milliseconds: Int, flags: UInt8)], width: Int,
                          height: Int, loopCount: Int, alpha: Bool, iccProfile: [UInt8]?, exif: [UInt8]?) -> [UInt8] {
        var body = chunk("ANIM", [0, 0, 0, 0, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8 & 0xFF)])
        for frame in frames {
            let d = min(max(frame.milliseconds, 0), 0xFF_FFFF), r = frame.region
            body += chunk("ANMF", u24(r.x / 2) + u24(r.y / 2) + u24(r.width - 1) + u24(r.height - 1) + u24(d) + [frame.flags]
                                  + frame.chunks)
        }
        return riff(flags: (alpha ? 0x10 : 0) | 0x02, width: width, height: height, iccProfile: iccProfile, exif: exif, body: body)
    }

    /// Every chunk of `file` after its header but a VP8X, as they are.
    static func chunks(of file: [UInt8]) -> [UInt8] {
        var chunks: [UInt8] = []
        var offset = 12
        while offset + 8 <= file.count {
            let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
            let end = min(file.count, offset + 8 + size + (size & 1))
            if !file[offset..<offset + 4].elementsEqual("VP8X".utf8) { chunks += file[offset..<end] }
            offset = end
        }
        return chunks
    }

    private static func riff(flags: UInt8, width: Int, height: Int, iccProfile: [UInt8]?, exif: [UInt8]?, body: [UInt8]) -> [UInt8] {
        var flags = flags
        if iccProfile != nil { flags |= 0x20 }
        if exif != nil { flags |= 0x08 }
        var content = Array("WEBP".utf8) + chunk("VP8X", [flags, 0, 0, 0] + u24(width - 1) + u24(height - 1))
        if let iccProfile { content += chunk("ICCP", iccProfile) }
        content += body
        if let exif { content += chunk("EXIF", exif) }
        return Array("RIFF".utf8) + littleEndian32(content.count) + content
    }

    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + littleEndian32(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
    }

    private static func u24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }

    private static func littleEndian32(_ v: Int) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
    }
}

/// Writes an animated WebP from frame regions with their own disposal and blending (the frame
/// description ``APNGWriter`` takes): each region losslessly (its colour under alpha 0 kept) in an
/// ANMF chunk at its offset, with the dispose-to-background flag for `.background` and the
/// do-not-blend flag for `.source` (RFC 9649 §2.7.1.1).
public enum WebPAnimationWriter {
    /// - Throws: ``EncodeError/invalidOption(_:)`` for an odd offset (ANMF stores x/2 and y/2), a
    ///   region outside the canvas or `.previous` disposal (WebP has none); ``EncodeError/library(_:_:)``.
    public static func encode(canvasWidth: Int, canvasHeight: Int, frames: [APNGFrame], loopCount: Int) throws(EncodeError)
        -> [UInt8] {
        let (available, reason) = WebPCodec.availability
        guard available else { throw .library(.webp, reason) }
        var anmf: [(region: PixelRect, chunks: [UInt8], milliseconds: Int, flags: UInt8)] = []
        for (k, frame) in frames.enumerated() {
            let r = PixelRect(x: frame.x, y: frame.y, width: frame.pixels.width, height: frame.pixels.height)
            guard r.x % 2 == 0, r.y % 2 == 0 else { throw .invalidOption("frame \(k) at (\(r.x), \(r.y)): WebP offsets are even") }
            guard r.x >= 0, r.y >= 0, r.x + r.width <= canvasWidth, r.y + r.height <= canvasHeight else {
                throw .invalidOption("frame \(k)'s region \(r) is outside the \(canvasWidth)×\(canvasHeight) canvas")
            }
            guard frame.disposal != .previous else { throw .invalidOption("frame \(k): WebP has no 'previous' disposal") }
            let file = try ImageCodecs.encode(Image(bitmap: frame.pixels), as: .webp)
            let flags: UInt8 = (frame.disposal == .background ? 0x01 : 0) | (frame.blend == .source ? 0x02 : 0)
            anmf.append((r, WebPChunkLayout.chunks(of: file), Int((frame.delay * 1000).rounded()), flags))
        }
        return WebPChunkLayout.animation(anmf, width: canvasWidth, height: canvasHeight, loopCount: loopCount, alpha: true,
                                         iccProfile: nil, exif: nil)
    }
}
