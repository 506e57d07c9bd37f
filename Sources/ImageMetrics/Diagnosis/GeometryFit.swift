import Foundation

/// Geometry fitted to a pair of one size, offered as candidates with their parameters in their
/// names: a translation by whole or fractional pixels (an off-by-N rectangle, a crop window
/// taken at another anchor), a scale about the centre (pixel grids aligned at the corners
/// instead of the centres, `align_corners`), and a scale about another point (a zoom or crop
/// window anchored at a corner or edge), refined from the better of the two.
///
/// The translation is found on luma planes reduced to at most ``searchSide`` pixels on the long
/// side (every offset up to a third of the size), refined at full size by a step search down to
/// a quarter pixel on a sample of at most ``samplePoints`` pixels; the scale is searched on the
/// same sample. The cost is the reduced planes plus a fixed number of sample passes,
/// whatever the image size.
enum GeometryFit {
    static let searchSide = 64
    static let samplePoints = 4096

    /// The coarse candidates: a scale about the centre, and scale and shift together refined from
    /// it, fitted to the two lumas smoothed by a box of ``SmoothedLuma/side`` pixels, for a pair
    /// whose fine detail differs beyond prediction (``CoarseGeometrySignature``). Same sizes of
    /// at least 8 pixels a side; the identity is not offered.
    static func coarseCandidates(expected: ValueImage, actual: ValueImage) -> [Candidate] {
        guard expected.width == actual.width, expected.height == actual.height, expected.width >= 8, expected.height >= 8 else { return [] }
        let w = expected.width, h = expected.height
        let e = SmoothedLuma(LumaView(image: expected))
        let points = Samples(SmoothedLuma(LumaView(image: actual)), width: w, height: h)
        let scale = centredScale(expected: e, points: points)
        var fits = scale.isIdentity ? [] : [scale]
        if let joint = scaleAndShift(from: scale, expected: e, points: points), !joint.isIdentity,
           let before = error(scale, e, points), let after = error(joint, e, points), after < jointGain * before {
            fits.append(joint)
        }
        return fits.map { candidate($0, width: w, height: h) }
    }

    /// A luma's mean over the ``side``×``side`` box around each pixel (edges clamped), computed where it is read.
    struct SmoothedLuma<Base: Luma>: Luma {
        static var radius: Int { side / 2 }
        static var side: Int { 5 }
        let base: Base
        init(_ base: Base) { self.base = base }
        var width: Int { base.width }
        var height: Int { base.height }

        func value(_ x: Int, _ y: Int) -> Double {
            let r = Self.side / 2
            var sum = 0.0
            for v in y - r...y + r {
                let cy = min(max(v, 0), height - 1)
                for u in x - r...x + r { sum += base.value(min(max(u, 0), width - 1), cy) }
            }
            return sum / Double(Self.side * Self.side)
        }

