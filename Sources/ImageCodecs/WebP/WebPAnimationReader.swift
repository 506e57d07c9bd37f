import CImageShim
import ImageCore

/// The canvases of an animated WebP, composited by libwebpdemux's `WebPAnimDecoder` (each ANMF
/// frame blended or not and the previous one disposed as its flags say), copied out one by one.
enum WebPAnimationReader {
    /// The first `count` canvases as `format` bitmaps (RGBA as libwebp composites them, or RGB
    /// with the alpha dropped when the file has none), with the file's frame regions and timing.
    static func canvases(_ bytes: [UInt8], structure: WebPStructure, count: Int, format: PixelFormat) throws(DecodeError)
        -> [AnimationFrame] {
        let width = structure.width, height = structure.height
        let result: Result<[AnimationFrame], DecodeError> = bytes.withUnsafeBufferPointer { input in
            var w: Int32 = 0, h: Int32 = 0, loops: Int32 = 0, declared: Int32 = 0
            guard let animation = imglab_webp_animation_open(input.baseAddress, input.count, &w, &h, &loops, &declared) else {
                return .failure(.malformed(.webp, reason: "libwebp cannot read the animation", offset: nil))
            }
            defer { imglab_webp_animation_close(animation) }
            guard Int(w) == width, Int(h) == height else {
                return .failure(.malformed(.webp, reason: "libwebp reads a \(w)×\(h) canvas, VP8X says \(width)×\(height)", offset: nil))
            }
            var frames: [AnimationFrame] = []
            var canvas: UnsafePointer<UInt8>?
            var timestamp: Int32 = 0
            while frames.count < count, imglab_webp_animation_next(animation, &canvas, &timestamp) == 1, let canvas {
                let frame = structure.frames[min(frames.count, structure.frames.count - 1)]
                frames.append(AnimationFrame(canvas: bitmap(canvas, width: width, height: height, format: format),
                                             delay: Double(frame.duration) / 1000, region: frame.region,
                                             disposal: frame.disposal, blend: frame.blend))
            }
            guard frames.count == count else {
                return .failure(.malformed(.webp, reason: "libwebp decoded \(frames.count) of \(count) frames", offset: nil))
            }
            return .success(frames)
        }
        return try result.get()
    }

    private static func bitmap(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int, format: PixelFormat) -> Bitmap {
        let pixels = width * height
        let channels = format.bitsPerPixel / 8
        var bytes = [UInt8](repeating: 0, count: pixels * channels)
        if channels == 4 {
            bytes.withUnsafeMutableBufferPointer { out in
                if let base = out.baseAddress { base.update(from: rgba, count: pixels * 4) }
            }
        } else {
            for p in 0..<pixels {
                bytes[3 * p] = rgba[4 * p]; bytes[3 * p + 1] = rgba[4 * p + 1]; bytes[3 * p + 2] = rgba[4 * p + 2]
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: format, bytesPerRow: width * channels, bytes: bytes)
    }
}
