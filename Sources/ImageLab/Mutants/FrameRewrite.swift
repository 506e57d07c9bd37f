import ImageCorpus
import ImageCore

/// The pixel surgery the mutants share (each applied to every frame with
/// `Image.mappingBitmaps`): convert exactly, and relabel bytes with another layout (the heart of
/// the byte-order and alpha bugs: the bytes are right, the description of them is wrong).
enum FrameRewrite {
    /// `bitmap` converted exactly to `format` (ImageCore's rules), or a ``ResizerError``.
    static func convert(_ bitmap: Bitmap, to format: PixelFormat) throws(ResizerError) -> Bitmap {
        do { return try bitmap.converted(to: format) } catch { throw .failed("cannot convert \(bitmap.format) to \(format): \(error)") }
    }

    /// The same bytes described by `format` (same width, height and bytes per row).
    static func relabel(_ bitmap: Bitmap, as format: PixelFormat) throws(ResizerError) -> Bitmap {
        do { return try Bitmap(width: bitmap.width, height: bitmap.height, format: format, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes) } catch {
            throw .failed("cannot relabel \(bitmap.format) as \(format): \(error)")
        }
    }

    /// The bitmap as straight 16-bit RGBA (big-endian samples, 8 bytes a pixel).
    static func rgba16(_ bitmap: Bitmap) throws(ResizerError) -> Bitmap { try convert(bitmap, to: .rgba16) }

    /// A 16-bit RGBA bitmap rebuilt from `samples` (4 per pixel, row-major).
    static func rgba16(width: Int, height: Int, samples: [UInt16], format: PixelFormat = .rgba16) throws(ResizerError) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        for (i, s) in samples.enumerated() {
            bytes[2 * i] = UInt8(s >> 8)
            bytes[2 * i + 1] = UInt8(s & 0xFF)
        }
        do { return try Bitmap(width: width, height: height, format: format, bytes: bytes) } catch {
            throw .failed("cannot build a \(width)×\(height) bitmap: \(error)")
        }
    }

    /// The samples of a `.rgba16` bitmap (4 per pixel, row-major).
    static func samples(ofRGBA16 bitmap: Bitmap) -> [UInt16] {
        var out = [UInt16](repeating: 0, count: bitmap.width * bitmap.height * 4)
        for y in 0..<bitmap.height {
            let row = y * bitmap.bytesPerRow
            for i in 0..<(bitmap.width * 4) {
                out[y * bitmap.width * 4 + i] = UInt16(bitmap.bytes[row + 2 * i]) << 8 | UInt16(bitmap.bytes[row + 2 * i + 1])
            }
        }
        return out
    }
}
