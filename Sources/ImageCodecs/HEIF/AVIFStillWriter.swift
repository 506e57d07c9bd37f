import CImageShim
import ImageCore

/// Writes a 10-bit AVIF still with libavif's encoder (libaom on Debian), for ``HEIFEncoder``: libaom under
/// libheif 1.15 fails or aborts on every 10-bit AV1 picture, while libavif's path to the same libaom does not.
/// Lossless unless `options.heifQuality` (4:4:4, the identity matrix), else BT.601 at `chroma` with the AV1
/// quantizer (100 − quality) · 63 / 100, at least 1 — the scale ``AVIFSequenceWriter`` uses. The EXIF block and
/// ICC profile go in as given; the picture is stored as given (the caller adds `irot`/`imir`).
enum AVIFStillWriter {
    /// - Parameters:
    ///   - samples: packed rows of `channels` samples, 16-bit little-endian words holding `bits`-deep values.
    ///   - rowBytes: bytes a row of `samples`.
    ///   - chroma: 420, 422 or 444 for a lossy picture.
    static func encode(_ samples: [UInt8], width: Int, height: Int, rowBytes: Int, channels: Int, bits: Int, premultiplied: Bool,
                       chroma: Int32, exif: [UInt8]?, icc: [UInt8]?, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let (available, reason) = AVIFSequenceReader.availability
        guard available else { throw .library(.avif, "10-bit AVIF: \(reason)") }
        let quantizer = AVIFSequenceWriter.quantizer(options)
        var output: UnsafeMutablePointer<UInt8>?
        var why = [CChar](repeating: 0, count: 512)
        let size = samples.withUnsafeBufferPointer { pixels in
            (exif ?? []).withUnsafeBufferPointer { exifBytes in
                (icc ?? []).withUnsafeBufferPointer { profile in
                    imglab_avif_encode_still(pixels.baseAddress, Int32(width), Int32(height), Int32(rowBytes), Int32(channels),
                                             Int32(bits), premultiplied ? 1 : 0, Int32(quantizer), chroma, exifBytes.baseAddress,
                                             exifBytes.count, profile.baseAddress, profile.count, &output, &why, why.count)
                }
            }
        }
        guard size > 0, let output else {
            let text = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .library(.avif, "libavif could not encode the \(width)×\(height) image: \(text)")
        }
        defer { imglab_avif_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
