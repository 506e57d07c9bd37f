import ImageCore

/// How two images of different displayed sizes line up, found by search, named in words, and the
/// overlap to compare: `imglab diff`'s `--size-policy align`.
///
/// Two kinds are tried:
/// - an **offset**: the actual image is the expected one with rows or columns cut off or added at
///   its edges, or shifted (`actual(x, y) = expected(x + dx, y + dy)` over the overlap). Offsets
///   from the actual image's left/top edge on the expected one's to its right/bottom edge, and 4
///   pixels beyond, are tried (every one when that span is at most 24 pixels, else the two ends
///   and the centre ± 4), each scored by the mean |Δ| of a subsample of the overlap (at most
///   ~20,000 pixels); the best is refined ± 2 and scored on every pixel of its overlap;
/// - a **scale** of 2× or ½× (each side within one pixel of twice the other): the larger image's
///   2×2 blocks averaged against the smaller one.
///
/// An alignment is kept when its mean |Δ| is at most half that of the corners put together
/// (top-left on top-left) or at most 1 code value; otherwise there is none (the size change is
/// not a crop, pad, shift or 2× scale). An overlap must cover half the smaller image.
public struct SizeAlignment: Sendable, Hashable {
    /// An offset (crop, pad, shift) or a 2×/½× scale.
    public enum Kind: String, Sendable, Hashable {
        case offset, scale
    }

    public var kind: Kind
    /// Offset: `actual(x, y)` shows `expected(x + dx, y + dy)`; 0 for a scale. Displayed pixels.
    public var dx: Int
    public var dy: Int
    /// The actual size over the expected size: 2 or 0.5 for a scale, 1 for an offset.
    public var scale: Double
    /// The overlap in the expected image's and the actual image's displayed pixels (for a scale,
    /// the whole of each image).
    public var expectedRegion: IgnoredPixels.Region
    public var actualRegion: IgnoredPixels.Region
    /// Mean |Δ| over the overlap, every channel, 8-bit code values (0: the overlap is identical).
    public var meanError: Double
    /// The change in words: `the bottom row cropped`, `3 columns added on the left`, `scaled 2×`.
    public var name: String

    /// The best alignment of `actual` on `expected` (displayed values of images of different
    /// sizes), or `nil` when no crop, pad, shift or 2× scale explains the size change.
    public static func find(expected e: ValueImage, actual a: ValueImage) -> SizeAlignment? {
        guard e.channels == a.channels, e.width != a.width || e.height != a.height else { return nil }
        let corners = offsetError(e, a, dx: 0, dy: 0, step: stride(e, a, dx: 0, dy: 0))
        var best: SizeAlignment? = bestOffset(e, a)
        if let scaled = scaleAlignment(e, a), scaled.meanError < best?.meanError ?? .infinity { best = scaled }
        guard let found = best else { return nil }
        let corner = corners ?? .infinity
        return found.meanError <= 1 || found.meanError <= corner / 2 ? found : nil
    }

    // MARK: - Offsets

    static func bestOffset(_ e: ValueImage, _ a: ValueImage) -> SizeAlignment? {
        func candidates(_ expected: Int, _ actual: Int) -> [Int] {
            let lo = min(0, expected - actual) - 4, hi = max(0, expected - actual) + 4
            if hi - lo <= 24 { return Array(lo...hi) }
            let mid = (expected - actual) / 2
            return Array(Set([0, mid, expected - actual].flatMap { c in (c - 4)...(c + 4) })).filter { $0 >= lo && $0 <= hi }.sorted()
        }
        var scored: [(dx: Int, dy: Int, error: Double)] = []
        for dy in candidates(e.height, a.height) {
            for dx in candidates(e.width, a.width) {
                if let error = offsetError(e, a, dx: dx, dy: dy, step: stride(e, a, dx: dx, dy: dy)) { scored.append((dx, dy, error)) }
            }
        }
        // The least error; of equal ones, the smallest shift.
        guard let coarse = scored.min(by: { ($0.error, abs($0.dx) + abs($0.dy)) < ($1.error, abs($1.dx) + abs($1.dy)) }) else { return nil }
        var best = (dx: coarse.dx, dy: coarse.dy, error: Double.infinity)
        for dy in (coarse.dy - 2)...(coarse.dy + 2) {
            for dx in (coarse.dx - 2)...(coarse.dx + 2) {
                guard let error = offsetError(e, a, dx: dx, dy: dy, step: 1) else { continue }
                if (error, abs(dx) + abs(dy)) < (best.error, abs(best.dx) + abs(best.dy)) { best = (dx, dy, error) }
            }
        }
        guard best.error.isFinite, let (er, ar) = overlap(e, a, dx: best.dx, dy: best.dy) else { return nil }
        return SizeAlignment(kind: .offset, dx: best.dx, dy: best.dy, scale: 1, expectedRegion: er, actualRegion: ar,
                             meanError: best.error, name: offsetName(e, a, dx: best.dx, dy: best.dy))
    }