        /// ``GeometryFit/at(_:_:_:)`` of this luma, the same value to the bit: the four boxes read
        /// once from the (side + 1)² base values they cover, each summed in ``value(_:_:)``'s order.
        func bilinear(_ fx: Double, _ fy: Double) -> Double? {
            guard fx >= 0, fy >= 0, fx <= Double(width - 1), fy <= Double(height - 1) else { return nil }
            let x0 = min(Int(fx), width - 1), y0 = min(Int(fy), height - 1)
            let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
            let r = Self.radius, n = Self.side + 1
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: n * n) { patch in
                for j in 0..<n {
                    let cy = min(max(y0 - r + j, 0), height - 1)
                    for i in 0..<n { patch[j * n + i] = base.value(min(max(x0 - r + i, 0), width - 1), cy) }
                }
                func box(_ ox: Int, _ oy: Int) -> Double {
                    var sum = 0.0
                    for j in oy..<oy + Self.side { for i in ox..<ox + Self.side { sum += patch[j * n + i] } }
                    return sum / Double(Self.side * Self.side)
                }
                let tx = fx - Double(x0), ty = fy - Double(y0)
                let top = box(0, 0) * (1 - tx) + box(x1 - x0, 0) * tx
                let bottom = box(0, y1 - y0) * (1 - tx) + box(x1 - x0, y1 - y0) * tx
                return top * (1 - ty) + bottom * ty
            }
        }
    }

    /// The sample positions of a fit's error (at most ``samplePoints`` on a regular grid) with the
    /// actual luma at each, read once for the many fits tried.
    struct Samples {
        let points: [(x: Int, y: Int)]
        let actual: [Double]
        init(_ actual: some Luma, width: Int, height: Int) {
            points = samplePositions(width: width, height: height)
            self.actual = points.map { actual.value($0.x, $0.y) }
        }
    }

    /// Luma (0…1) read at whole and fractional positions (centres at integers).
    protocol Luma {
        var width: Int { get }
        var height: Int { get }
        func value(_ x: Int, _ y: Int) -> Double
        /// The bilinear value at a fractional position; `nil` outside (``GeometryFit/at(_:_:_:)``).
        func bilinear(_ fx: Double, _ fy: Double) -> Double?
    }

    /// A luma plane, box-reduced from an image, row-major.
    struct Plane: Luma {
        var width: Int, height: Int
        var values: [Double]

        /// The Rec. 709 luma of `image`, reduced by `factor`: each block the mean of at most 4 × 4
        /// of its pixels on a regular grid (the whole block when it is that small), so the cost
        /// does not grow with the factor.
        init(_ image: ValueImage, reducedBy factor: Int) {
            width = max(1, image.width / factor)
            height = max(1, image.height / factor)
            let view = LumaView(image: image)
            let step = max(1, factor / 4)
            let offsets = Array(Swift.stride(from: step / 2, to: factor, by: step))
            let scale = 1 / Double(offsets.count * offsets.count)
            var values = [Double](repeating: 0, count: width * height)
            for by in 0..<height {
                for bx in 0..<width {
                    var sum = 0.0
                    for oy in offsets { for ox in offsets { sum += view.value(bx * factor + ox, by * factor + oy) } }
                    values[by * width + bx] = sum * scale
                }
            }
            self.values = values
        }

        func value(_ x: Int, _ y: Int) -> Double { values[y * width + x] }
    }

    /// The Rec. 709 luma of an image's samples, computed where it is read (no full-size copy).
    struct LumaView: Luma {
        let image: ValueImage
        var width: Int { image.width }
        var height: Int { image.height }

        func value(_ x: Int, _ y: Int) -> Double {
            let i = (y * image.width + x) * image.channels
            return image.luma709(at: i)
        }
    }

    /// Bilinear luma of `plane` at a fractional position; `nil` outside.
    static func at(_ plane: some Luma, _ fx: Double, _ fy: Double) -> Double? {
        guard fx >= 0, fy >= 0, fx <= Double(plane.width - 1), fy <= Double(plane.height - 1) else { return nil }
        let x0 = min(Int(fx), plane.width - 1), y0 = min(Int(fy), plane.height - 1)
        let x1 = min(x0 + 1, plane.width - 1), y1 = min(y0 + 1, plane.height - 1)
        let tx = fx - Double(x0), ty = fy - Double(y0)
        let top = plane.value(x0, y0) * (1 - tx) + plane.value(x1, y0) * tx
        let bottom = plane.value(x0, y1) * (1 - tx) + plane.value(x1, y1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// The fitted geometry: actual(x, y) = expected(ax·(x − cx) + cx − dx, ay·(y − cy) + cy − dy).
    struct Fit: Sendable {
        var dx = 0.0, dy = 0.0, ax = 1.0, ay = 1.0

        init(dx: Double = 0, dy: Double = 0, ax: Double = 1, ay: Double = 1) {
            (self.dx, self.dy, self.ax, self.ay) = (dx, dy, ax, ay)
        }

        /// The fit a candidate's parameters state (`scale.x`, `scale.y`, `dx`, `dy`; absent ones 1 or 0).
        init(parameters: [String: Double]) {
            self.init(dx: parameters["dx"] ?? 0, dy: parameters["dy"] ?? 0, ax: parameters["scale.x"] ?? 1, ay: parameters["scale.y"] ?? 1)
        }

        /// Where actual pixel (x, y) reads the expected image of `width`×`height` (the scale is about its centre).
        func source(_ x: Double, _ y: Double, width: Int, height: Int) -> (x: Double, y: Double) {
            let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
            return (ax * (x - cx) + cx - dx, ay * (y - cy) + cy - dy)
        }
        var isIdentity: Bool { abs(dx) < 0.125 && abs(dy) < 0.125 && abs(ax - 1) < 0.0005 && abs(ay - 1) < 0.0005 }
    }

    /// The candidates for the pair: the fitted translation and the fitted scale about the centre,
    /// each when it is not the identity (none for images of other sizes or under 8 pixels a side).
    static func candidates(expected: ValueImage, actual: ValueImage) -> [Candidate] {
        guard expected.width == actual.width, expected.height == actual.height, expected.width >= 8, expected.height >= 8 else { return [] }
        let w = expected.width, h = expected.height
        let factor = max(1, (max(w, h) + searchSide - 1) / searchSide)
        let e = LumaView(image: expected)
        let coarse = (Plane(expected, reducedBy: factor), Plane(actual, reducedBy: factor))
        let points = Samples(LumaView(image: actual), width: w, height: h)
        var out: [Candidate] = []
        let shift = translation(coarse: coarse, factor: factor, expected: e, points: points)
        if let shift, !shift.isIdentity { out.append(candidate(shift, width: w, height: h)) }
        let scale = centredScale(expected: e, points: points)
        if !scale.isIdentity { out.append(candidate(scale, width: w, height: h)) }
        // Scale and shift together (a scale about another point than the centre), refined from
        // the better of the two and offered only when it leaves under ``jointGain`` of its error
        // (a few parameters more always fit a little better); searched only when that one found
        // some geometry but left some (its error 1…80 % of the unmoved picture's).
        let simpler = ([shift, scale].compactMap { $0 }).compactMap { f in error(f, e, points).map { (f, $0) } }
        let unmoved = error(Fit(), e, points) ?? 0
        if let start = simpler.min(by: { $0.1 < $1.1 }), start.1 > 0.01 * unmoved, start.1 < 0.8 * unmoved,
           let joint = scaleAndShift(from: start.0, expected: e, points: points),
           let jointError = error(joint, e, points), jointError < jointGain * start.1,
           joint.ax != 1 || joint.ay != 1, joint.dx != 0 || joint.dy != 0 {
            out.append(candidate(joint, width: w, height: h))
        }
        return out
    }

    /// Largest share of the simpler fits' error a joint scale-and-shift may leave to be offered.
    static let jointGain = 0.8

    /// Scale (one for both axes, then each) and shift refined together from `start` by a pattern
    /// search: scale steps 0.02 down to 0.00025, shift steps 2 px down to 1/32 pixel (the pivot is
    /// the shift ÷ (1 − scale), so it needs the finer steps), for a zoom of at most 25 % either
    /// way; `nil` when it stays at `start`.
    static func scaleAndShift(from start: Fit, expected: some Luma, points: Samples) -> Fit? {
        guard var err = error(start, expected, points) else { return nil }
        var fit = start
        for (scaleStep, shiftStep) in [(0.02, 2.0), (0.01, 1.0), (0.005, 0.5), (0.002, 0.25), (0.001, 0.125), (0.0005, 0.0625), (0.00025, 0.03125)] {
            var moved = true, rounds = 0
            while moved && rounds < 40 {
                moved = false
                rounds += 1
                var trials: [Fit] = []
                for sign in [-1.0, 1.0] {
                    var f = fit; f.ax += sign * scaleStep; f.ay += sign * scaleStep; trials.append(f)
                    f = fit; f.ax += sign * scaleStep; trials.append(f)
                    f = fit; f.ay += sign * scaleStep; trials.append(f)
                    f = fit; f.dx += sign * shiftStep; trials.append(f)
                    f = fit; f.dy += sign * shiftStep; trials.append(f)
                }
                for f in trials where abs(f.ax - 1) <= 0.25 && abs(f.ay - 1) <= 0.25 {
                    if let e = error(f, expected, points), e < err - 1e-12 { (fit, err, moved) = (f, e, true) }
                }
            }
        }
        return fit.ax == start.ax && fit.ay == start.ay && fit.dx == start.dx && fit.dy == start.dy ? nil : fit
    }

    static func samplePositions(width w: Int, height h: Int) -> [(x: Int, y: Int)] {
        let step = max(1, Int((Double(w * h) / Double(samplePoints)).squareRoot().rounded(.up)))
        var list: [(x: Int, y: Int)] = []
        for y in Swift.stride(from: step / 2, to: h, by: step) { for x in Swift.stride(from: step / 2, to: w, by: step) { list.append((x, y)) } }
        return list
    }

    /// Mean squared luma difference of `fit` over the points whose source lies inside; `nil`
    /// when fewer than half of them do.
    static func error(_ fit: Fit, _ e: some Luma, _ samples: Samples) -> Double? {
        let cx = Double(e.width - 1) / 2, cy = Double(e.height - 1) / 2
        var sum = 0.0, n = 0
        for ((x, y), actual) in zip(samples.points, samples.actual) {
            guard let v = e.bilinear(fit.ax * (Double(x) - cx) + cx - fit.dx, fit.ay * (Double(y) - cy) + cy - fit.dy) else { continue }
            let d = actual - v
            sum += d * d
            n += 1
        }
        return n * 2 >= samples.points.count ? sum / Double(n) : nil
    }

    /// Mean squared difference of the reduced planes under a whole-pixel shift, over their
    /// overlap; `nil` when it is under half of the plane.
    static func shiftError(_ dx: Int, _ dy: Int, _ e: Plane, _ a: Plane) -> Double? {
        let x0 = max(0, dx), x1 = min(a.width, e.width + dx), y0 = max(0, dy), y1 = min(a.height, e.height + dy)
        guard x1 > x0, y1 > y0, (x1 - x0) * (y1 - y0) * 2 >= a.width * a.height else { return nil }
        var sum = 0.0
        for y in y0..<y1 {
            let ar = y * a.width, er = (y - dy) * e.width - dx
            for x in x0..<x1 {
                let d = a.values[ar + x] - e.values[er + x]
                sum += d * d
            }
        }
        return sum / Double((x1 - x0) * (y1 - y0))
    }

    static func translation(coarse: (Plane, Plane), factor: Int, expected: LumaView, points: Samples) -> Fit? {
        let (ce, ca) = coarse
        let range = (x: ce.width / 3, y: ce.height / 3)
        var best: (Fit, Double)?
        for dy in -range.y...range.y {
            for dx in -range.x...range.x {
                if let err = shiftError(dx, dy, ce, ca), err < best?.1 ?? .infinity { best = (Fit(dx: Double(dx), dy: Double(dy)), err) }
            }
        }
        guard let coarseFit = best?.0 else { return nil }
        // At full size: a 3 × 3 step search around the coarse offset, the step halved from the
        // largest power of two within the reduction factor down to a quarter pixel (a few dozen
        // sample passes, whatever the size); powers of two so that whole pixels are reached
        // (from a factor of 5, steps 2.5, 1.25, … would stop a 2-pixel shift at 1.875).
        var fit = Fit(dx: coarseFit.dx * Double(factor), dy: coarseFit.dy * Double(factor))
        var err = error(fit, expected, points) ?? .infinity
        var step = 1.0
        while step * 2 <= Double(factor) { step *= 2 }
        while step >= 0.25 {
            var moved = true
            while moved {
                moved = false
                for qy in -1...1 {
                    for qx in -1...1 where qx != 0 || qy != 0 {
                        let f = Fit(dx: fit.dx + Double(qx) * step, dy: fit.dy + Double(qy) * step)
                        if let e = error(f, expected, points), e < err - 1e-12 { (fit, err, moved) = (f, e, true) }
                    }
                }
            }
            step /= 2
        }
        return fit
    }

    /// The scale about the centre on each axis (0.98…1.02) that fits best: steps of 0.004, then
    /// of 0.0005 around the best (the axes are nearly independent: each searched with the other at
    /// its best so far).
    static func centredScale(expected: some Luma, points: Samples) -> Fit {
        var best = (Fit(), error(Fit(), expected, points) ?? .infinity)
        for (step, reach) in [(0.004, 5), (0.0005, 4)] {
            for axis in 0..<2 {
                let centre = axis == 0 ? best.0.ax : best.0.ay
                for k in -reach...reach where k != 0 {
                    var f = best.0
                    if axis == 0 { f.ax = centre + Double(k) * step } else { f.ay = centre + Double(k) * step }
                    if let err = error(f, expected, points), err < best.1 { best = (f, err) }
                }
            }
        }
        return best.0
    }

    static func candidate(_ fit: Fit, width w: Int, height h: Int) -> Candidate {
        let cx = Double(w - 1) / 2, cy = Double(h - 1) / 2
        let name: String, id: String
        if fit.ax == 1 && fit.ay == 1 {
            id = "geometry.translation"
            let across = fit.dx == 0 ? nil : String(format: "%g px %@", abs(fit.dx), fit.dx > 0 ? "right" : "left")
            let down = fit.dy == 0 ? nil : String(format: "%g px %@", abs(fit.dy), fit.dy > 0 ? "down" : "up")
            let moved = [across, down].compactMap { $0 }.joined(separator: " and ")
            let large = abs(fit.dx) >= max(4, Double(w) / 20) || abs(fit.dy) >= max(4, Double(h) / 20)
            let window = [fit.dx == 0 ? nil : String(format: "%g px %@", abs(fit.dx), fit.dx > 0 ? "left" : "right"),
                          fit.dy == 0 ? nil : String(format: "%g px %@", abs(fit.dy), fit.dy > 0 ? "up" : "down")].compactMap { $0 }
            name = "content shifted \(moved)" + (large
                ? ": the crop window is \(window.joined(separator: " and ")) of the expected one (another anchor, e.g. an edge or corner where the centre was expected)"
                : " (an offset rectangle: off by a pixel or a fraction of one)")
        } else if fit.dx != 0 || fit.dy != 0 {
            id = "geometry.scale-about-point"
            // The fixed point of u = a·(x − c) + c − d: x = c − d / (1 − a), in expected pixels.
            let px = abs(1 - fit.ax) >= 0.002 ? cx - fit.dx / (1 - fit.ax) : nil
            let py = abs(1 - fit.ay) >= 0.002 ? cy - fit.dy / (1 - fit.ay) : nil
            func place(_ p: Double?, _ c: Double, low: String, high: String) -> String? {
                guard let p, abs(p - c) > c / 4 else { return nil }
                return p < c ? low : high
            }
            let words = [place(py, cy, low: "top", high: "bottom"), place(px, cx, low: "left", high: "right")].compactMap { $0 }
            let pivot = words.isEmpty ? ["centre"] : words
            name = String(format: "content scaled × %.3f across, × %.3f down about (%@, %@), near the %@, instead of the centre (%.1f, %.1f): "
                          + "a zoom or crop window anchored at another point",
                          1 / fit.ax, 1 / fit.ay, px.map { String(format: "%.1f", $0) } ?? "—", py.map { String(format: "%.1f", $0) } ?? "—",
                          pivot.joined(separator: " "), cx, cy)
        } else {
            id = "geometry.centred-scale"
            let edge = max(abs(fit.ax - 1) * cx, abs(fit.ay - 1) * cy)
            let corner = fit.ax >= 1 && fit.ay >= 1
            name = String(format: "content scaled × %.4f across, × %.4f down about the centre (±%.2f px at the edges)", fit.ax, fit.ay, edge)
                + (corner ? ": pixel grids aligned at the corners instead of the centres (align_corners)" : ": the scale measured about another origin")
        }
        var candidate = Candidate(id: id, bugClass: "pixel-shift", name: name) { view, x, y in
            bicubic(view, fit.ax * (Double(x) - cx) + cx - fit.dx, fit.ay * (Double(y) - cy) + cy - fit.dy)
        }
        switch id {
        case "geometry.translation": candidate.parameters = ["dx": fit.dx, "dy": fit.dy]
        case "geometry.centred-scale": candidate.parameters = ["scale.x": fit.ax, "scale.y": fit.ay]
        default:
            candidate.parameters = ["scale.x": fit.ax, "scale.y": fit.ay, "dx": fit.dx, "dy": fit.dy]
            if abs(1 - fit.ax) >= 0.002 { candidate.parameters["pivot.x"] = cx - fit.dx / (1 - fit.ax) }
            if abs(1 - fit.ay) >= 0.002 { candidate.parameters["pivot.y"] = cy - fit.dy / (1 - fit.ay) }
        }
        return candidate
    }

    /// Catmull-Rom interpolation of the expected image at a fractional position (edges
    /// repeated), clamped to 0…1: a sub-pixel move of detailed content is predicted far better
    /// than by bilinear interpolation, which blurs it.
    static func bicubic(_ view: ExpectedView, _ fx: Double, _ fy: Double) -> SIMD4<Double> {
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func weights(_ t: Double) -> SIMD4<Double> {
            let t2 = t * t, t3 = t2 * t
            return SIMD4(-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1, -1.5 * t3 + 2 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2)
        }
        let wx = weights(tx), wy = weights(ty)
        var sum = SIMD4<Double>(repeating: 0)
        for j in 0..<4 {
            var row = SIMD4<Double>(repeating: 0)
            for i in 0..<4 { row += view.pixel(x0 - 1 + i, y0 - 1 + j) * wx[i] }
            sum += row * wy[j]
        }
        return pointwiseMin(pointwiseMax(sum, .zero), .one)
    }
}

extension GeometryFit.Luma {
    func bilinear(_ fx: Double, _ fy: Double) -> Double? { GeometryFit.at(self, fx, fy) }
}
