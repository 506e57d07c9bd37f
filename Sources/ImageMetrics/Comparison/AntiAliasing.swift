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
    /// channel count. One pass for every edge, in bands of rows, each read through a
    /// ``AntiAliasingWindow`` of both images.
    public static func nonAntiAliasedCounts(_ e: ValueImage, _ a: ValueImage, edges: [Double]) -> [Int] {
        let bands = Parallel.bands(rows: e.height, rowsPerBand: max(64, e.height / 16))
        let edgesRaw = edges.map { $0 * ValueImage.perEightBitUnit }
        let first = edgesRaw.first ?? 0
        let parts = Parallel.map(bands.count) { b -> [Int] in
            var counts = [Int](repeating: 0, count: edges.count)
            let rows = bands[b]
            let ew = AntiAliasingWindow(e, rows: rows), aw = AntiAliasingWindow(a, rows: rows)
            // Rule 3 needs a neighbour with many siblings in both images, whichever image is tested.
            var both = [Bool](repeating: false, count: ew.manySiblings.count)
            for i in both.indices where ew.manySiblings[i] { both[i] = aw.manySiblings[i] }
            for y in rows {
                for x in 0..<e.width {
                    let error = Double(pixelError(ew.pixel(x, y), aw.pixel(x, y), alpha: e.channels == 4))
                    guard error > first else { continue }
                    if ew.anyNeighbour(x, y, of: both)
                        && (ew.isAntiAliased(x, y, other: aw) || aw.isAntiAliased(x, y, other: ew)) { continue }
                    for (k, edge) in edgesRaw.enumerated() where error > edge { counts[k] += 1 }
                }
            }
            return counts
        }
        var total = [Int](repeating: 0, count: edges.count)
        for p in parts { for k in total.indices { total[k] += p[k] } }
        return total
    }

    /// The exact error of a pixel in 16-bit units (two ``AntiAliasingWindow/pack(_:_:channels:)``
    /// pixels): |Δα|, and |Δ| of R, G, B when α > 0 in either image.
    static func pixelError(_ e: UInt64, _ a: UInt64, alpha: Bool) -> Int {
        func sample(_ p: UInt64, _ c: Int) -> Int { Int((p >> UInt64(16 * c)) & 0xFFFF) }
        let ea = alpha ? sample(e, 3) : 65535, aa = alpha ? sample(a, 3) : 65535
        var m = abs(aa - ea)
        if ea > 0 || aa > 0 {
            for c in 0..<3 { m = max(m, abs(sample(a, c) - sample(e, c))) }
        }
        return m
    }

    /// Rule 1–3 above for pixel (x, y) of `image`, compared with `other` (images of equal size).
    public static func isAntiAliased(_ image: ValueImage, _ x: Int, _ y: Int, other: ValueImage) -> Bool {
        let rows = 0..<image.height
        return AntiAliasingWindow(image, rows: rows).isAntiAliased(x, y, other: AntiAliasingWindow(other, rows: rows))
    }
}

/// The rows of a ``ValueImage`` the anti-aliasing rule reads for a band of rows: the band and
/// two rows either side (a neighbour's neighbours), each pixel packed into one `UInt64` (R, G,
/// B, A from the low bits; A 0 without alpha) so that "exactly the same samples" is one
/// comparison, and whether each pixel of the band and the rows next to it has many siblings.
struct AntiAliasingWindow {
    let width: Int, height: Int
    /// The image row of the first stored row.
    let firstRow: Int
    let hasAlpha: Bool
    let packed: [UInt64]
    /// Whether a pixel has more than 2 neighbours of exactly its samples (a border pixel counts
    /// one already); known for the band and one row either side, false elsewhere.
    let manySiblings: [Bool]

