import Foundation

/// The exact area of each pixel inside a rounded rectangle (CoreGraphics' `addRoundedRect`
/// shape: quarter circles of `radius` in the corners), in closed form, for the ``KernelOracle``.
///
/// A pixel is the square `[x, x+1] × [y, y+1]`. Its covered area is the integral over `x′` of the
/// length of the shape's column at `x′` inside the pixel. The column is `[top(x′), bottom(x′)]`,
/// with `top = y0 + r − √(r² − d²)` and `bottom = y1 − (r − √(r² − d²))`, `d` the distance of `x′`
/// into a corner's quarter. Splitting `[x, x+1]` where `x′` enters or leaves a corner and where the
/// arc crosses `y` or `y + 1` leaves pieces on which each bound is either a constant or an arc, and
/// the arc integrates exactly: `∫ √(r² − u²) du = ½ (u √(r² − u²) + r² asin(u / r))`.
public struct RoundedRectArea: Sendable {
    /// The rectangle, in output pixels.
    public let x0: Double, y0: Double, x1: Double, y1: Double
    /// The corner radius in pixels, at most half the shorter side.
    public let radius: Double

    /// A rounded rectangle; the radius is limited to half the shorter side.
    public init(x0: Double, y0: Double, x1: Double, y1: Double, radius: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        self.radius = max(0, min(radius, min(x1 - x0, y1 - y0) / 2))
    }

    /// The fraction (0…1) of pixel (x, y) inside the shape.
    public func fraction(x: Int, y: Int) -> Double {
        let fx = Double(x), fy = Double(y), r = radius
        let a = max(fx, x0), b = min(fx + 1, x1)
        guard b > a, fy + 1 > y0, fy < y1 else { return 0 }
        guard r > 0 else { return (b - a) * (min(fy + 1, y1) - max(fy, y0)) }
        let left = x0 + r, right = x1 - r
        var cuts: [Double] = [a, b, left, right]
        // Where the arcs cross the pixel's top and bottom edges.
        for yy in [fy, fy + 1] {
            for centreY in [y0 + r, y1 - r] {
                let dy = abs(centreY - yy)
                guard dy <= r else { continue }
                let dx = (r * r - dy * dy).squareRoot()
                cuts += [left - dx, right + dx]
            }
        }
        let points = cuts.filter { $0 >= a && $0 <= b }.sorted()
        var total = 0.0
        for (p, q) in zip(points, points.dropFirst()) where q > p {
            total += pieceArea(from: p, to: q, pixelTop: fy, pixelBottom: fy + 1)
        }
        return min(max(total, 0), 1)
    }

    /// The area over `[p, q]` (one piece: each bound is a constant or one arc) between the
    /// pixel's rows and the shape's column.
    private func pieceArea(from p: Double, to q: Double, pixelTop: Double, pixelBottom: Double) -> Double {
        let r = radius, mid = (p + q) / 2
        let inset = r - (r * r - square(depth(mid))).squareRoot()
        let top = y0 + inset, bottom = y1 - inset
        guard min(pixelBottom, bottom) > max(pixelTop, top) else { return 0 }
        // ∫ of the arc's inset r − √(r² − d²) over the piece.
        let insetIntegral = r * (q - p) - arcIntegral(p, q)
        let upper = bottom < pixelBottom ? y1 * (q - p) - insetIntegral : pixelBottom * (q - p)
        let lower = top > pixelTop ? y0 * (q - p) + insetIntegral : pixelTop * (q - p)
        return upper - lower
    }

    /// How far `x′` lies into a corner's quarter (0 between the corners).
    private func depth(_ x: Double) -> Double {
        max(x0 + radius - x, x - (x1 - radius), 0)
    }

    /// `∫ √(r² − depth(x′)²) dx′` over `[p, q]`, which lies in one corner quarter or between them.
    private func arcIntegral(_ p: Double, _ q: Double) -> Double {
        let r = radius, mid = (p + q) / 2
        func primitive(_ u: Double) -> Double {
            let v = min(max(u, -r), r)
            return 0.5 * (v * (r * r - v * v).squareRoot() + r * r * asin(v / r))
        }
        if mid < x0 + r { return primitive(x0 + r - p) - primitive(x0 + r - q) }
        if mid > x1 - r { return primitive(q - (x1 - r)) - primitive(p - (x1 - r)) }
        return r * (q - p)
    }

    private func square(_ v: Double) -> Double { v * v }
}