    /// The overlap of an offset in both images' coordinates, when it covers half the smaller image.
    static func overlap(_ e: ValueImage, _ a: ValueImage, dx: Int, dy: Int) -> (IgnoredPixels.Region, IgnoredPixels.Region)? {
        let x0 = max(0, -dx), y0 = max(0, -dy)
        let x1 = min(a.width, e.width - dx), y1 = min(a.height, e.height - dy)
        guard x1 > x0, y1 > y0, 2 * (x1 - x0) * (y1 - y0) >= min(e.width * e.height, a.width * a.height) else { return nil }
        return (IgnoredPixels.Region(x: x0 + dx, y: y0 + dy, width: x1 - x0, height: y1 - y0),
                IgnoredPixels.Region(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// The sampling step that keeps an overlap's subsample near 20,000 pixels.
    static func stride(_ e: ValueImage, _ a: ValueImage, dx: Int, dy: Int) -> Int {
        let area = min(e.width * e.height, a.width * a.height)
        var step = 1
        while area / (step * step) > 20_000 { step += 1 }
        return step
    }

    /// Mean |Δ| (8-bit code values) over the overlap of an offset, every `step`-th row and column.
    static func offsetError(_ e: ValueImage, _ a: ValueImage, dx: Int, dy: Int, step: Int) -> Double? {
        guard let (er, ar) = overlap(e, a, dx: dx, dy: dy) else { return nil }
        let n = e.channels
        var sum = 0, count = 0
        for y in Swift.stride(from: 0, to: ar.height, by: step) {
            for x in Swift.stride(from: 0, to: ar.width, by: step) {
                let i = ((er.y + y) * e.width + er.x + x) * n, j = ((ar.y + y) * a.width + ar.x + x) * n
                for c in 0..<n { sum += abs(Int(e.sample(i + c)) - Int(a.sample(j + c))) }
                count += n
            }
        }
        return count == 0 ? nil : Double(sum) / Double(count) / 257
    }

    /// `the bottom row cropped`, `3 columns added on the left`, `shifted 2 px right (…)`.
    static func offsetName(_ e: ValueImage, _ a: ValueImage, dx: Int, dy: Int) -> String {
        // Cropped (> 0) or added (< 0) at each edge.
        let left = dx, right = e.width - (dx + a.width), top = dy, bottom = e.height - (dy + a.height)
        var parts: [String] = []
        // Opposite edges changed alike read as one: `5 rows cropped at the top and the bottom`.
        for (first, second, unit, sides) in [(top, bottom, "row", ("at the top", "at the bottom", "at the top and the bottom")),
                                             (left, right, "column", ("on the left", "on the right", "on each side"))] {
            func words(_ n: Int, _ side: String) -> String {
                (abs(n) == 1 ? "1 \(unit)" : "\(abs(n)) \(unit)s") + (n > 0 ? " cropped " : " added ") + side
            }
            if first == second && first != 0 { parts.append(words(first, sides.2)); continue }
            if first != 0 { parts.append(words(first, sides.0)) }
            if second != 0 { parts.append(words(second, sides.1)) }
        }
        var shifts: [String] = []
        if left < 0 && right > 0 { shifts.append("\(min(-left, right)) px right") }
        if left > 0 && right < 0 { shifts.append("\(min(left, -right)) px left") }
        if top < 0 && bottom > 0 { shifts.append("\(min(-top, bottom)) px down") }
        if top > 0 && bottom < 0 { shifts.append("\(min(top, -bottom)) px up") }
        let what = parts.isEmpty ? "the same picture" : parts.joined(separator: ", ")
        return shifts.isEmpty ? what : "shifted \(shifts.joined(separator: " and ")) (\(what))"
    }

    // MARK: - The overlap as images

    /// The two images cut to the overlap of an offset (displayed, orientation applied, first frame),
    /// to compare by value; `nil` for a scale.
    public func overlapImages(_ expected: ComparedImage, _ actual: ComparedImage) -> (ComparedImage, ComparedImage)? {
        guard kind == .offset, let e = Self.cut(expected.image, expectedRegion), let a = Self.cut(actual.image, actualRegion) else { return nil }
        return (ComparedImage(image: e, name: expected.name, container: expected.container),
                ComparedImage(image: a, name: actual.name, container: actual.container))
    }

    /// `image` as displayed, cut to `r` (a format under 8 bits a pixel is widened to 8-bit RGB(A) first).
    static func cut(_ image: Image, _ r: IgnoredPixels.Region) -> Image? {
        var up = image.oriented()
        up.animation = nil
        var b = up.bitmap
        guard r.x >= 0, r.y >= 0, r.x + r.width <= b.width, r.y + r.height <= b.height else { return nil }
        if b.format.bitsPerPixel % 8 != 0 {
            guard let wide = try? b.converted(to: b.format.hasAlpha ? .rgba8 : .rgb8) else { return nil }
            b = wide
        }
        let bytesPerPixel = b.format.bitsPerPixel / 8, rowBytes = r.width * bytesPerPixel
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowBytes * r.height)
        for y in r.y..<(r.y + r.height) {
            let start = y * b.bytesPerRow + r.x * bytesPerPixel
            bytes += b.bytes[start..<(start + rowBytes)]
        }
        up.bitmap = Bitmap(uncheckedWidth: r.width, height: r.height, format: b.format, bytesPerRow: rowBytes, bytes: bytes)
        return up
    }

    // MARK: - Scale

    /// 2× (the actual image twice the expected one's size, within a pixel) or ½×.
    static func scaleAlignment(_ e: ValueImage, _ a: ValueImage) -> SizeAlignment? {
        func twice(_ large: ValueImage, _ small: ValueImage) -> Bool {
            abs(large.width - 2 * small.width) <= 1 && abs(large.height - 2 * small.height) <= 1 && small.width > 0 && small.height > 0
        }
        let (large, small, scale): (ValueImage, ValueImage, Double)
        if twice(a, e) { (large, small, scale) = (a, e, 2) } else if twice(e, a) { (large, small, scale) = (e, a, 0.5) } else { return nil }
        let n = small.channels, w = min(small.width, large.width / 2), h = min(small.height, large.height / 2)
        var sum = 0.0, count = 0
        for y in 0..<h {
            for x in 0..<w {
                let s = (y * small.width + x) * n
                for c in 0..<n {
                    var block = 0
                    for (bx, by) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        block += Int(large.sample(((2 * y + by) * large.width + 2 * x + bx) * n + c))
                    }
                    sum += abs(Double(block) / 4 - Double(small.sample(s + c)))
                    count += 1
                }
            }
        }
        guard count > 0 else { return nil }
        return SizeAlignment(kind: .scale, dx: 0, dy: 0, scale: scale,
                             expectedRegion: IgnoredPixels.Region(x: 0, y: 0, width: e.width, height: e.height),
                             actualRegion: IgnoredPixels.Region(x: 0, y: 0, width: a.width, height: a.height),
                             meanError: sum / Double(count) / 257, name: scale == 2 ? "scaled 2×" : "scaled ½×")
    }
}
