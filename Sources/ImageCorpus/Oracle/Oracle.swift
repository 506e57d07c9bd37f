/// Renders the ideal output of an operation directly from an analytic scene.
///
/// Each output pixel is the average, over its square, of the scene's premultiplied colour in
/// linear light times the coverage of the content shape: the exact area integral, computed by
/// supersampling on a regular `n × n` grid of points at `((i + ½) / n, (j + ½) / n)` inside the
/// pixel. `n` is 16 at the identity scale (so a rounded corner's coverage is resolved to 1/256
/// of a pixel, and flat scenes whose edges lie on pixel boundaries are exact), and
/// `16 · ⌈reduction⌉` when shrinking, capped at 64, so every source pixel under an output pixel
/// gets at least 16 × 16 samples.
///
/// No resampling kernel is involved: this is the box-filtered ideal of the continuous scene,
/// independent of any resizer. It does not model what a finite-support kernel does at the
/// image's edges, nor the blur an upscaling kernel adds: the lab's tolerances do.
public enum Oracle {
    /// Supersampling points per axis per output pixel for a placement.
    public static func samplesPerAxis(for placement: OraclePlacement) -> Int {
        let r = placement.reduction
        guard r.isFinite, r > 1 else { return 16 }
        return min(64, 16 * Int(r.rounded(.up)))
    }

    /// Renders `scene` (a function of canvas pixel coordinates on a `canvasWidth × canvasHeight`
    /// canvas giving straight linear RGBA) through `placement`, with ``samplesPerAxis(for:)``
    /// points per axis unless `samples` says how many.
    public static func render(canvasWidth: Int, canvasHeight: Int, placement: OraclePlacement, samples: Int? = nil,
                              scene: (Double, Double) -> LinearRGBA) -> OracleImage {
        renderRows(0..<placement.height, canvasWidth: canvasWidth, canvasHeight: canvasHeight, placement: placement,
                   samples: samples, scene: scene)
    }

    /// Output rows `rows` of ``render(canvasWidth:canvasHeight:placement:samples:scene:)``, as an
    /// image `placement.width` wide and `rows.count` high: the same values, bit for bit, as those
    /// rows of the whole rendering, so an image can be rendered band by band in little memory.
    /// `rows` is clamped to the output's rows.
    public static func renderRows(_ rows: Range<Int>, canvasWidth: Int, canvasHeight: Int, placement: OraclePlacement,
                                  samples: Int? = nil, scene: (Double, Double) -> LinearRGBA) -> OracleImage {
        let n = max(1, samples ?? samplesPerAxis(for: placement))
        let w = placement.width
        let band = rows.clamped(to: 0..<max(0, placement.height))
        let h = band.count
        var pixels = [Double](repeating: 0, count: w * h * 4)
        let scaleX = placement.sourceWidth / placement.contentWidth
        let scaleY = placement.sourceHeight / placement.contentHeight
        let maxX = Double(canvasWidth).nextDown, maxY = Double(canvasHeight).nextDown
        let offsets = (0..<n).map { (Double($0) + 0.5) / Double(n) }
        let weight = 1 / Double(n * n)
        for oy in band {
            for ox in 0..<w {
                var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                for dy in offsets {
                    let py = Double(oy) + dy
                    let cy = min(max(placement.sourceY + (py - placement.contentY) * scaleY, 0), maxY)
                    for dx in offsets {
                        let px = Double(ox) + dx
                        guard placement.covers(px, py) else { continue }
                        let cx = min(max(placement.sourceX + (px - placement.contentX) * scaleX, 0), maxX)
                        let c = scene(cx, cy)
                        r += c.red * c.alpha; g += c.green * c.alpha; b += c.blue * c.alpha; a += c.alpha
                    }
                }
                let i = ((oy - band.lowerBound) * w + ox) * 4
                pixels[i] = r * weight; pixels[i + 1] = g * weight; pixels[i + 2] = b * weight; pixels[i + 3] = a * weight
            }
        }
        return OracleImage(width: w, height: h, pixels: pixels)
    }
}
