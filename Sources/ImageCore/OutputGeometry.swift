/// Where every output size and source rectangle in ImageResize comes from: one rounding rule,
/// in exact integer arithmetic.
///
/// **The rule.** An aspect-preserving size keeps the constraining side exactly equal to the
/// box and rounds the other side *half up* from the exact rational `side · box / constraining`,
/// never below 1 pixel. Integer arithmetic means no floating-point overshoot: 11×5 fit in
/// 100×100 is 100×45 (exact 45.45…), never 101 wide; 1000×333 is 100×33; 1×150 fit in 128 is
/// 1×128, never 0 wide. Pixel centres sit at half-integers (`x + ½`), as in Pillow and libvips.
public enum OutputGeometry {
    /// `round(a · b / c)` half up, at least 1, in exact integer arithmetic (`c > 0`).
    @inlinable
    public static func scaledSide(_ a: Int, times b: Int, over c: Int) -> Int {
        max(1, (2 * a * b + c) / (2 * c))
    }

    /// Whether `width × height` is relatively wider than the box (width is the constraint when fitting).
    @inlinable
    public static func isWiderThanBox(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> Bool {
        width * boxHeight >= height * boxWidth
    }

    /// The largest size with the input's aspect ratio that fits in the box.
    public static func aspectFit(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        if isWiderThanBox(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight) {
            return (boxWidth, scaledSide(height, times: boxWidth, over: width))
        }
        return (scaledSide(width, times: boxHeight, over: height), boxHeight)
    }

    /// The smallest size with the input's aspect ratio that covers the box (aspect fill without crop).
    public static func aspectCover(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        if isWiderThanBox(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight) {
            return (scaledSide(width, times: boxHeight, over: height), boxHeight)
        }
        return (boxWidth, scaledSide(height, times: boxWidth, over: width))
    }

    /// The largest rectangle of the input with the box's aspect ratio, placed by `anchor`
    /// (0 = left/top, ½ = centre, 1 = right/bottom), in input pixels; fractional edges are
    /// allowed, so the crop loses no precision before resampling.
    public static func aspectFillSource(width: Int, height: Int, boxWidth: Int, boxHeight: Int,
                                        anchor: (x: Double, y: Double) = (0.5, 0.5)) -> (x: Double, y: Double, width: Double, height: Double) {
        let w = Double(width), h = Double(height)
        if isWiderThanBox(width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight) {
            let sw = h * Double(boxWidth) / Double(boxHeight)
            return ((w - sw) * anchor.x, 0, sw, h)
        }
        let sh = w * Double(boxHeight) / Double(boxWidth)
        return (0, (h - sh) * anchor.y, w, sh)
    }

    /// The size that fits `maxPixelSize` on the longer side, never enlarging (the ImageIO
    /// thumbnail contract); `width × height` is the display size.
    public static func maxPixelSize(width: Int, height: Int, limit: Int) -> (width: Int, height: Int) {
        guard max(width, height) > limit else { return (width, height) }
        return aspectFit(width: width, height: height, boxWidth: limit, boxHeight: limit)
    }
}
