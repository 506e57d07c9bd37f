import ImageCore

/// What the ImageIO thumbnail contract lets a resizer decode: a `maxPixelSize` thumbnail of a
/// JPEG may start from the image decoded at 1/2, 1/4 or 1/8 in the DCT domain (libjpeg's scaled
/// inverse DCT), and one of a still WebP from the image libwebp's rescaler makes at that scale
/// while decoding, as long as that leaves at least the output's pixels. Such a start is another
/// image than the full decode, so the kernel-exact oracle (rendered from the full decode) does not
/// judge those pairs; the box oracle and its tolerant families do (docs/gates.md, "JPEG and WebP
/// thumbnails").
///
/// Stated here from the contract, independently of any resizer.
public enum ScaledDecode {
    /// The containers the contract scales: JPEG and (still) WebP.
    public static let containers = ["jpeg", "webp"]

    /// The largest scale denominator `d` (8, 4 or 2) with `ceil(width/d) ≥ target.width` and
    /// `ceil(height/d) ≥ target.height`, all in stored (unrotated) pixels; 1 when none qualifies.
    public static func denominator(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] where (width + d - 1) / d >= target.width && (height + d - 1) / d >= target.height {
            return d
        }
        return 1
    }

    /// Whether `operation` on a JPEG or still WebP stored `width × height` with `orientation` may be
    /// decoded at a reduced scale into fewer pixels: a `maxPixelSize` whose upright output, turned
    /// back to the stored orientation, leaves a denominator above 1 that shrinks a side (a 1 × 1
    /// image decodes to 1 × 1 at any scale). An animation (`frames` > 1) is decoded in full.
    public static func mayApply(to operation: LabOperation, container: String, width: Int, height: Int,
                                orientation: Orientation, frames: Int = 1) -> Bool {
        guard containers.contains(container), frames <= 1,
              case .maxPixelSize(let n) = operation else { return false }
        let display = orientation.displaySize(width: width, height: height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: n)
        let stored = orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        let d = denominator(width: width, height: height, target: stored)
        return d > 1 && ((width + d - 1) / d < width || (height + d - 1) / d < height)
    }
}
