import ImageCore

/// The output size and placement of each ``LabOperation`` on a canvas of the upright image's
/// size, by the declared size rule (``OutputGeometry``), and the other contracts of the
/// resizer restated independently:
/// - resize: scaleToFill → the box; aspectFit → `OutputGeometry.aspectFit`;
///   aspectFillWithoutCrop → `aspectCover`; aspectFill → the box, showing `aspectFillSource`
///   (fractional edges kept).
/// - crop: `CGRectIntegral` (origin rounds down, far edges up), clipped to the canvas.
/// - square thumbnail: fill to `size × size` centred, then a border of `b` pixels:
///   `(size + 2b)²`, corners of radius `min(r, size / 2)` on the content square.
/// - rounded corners: `(w + 2b) × (h + 2b)`, radius `min(r, min(w, h) / 2)`.
/// - transparent border: `(w + 2n) × (h + 2n)`.
/// - orient: the display size. Max pixel size: `OutputGeometry.maxPixelSize`.
public enum OracleGeometry {
    /// The placement of `operation` on a `width × height` upright canvas.
    /// - Throws: ``OracleGeometryError`` for an empty box or a crop outside the canvas.
    public static func placement(of operation: LabOperation, width w: Int, height h: Int) throws(OracleGeometryError) -> OraclePlacement {
        let whole = (x: 0.0, y: 0.0, width: Double(w), height: Double(h))
        func aspect(_ p: OraclePlacement, _ scale: Double) -> OraclePlacement {
            var p = p
            p.aspectScale = scale
            return p
        }
        func filling(_ ow: Int, _ oh: Int, _ source: (x: Double, y: Double, width: Double, height: Double)) -> OraclePlacement {
            OraclePlacement(width: ow, height: oh, content: (0, 0, Double(ow), Double(oh)), source: source)
        }
        switch operation {
        case .orient:
            return .identity(width: w, height: h)
        case .resize(let bw, let bh, let mode):
            guard bw > 0, bh > 0 else { throw OracleGeometryError(reason: "box \(bw)×\(bh) is empty") }
            switch mode {
            case .scaleToFill:
                return filling(bw, bh, whole)
            case .aspectFit:
                let s = OutputGeometry.aspectFit(width: w, height: h, boxWidth: bw, boxHeight: bh)
                return aspect(filling(s.width, s.height, whole), min(Double(bw) / Double(w), Double(bh) / Double(h)))
            case .aspectFillWithoutCrop:
                let s = OutputGeometry.aspectCover(width: w, height: h, boxWidth: bw, boxHeight: bh)
                return aspect(filling(s.width, s.height, whole), max(Double(bw) / Double(w), Double(bh) / Double(h)))
            case .aspectFill(let ax, let ay):
                let r = OutputGeometry.aspectFillSource(width: w, height: h, boxWidth: bw, boxHeight: bh, anchor: (ax, ay))
                return aspect(filling(bw, bh, (r.x, r.y, r.width, r.height)), max(Double(bw) / Double(w), Double(bh) / Double(h)))
            }
        case .crop(let x, let y, let cw, let ch):
            let x0 = max(Int(x.rounded(.down)), 0), y0 = max(Int(y.rounded(.down)), 0)
            let x1 = min(Int((x + cw).rounded(.up)), w), y1 = min(Int((y + ch).rounded(.up)), h)
            guard x1 > x0, y1 > y0 else { throw OracleGeometryError(reason: "crop \(cw)×\(ch)+\(x)+\(y) lies outside the \(w)×\(h) image") }
            return filling(x1 - x0, y1 - y0, (Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0)))
        case .squareThumbnail(let size, let border, let radius):
            guard size > 0, border >= 0, radius >= 0 else { throw OracleGeometryError(reason: "square thumbnail \(size), border \(border), radius \(radius)") }
            let r = OutputGeometry.aspectFillSource(width: w, height: h, boxWidth: size, boxHeight: size)
            let b = Double(border), s = Double(size)
            return OraclePlacement(width: size + 2 * border, height: size + 2 * border, content: (b, b, s, s),
                                   source: (r.x, r.y, r.width, r.height), cornerRadius: min(radius, s / 2))
        case .roundedCorners(let radius, let border):
            guard radius >= 0, border >= 0 else { throw OracleGeometryError(reason: "radius \(radius), border \(border)") }
            let b = Double(border)
            return OraclePlacement(width: w + 2 * border, height: h + 2 * border, content: (b, b, Double(w), Double(h)),
                                   source: whole, cornerRadius: min(radius, Double(min(w, h)) / 2))
        case .transparentBorder(let n):
            guard n >= 0 else { throw OracleGeometryError(reason: "border \(n) is negative") }
            return OraclePlacement(width: w + 2 * n, height: h + 2 * n, content: (Double(n), Double(n), Double(w), Double(h)), source: whole)
        case .maxPixelSize(let limit):
            guard limit > 0 else { throw OracleGeometryError(reason: "max pixel size \(limit) must be positive") }
            let s = OutputGeometry.maxPixelSize(width: w, height: h, limit: limit)
            return filling(s.width, s.height, whole)
        }
    }
}
