import ImageCore
import ImageCodecs
import ImageMetrics

/// The layer drawn over the expected and actual images of a pair page where pixels are ignored:
/// transparent elsewhere, and over ignored pixels dark stripes on a grey wash (the stripes of the
/// heat map's hatch, ((x + y) / 3) mod 2), so a masked region stays visible but reads as left out
/// in every view (side by side, slider, blend, toggle). An indexed PNG of three colours.
enum IgnoredOverlay {
    static let palette = Palette([Palette.Entry(red: 0, green: 0, blue: 0, alpha: 0),
                                  Palette.Entry(red: 50, green: 50, blue: 50, alpha: 210),
                                  Palette.Entry(red: 150, green: 150, blue: 150, alpha: 150)])

    /// The overlay PNG of `mask` (its size is the compared images' displayed size).
    static func png(_ mask: PixelMask) throws(EncodeError) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: mask.width * mask.height)
        for y in 0..<mask.height {
            for x in 0..<mask.width where mask.bits[y * mask.width + x] {
                indices[y * mask.width + x] = ((x + y) / 3) % 2 == 0 ? 1 : 2
            }
        }
        let bitmap = Bitmap(uncheckedWidth: mask.width, height: mask.height,
                            format: PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8), bytesPerRow: mask.width, bytes: indices)
        return try ImageCodecs.encode(Image(bitmap: bitmap), as: .png)
    }
}
