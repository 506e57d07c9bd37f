import ImageCore

/// pixelmatch's anti-aliasing detector, for the `exact.over.N.nonAA` metrics: which differing
/// pixels look like anti-aliasing (an edge drawn one pixel differently) rather than a change.
///
/// Source: pixelmatch `index.js`, functions `antialiased` and `hasManySiblings` (Mapbox,
/// ISC licence, https://github.com/mapbox/pixelmatch), after V. Vyšniauskas, "Anti-aliased
/// Pixel and Intensity Slope Detector", 2009. Re-implemented here from its description, on
/// ``ValueImage`` samples (16-bit straight values; an 8-bit code c is c·257, so every test
/// below gives the same answer as on the 8-bit bytes):
///
/// A pixel P of image A (compared with image B) is anti-aliased when
/// 1. at most 2 of its neighbours (the 8 around it, clipped at the border; a pixel on the border
///    starts with one "equal" already) have P's brightness — more is a flat area, not an edge;
/// 2. at least one neighbour is darker and one brighter — P lies on an intensity slope;
/// 3. the darkest or the brightest neighbour (the first met, columns left to right, each column
///    top to bottom) has more than 2 neighbours of exactly its colour in BOTH A and B — the
///    slope ends in a flat area that did not change.
/// Brightness is the Y of YIQ (0.29889531 R + 0.58662247 G + 0.11448223 B, the weights of
/// pixelmatch's `rgb2y`) after blending a translucent pixel over white; two pixels of exactly
/// the same samples have brightness difference 0. A differing pixel is counted as anti-aliasing
/// when it is anti-aliased in the expected image (against the actual) or in the actual image
/// (against the expected), as pixelmatch does.
///
/// Note what it does not forgive: a hard edge (no intermediate pixel) moved by one pixel has no
/// pixel on a slope, so every moved pixel still counts.
public enum AntiAliasing {
    /// Version of the `.nonAA` metrics' definition.
    public static let version = "pixelmatch-antialiased/1"
    /// The thresholds N of the metrics `exact.over.N.nonAA`, 8-bit code values.
    public static let edges: [Double] = [1, 2, 5, 10, 20, 50, 100]

    /// For each edge of `edges` (8-bit code values), how many pixels have an exact |Δ| (the
    /// ``PixelStatistics`` definition: R, G, B where visible in either image, A everywhere)
    /// above the edge and are not anti-aliasing by the rule above. Images of equal size and
    /// channel count.
    public static func nonAntiAliasedCounts(_ e: ValueImage, _ a: ValueImage, edges: [Double]) -> [Int] {
        let bands = Parallel.bands(rows: e.height, rowsPerBand: max(64, e.height / 16))
        let edgesRaw = edges.map { $0 * ValueImage.perEightBitUnit }
        let parts = Parallel.map(bands.count) { b -> [Int] in
            var counts = [Int](repeating: 0, count: edges.count)
            for y in bands[b] {
                for x in 0..<e.width {
                    let error = Double(pixelError(e, a, x, y))
                    guard error > (edgesRaw.first ?? 0) else { continue }
                    if isAntiAliased(e, x, y, other: a) || isAntiAliased(a, x, y, other: e) { continue }
                    for (k, edge) in edgesRaw.enumerated() where error > edge { counts[k] += 1 }
                }
            }
            return counts
        }
        var total = [Int](repeating: 0, count: edges.count)
        for p in parts { for k in total.indices { total[k] += p[k] } }
        return total
    }

    /// The exact error of a pixel in 16-bit units: |Δα|, and |Δ| of R, G, B when α > 0 in either image.
    static func pixelError(_ e: ValueImage, _ a: ValueImage, _ x: Int, _ y: Int) -> Int {
        let n = e.channels, i = (y * e.width + x) * n
        let ea = n == 4 ? Int(e.samples[i + 3]) : 65535, aa = n == 4 ? Int(a.samples[i + 3]) : 65535
        var m = abs(aa - ea)
        if ea > 0 || aa > 0 {
            for c in 0..<3 { m = max(m, abs(Int(a.samples[i + c]) - Int(e.samples[i + c]))) }
        }
        return m
    }

    /// pixelmatch's brightness of a pixel: Y of YIQ, a translucent pixel blended over white.
    static func brightness(_ v: ValueImage, _ x: Int, _ y: Int) -> Double {
        let n = v.channels, i = (y * v.width + x) * n
        var r = Double(v.samples[i]), g = Double(v.samples[i + 1]), b = Double(v.samples[i + 2])
        if n == 4 && v.samples[i + 3] < 65535 {
            let alpha = Double(v.samples[i + 3]) / 65535
            r = 65535 + (r - 65535) * alpha; g = 65535 + (g - 65535) * alpha; b = 65535 + (b - 65535) * alpha
        }
        return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    /// Whether two pixels of one image have exactly the same samples.
    static func same(_ v: ValueImage, _ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int) -> Bool {
        let n = v.channels, i = (y1 * v.width + x1) * n, j = (y2 * v.width + x2) * n
        for c in 0..<n where v.samples[i + c] != v.samples[j + c] { return false }
        return true
    }

    /// Rule 1–3 above for pixel (x, y) of `image`, compared with `other`.
    public static func isAntiAliased(_ image: ValueImage, _ x: Int, _ y: Int, other: ValueImage) -> Bool {
        let x0 = max(x - 1, 0), x2 = min(x + 1, image.width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, image.height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let centre = brightness(image, x, y)
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (x, y), brightestAt = (x, y)
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                // Positive: the neighbour is darker than the centre.
                let delta = same(image, x, y, nx, ny) ? 0 : centre - brightness(image, nx, ny)
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < brightest {
                    brightest = delta; brightestAt = (nx, ny)
                } else if delta > darkest {
                    darkest = delta; darkestAt = (nx, ny)
                }
            }
        }
        guard brightest != 0 && darkest != 0 else { return false }
        return (hasManySiblings(image, darkestAt) && hasManySiblings(other, darkestAt))
            || (hasManySiblings(image, brightestAt) && hasManySiblings(other, brightestAt))
    }

    /// Whether the pixel has more than 2 neighbours of exactly its colour (a border pixel counts one already).
    static func hasManySiblings(_ v: ValueImage, _ at: (Int, Int)) -> Bool {
        let (x, y) = at
        let x0 = max(x - 1, 0), x2 = min(x + 1, v.width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, v.height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        for nx in x0...x2 {
            for ny in y0...y2 where (nx != x || ny != y) && same(v, x, y, nx, ny) {
                equal += 1
                if equal > 2 { return true }
            }
        }
        return false
    }
}
