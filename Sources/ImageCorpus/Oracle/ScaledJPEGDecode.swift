import ImageCore

/// What the ImageIO thumbnail contract lets a resizer decode: a JPEG's `maxPixelSize` thumbnail
/// may start from the image decoded at 1/2, 1/4 or 1/8 in the DCT domain (libjpeg's scaled
/// inverse DCT), as long as that leaves at least the output's pixels. Such a start is another
/// image than the full decode, so the kernel-exact oracle (rendered from the full decode) does not
/// judge those pairs; the box oracle and its tolerant families do (docs/gates.md, "JPEG thumbnails").
///
/// Stated here from the contract, independently of any resizer.
public enum ScaledJPEGDecode {
    /// The largest DCT scale denominator `d` (8, 4 or 2) with `ceil(width/d) ≥ target.width` and
    /// `ceil(height/d) ≥ target.height`, all in stored (unrotated) pixels; 1 when none qualifies.
    public static func denominator(width: Int, height: Int, target: (width: Int, height: Int)) -> Int {
        for d in [8, 4, 2] where (width + d - 1) / d >= target.width && (height + d - 1) / d >= target.height {
            return d
        }
        return 1
    }

    /// Whether `operation` on a JPEG stored `width × height` with `orientation` may be decoded at a
    /// reduced DCT scale: a `maxPixelSize` whose upright output, turned back to the stored
    /// orientation, leaves a denominator above 1.
    public static func mayApply(to operation: LabOperation, container: String, width: Int, height: Int,
                                orientation: Orientation) -> Bool {
        guard container == "jpeg", case .maxPixelSize(let n) = operation else { return false }
        let display = orientation.displaySize(width: width, height: height)
        let target = OutputGeometry.maxPixelSize(width: display.width, height: display.height, limit: n)
        let stored = orientation.swapsDimensions ? (width: target.height, height: target.width) : target
        return denominator(width: width, height: height, target: stored) > 1
    }
}
