import CImageShim
import ImageCore

/// The frames of an AVIF image sequence (its `moov` picture track), decoded by libavif: each frame is a whole
/// picture (AV1 sequences have no disposal or blending), cropped to the still item's clean aperture and
/// delivered in the still item's pixel format, so every frame holds the same layout as the first.
enum AVIFSequenceReader {
    /// Whether libavif could be loaded, and if not why (with the package to install).
    static var availability: (available: Bool, reason: String) {
        var why = [CChar](repeating: 0, count: 512)
        let available = imglab_avif_available(&why, why.count) == 1
        return (available, available ? "" : text(why))
    }

    /// The first `count` frames of the track, with the track's durations.
    /// - Throws: ``DecodeError/unsupported(_:feature:)`` without libavif; ``DecodeError/malformed(_:reason:offset:)``
    ///   when libavif cannot decode a frame or the track disagrees with the still item.
    static func frames(_ bytes: [UInt8], _ s: HEIFStructure, track: ImageSequenceTrack, count: Int, format: PixelFormat,
                       limits: DecodeLimits) throws(DecodeError) -> [AnimationFrame] {
        let (available, reason) = availability
        guard available else { throw .unsupported(.avif, feature: "image sequences: \(reason)") }
        let result: Result<[AnimationFrame], DecodeError> = bytes.withUnsafeBufferPointer { input in
            var why = [CChar](repeating: 0, count: 512)
            guard let sequence = imglab_avif_open(input.baseAddress, input.count, UInt32(clamping: limits.maxPixels),
                                                  UInt32(clamping: limits.maxDimension), &why, why.count) else {
                return .failure(.malformed(.avif, reason: "libavif cannot read the sequence: \(text(why))", offset: nil))
            }
            defer { imglab_avif_close(sequence) }
            var width: Int32 = 0, height: Int32 = 0, depth: Int32 = 0, frameCount: Int32 = 0, alpha: Int32 = 0
            var premultiplied: Int32 = 0
            imglab_avif_layout(sequence, &width, &height, &depth, &frameCount, &alpha, &premultiplied)
            guard Int(width) == s.codedWidth, Int(height) == s.codedHeight, Int(depth) == s.bitDepth,
                  (alpha == 1) == s.hasAlpha, (premultiplied == 1) == s.premultipliedAlpha, Int(frameCount) >= count else {
                return .failure(.malformed(.avif, reason: "the picture track (\(width)×\(height), \(depth)-bit, \(frameCount) "
                    + "frames) disagrees with the still item (\(s.codedWidth)×\(s.codedHeight), \(s.bitDepth)-bit)", offset: nil))
            }
            let high = depth > 8, channels = s.hasAlpha ? 4 : 3, sampleBytes = high ? 2 : 1
            let rowBytes = Int(width) * channels * sampleBytes
            var decoded = [UInt8](repeating: 0, count: rowBytes * Int(height))
            var frames: [AnimationFrame] = []
            while frames.count < count {
                let ok = decoded.withUnsafeMutableBufferPointer { out in
                    imglab_avif_next_frame(sequence, width, height, depth, s.hasAlpha ? 1 : 0, out.baseAddress, rowBytes, &why,
                                           why.count)
                }
                guard ok == 1 else {
                    return .failure(.malformed(.avif, reason: "libavif cannot decode frame \(frames.count + 1): \(text(why))",
                                               offset: nil))
                }
                let canvas = bitmap(decoded, rowBytes: rowBytes, channels: channels, depth: Int(depth), crop: s.cleanAperture,
                                    format: format)
                frames.append(AnimationFrame(canvas: canvas, delay: track.delays[frames.count],
                                             region: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height),
                                             disposal: .none, blend: .source))
            }
            return .success(frames)
        }
        return try result.get()
    }

    /// libavif's RGB(A) rows as the still item's bitmap: cropped, deep samples scaled to 16 bits (round(s · 65535 /
    /// (2^depth − 1)), big-endian), a gray picture's first channel kept.
    private static func bitmap(_ samples: [UInt8], rowBytes: Int, channels: Int, depth: Int, crop: PixelRect,
                               format: PixelFormat) -> Bitmap {
        let outChannels = format.slotCount, high = depth > 8, maximum = (1 << depth) - 1
        let outRow = crop.width * outChannels * (high ? 2 : 1)
        var pixels = [UInt8](repeating: 0, count: outRow * crop.height)
        for y in 0..<crop.height {
            let row = (crop.y + y) * rowBytes, target = y * outRow
            for x in 0..<crop.width {
                for c in 0..<outChannels {
                    // A gray frame keeps R of libavif's R = G = B; otherwise the channels in order.
                    let source = (crop.x + x) * channels + (outChannels == 1 ? 0 : c)
                    if high {
                        let stored = min(Int(samples[row + 2 * source]) | Int(samples[row + 2 * source + 1]) << 8, maximum)
                        let value = (stored * 65535 + maximum / 2) / maximum, i = target + 2 * (x * outChannels + c)
                        (pixels[i], pixels[i + 1]) = (UInt8(value >> 8), UInt8(value & 0xFF))
                    } else {
                        pixels[target + x * outChannels + c] = samples[row + source]
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: crop.width, height: crop.height, format: format, bytesPerRow: outRow, bytes: pixels)
    }

    private static func text(_ why: [CChar]) -> String {
        String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
