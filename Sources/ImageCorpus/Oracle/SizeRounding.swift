/// How a resizer rounds the free side of an aspect-preserving output size (fit, fill without
/// crop, max pixel size), the side that is not pinned to the box. The pinned side always equals
/// the box. Every rule works on the exact rational `side · box / constraining` in integer
/// arithmetic and never gives less than 1 pixel.
///
/// - `builtin`: ImageCore's `OutputGeometry` rule, half up (``OracleGeometry`` applies it).
/// - `floor`: rounded down (e.g. 48×32 fit in 31×31 → 31×20, exact 20.67).
/// - `round`: to the nearest, ties to even (Python's `round`, C's `rint`): differs from
///   `builtin` only on exact halves (48×33 fit in 24×24 → 24×16, exact 16.5; built-in 24×17).
/// - `ceil`: rounded up (48×32 fit in 20×20 → 20×14, exact 13.33; built-in 20×13).
public enum SizeRounding: String, Sendable, Hashable, Codable, CaseIterable {
    case builtin, floor, round, ceil

    /// `a · b / c` rounded by this rule, at least 1 (`c > 0`); `builtin` rounds half up.
    public func scaledSide(_ a: Int, times b: Int, over c: Int) -> Int {
        let n = a * b, q = n / c, r = n % c
        let up: Bool
        switch self {
        case .builtin: up = 2 * r >= c
        case .floor: up = false
        case .ceil: up = r > 0
        case .round: up = 2 * r > c || (2 * r == c && q % 2 == 1)
        }
        return max(1, q + (up ? 1 : 0))
    }

    /// The largest size with the input's aspect ratio inside the box, by this rule.
    public func aspectFit(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        if width * boxHeight >= height * boxWidth { return (boxWidth, scaledSide(height, times: boxWidth, over: width)) }
        return (scaledSide(width, times: boxHeight, over: height), boxHeight)
    }

    /// The smallest size with the input's aspect ratio covering the box, by this rule.
    public func aspectCover(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        if width * boxHeight >= height * boxWidth { return (scaledSide(width, times: boxHeight, over: height), boxHeight) }
        return (boxWidth, scaledSide(height, times: boxWidth, over: width))
    }

    /// The max-pixel-size contract (longer side at most `limit`, never enlarged), by this rule.
    public func maxPixelSize(width: Int, height: Int, limit: Int) -> (width: Int, height: Int) {
        guard max(width, height) > limit else { return (width, height) }
        return aspectFit(width: width, height: height, boxWidth: limit, boxHeight: limit)
    }

    /// The output size of `operation` on a `width × height` upright image when it differs from
    /// what ``OracleGeometry`` gives (the built-in rule), else `nil`: only fit, fill without crop
    /// and max pixel size depend on the rule.
    public func size(of operation: LabOperation, width: Int, height: Int) -> (width: Int, height: Int)? {
        guard self != .builtin else { return nil }
        switch operation {
        case .resize(let bw, let bh, .aspectFit) where bw > 0 && bh > 0:
            return aspectFit(width: width, height: height, boxWidth: bw, boxHeight: bh)
        case .resize(let bw, let bh, .aspectFillWithoutCrop) where bw > 0 && bh > 0:
            return aspectCover(width: width, height: height, boxWidth: bw, boxHeight: bh)
        case .maxPixelSize(let limit) where limit > 0:
            return maxPixelSize(width: width, height: height, limit: limit)
        default:
            return nil
        }
    }
}