    init(_ image: ValueImage, rows: Range<Int>) {
        width = image.width
        height = image.height
        hasAlpha = image.channels == 4
        let firstRow = max(0, rows.lowerBound - 2)
        self.firstRow = firstRow
        let end = min(image.height, rows.upperBound + 2), n = image.channels, width = image.width, height = image.height
        let count = (end - firstRow) * width
        var packed = [UInt64](repeating: 0, count: count)
        image.withSamples { samples in
            packed.withUnsafeMutableBufferPointer { out in
                let base = firstRow * width * n
                for i in 0..<count {
                    let s = base + i * n
                    let a: UInt16 = n == 4 ? samples[s + 3] : 0
                    out[i] = UInt64(samples[s]) | UInt64(samples[s + 1]) << 16 | UInt64(samples[s + 2]) << 32 | UInt64(a) << 48
                }
            }
        }
        // Siblings for the band and one row either side (where a band pixel's neighbours lie):
        // each pixel's equal neighbours counted from the equalities of the pairs below and to the
        // right of every pixel (right, down, down-right, down-left), each pair compared once.
        var many = [Bool](repeating: false, count: count)
        let rowsOfWindow = end - firstRow
        packed.withUnsafeBufferPointer { p in
            many.withUnsafeMutableBufferPointer { out in
                // equal[k · count + i]: pixel i equals its neighbour in direction k (0 right, 1 down, 2 down-right, 3 down-left).
                var equal = [UInt8](repeating: 0, count: 4 * count)
                for r in 0..<rowsOfWindow {
                    let row = r * width, below = r + 1 < rowsOfWindow
                    for x in 0..<width {
                        let c = p[row + x]
                        if x + 1 < width { equal[row + x] = c == p[row + x + 1] ? 1 : 0 }
                        if below {
                            equal[1 * count + row + x] = c == p[row + width + x] ? 1 : 0
                            if x + 1 < width { equal[2 * count + row + x] = c == p[row + width + x + 1] ? 1 : 0 }
                            if x > 0 { equal[3 * count + row + x] = c == p[row + width + x - 1] ? 1 : 0 }
                        }
                    }
                }
                for y in max(0, rows.lowerBound - 1)..<min(height, rows.upperBound + 1) {
                    let r = y - firstRow, row = r * width
                    let up = y > 0, down = y + 1 < height
                    for x in 0..<width {
                        let i = row + x, left = x > 0, right = x + 1 < width
                        var n = (!left || !right || !up || !down) ? 1 : 0
                        if right { n += Int(equal[i]) }
                        if left { n += Int(equal[i - 1]) }
                        if down {
                            n += Int(equal[1 * count + i])
                            if right { n += Int(equal[2 * count + i]) }
                            if left { n += Int(equal[3 * count + i]) }
                        }
                        if up {
                            n += Int(equal[1 * count + i - width])
                            if left { n += Int(equal[2 * count + i - width - 1]) }
                            if right { n += Int(equal[3 * count + i - width + 1]) }
                        }
                        out[i] = n > 2
                    }
                }
            }
        }
        self.packed = packed
        manySiblings = many
    }

    /// pixelmatch's brightness of a pixel: Y of YIQ, a translucent pixel blended over white.
    func brightness(_ i: Int) -> Double {
        let p = packed[i]
        var r = Double(p & 0xFFFF), g = Double((p >> 16) & 0xFFFF), b = Double((p >> 32) & 0xFFFF)
        let alpha = hasAlpha ? UInt16(p >> 48) : 65535
        if alpha < 65535 {
            let alpha = Double(alpha) / 65535
            r = 65535 + (r - 65535) * alpha; g = 65535 + (g - 65535) * alpha; b = 65535 + (b - 65535) * alpha
        }
        return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    /// The packed samples of pixel (x, y) (a row of the band or within two rows of it).
    func pixel(_ x: Int, _ y: Int) -> UInt64 { packed[(y - firstRow) * width + x] }

    /// Rule 1–3 of ``AntiAliasing`` for pixel (x, y) of the band, compared with `other` (the same
    /// rows of the other image).
    func isAntiAliased(_ x: Int, _ y: Int, other: AntiAliasingWindow) -> Bool {
        let x0 = max(x - 1, 0), x2 = min(x + 1, width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        let at = (y - firstRow) * width + x
        let centre = brightness(at), centrePixel = packed[at]
        var darkest = 0.0, brightest = 0.0
        var darkestAt = at, brightestAt = at
        // Columns left to right, each top to bottom: the first darkest or brightest met wins a tie.
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let i = (ny - firstRow) * width + nx
                // Positive: the neighbour is darker than the centre.
                let delta = packed[i] == centrePixel ? 0 : centre - brightness(i)
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < brightest {
                    brightest = delta; brightestAt = i
                } else if delta > darkest {
                    darkest = delta; darkestAt = i
                }
            }
        }
        guard brightest != 0 && darkest != 0 else { return false }
        return (manySiblings[darkestAt] && other.manySiblings[darkestAt])
            || (manySiblings[brightestAt] && other.manySiblings[brightestAt])
    }

    /// Whether any of the (up to 8) neighbours of band pixel (x, y) is true in `flags` (laid out like ``packed``).
    func anyNeighbour(_ x: Int, _ y: Int, of flags: [Bool]) -> Bool {
        let x0 = max(x - 1, 0), x2 = min(x + 1, width - 1), y0 = max(y - 1, 0), y2 = min(y + 1, height - 1)
        for ny in y0...y2 {
            let row = (ny - firstRow) * width
            for nx in x0...x2 where (nx != x || ny != y) && flags[row + nx] { return true }
        }
        return false
    }
}
