import Foundation
import ImageCore

/// Global colour transforms fitted to a pair, offered as candidates with their parameters in
/// their names: the everyday differences a bug report brings that are not resampling bugs — a
/// white-balance or colour-matrix slip, a transfer curve applied to a whole image, levels.
///
/// Each family is fitted by weighted least squares on the diagnosis's samples (opaque pixels
/// only; actual values clipped at 0 or 1 are left out of the fit, since the transform's own
/// clipping made them), so the fit costs the sample, not the image:
/// - `levels`: one gain and offset for all channels, clipped (`-level black,white`): 2 numbers;
/// - `colour-gain`: a gain and an offset per channel: 6 numbers;
/// - `colour-matrix`: a 3×3 matrix and an offset (saturation, channel cross-talk): 12 numbers;
///   named as a saturation change when one saturation factor about the Rec. 709 luma fits it;
/// - `transfer-curve`: the sRGB decoding or encoding applied to every value, or a pure power
///   `v^γ` with γ fitted (0.25…4): 0 or 1 number.
/// Gains outside 0.2…5 and matrices whose diagonal does not dominate its row are not fitted (an
/// inverted or permuted image is another bug's). The families nest (levels ⊂ gain ⊂ matrix), so
/// the diagnosis takes the simplest that explains
/// nearly as much as the richest (``simplest(_:)``).
enum GlobalColourFit {
    /// Rec. 709 luma weights, about which a saturation change is fitted.
    static let luma = SIMD3<Double>(0.2126, 0.7152, 0.0722)
    /// The candidate ids, by family: nested linear families first, simplest first.
    static let linearFamilies = ["colour.levels", "colour.gain", "colour.matrix"]
    /// The class of the transfer-curve candidates.
    static let transferCurveClass = "transfer-curve"

    /// One opaque sample: expected and actual RGB (0…1) and its weight.
    struct Point { var e: SIMD3<Double>, a: SIMD3<Double>, weight: Double }

    /// The samples both images show opaque.
    static func points(_ expected: ValueImage, _ actual: ValueImage, _ samples: [Diagnoser.Sample]) -> [Point] {
        let e = ExpectedView(expected), a = ExpectedView(actual)
        return samples.compactMap { s in
            let pe = e.pixel(s.x, s.y), pa = a.pixel(s.x, s.y)
            guard pe.w > 0.999, pa.w > 0.999 else { return nil }
            return Point(e: SIMD3(pe.x, pe.y, pe.z), a: SIMD3(pa.x, pa.y, pa.z), weight: s.weight)
        }
    }

    /// Every family fitted to the pair, as candidates (none when too few opaque samples).
    static func candidates(expected: ValueImage, actual: ValueImage, samples: [Diagnoser.Sample]) -> [Candidate] {
        guard expected.width == actual.width, expected.height == actual.height else { return [] }
        // A regular subsample of at most 8192 samples fits a dozen numbers as well as all of them.
        let step = max(1, samples.count / 8192)
        let all = points(expected, actual, Swift.stride(from: 0, to: samples.count, by: step).map { samples[$0] })
        guard all.count >= 16 else { return [] }
        // Values the transform clipped tell only that it went past the end: not fitted.
        let inside = all.filter { p in (0..<3).allSatisfy { p.a[$0] > 0.5 / 255 && p.a[$0] < 254.5 / 255 } }
        var out: [Candidate] = []
        if let levels = fitLevels(inside) { out.append(levels) }
        if let gain = fitGain(inside) { out.append(gain) }
        if let matrix = fitMatrix(inside) { out.append(matrix) }
        out += curves(all)
        return out
    }

    // MARK: Linear families

    static func fitLevels(_ points: [Point]) -> Candidate? {
        let fitted = solve(unknowns: 2) { add in
            for p in points { for c in 0..<3 { add(SIMD4(p.e[c], 1, 0, 0), p.a[c], p.weight) } }
        }
        guard let x = fitted, plausibleGain(x[0]) else { return nil }
        let g = x[0], o = x[1]
        let black = -o / g, white = (1 - o) / g
        let name = String(format: "levels: black point %.0f%%, white point %.0f%% (every channel × %.3f %+.1f codes, clipped)",
                          black * 100, white * 100, g, o * 255)
        var c = linear(id: "colour.levels", bugClass: "levels", name: name) { e in clip(e * g + SIMD3(repeating: o)) }
        c.parameters = ["black": black, "white": white, "gain": g, "offset": o * 255]
        return c
    }

    static func fitGain(_ points: [Point]) -> Candidate? {
        var gains = SIMD3<Double>(repeating: 1), offsets = SIMD3<Double>(repeating: 0)
        for c in 0..<3 {
            let fitted = solve(unknowns: 2) { add in for p in points { add(SIMD4(p.e[c], 1, 0, 0), p.a[c], p.weight) } }
            guard let x = fitted, plausibleGain(x[0]) else { return nil }
            gains[c] = x[0]
            offsets[c] = x[1]
        }
        let names = ["red", "green", "blue"]
        var parts: [String] = []
        for c in 0..<3 {
            var part = ""
            if abs(gains[c] - 1) >= 0.01 { part += String(format: " × %.2f", gains[c]) }
            if abs(offsets[c]) * 255 >= 1 { part += String(format: " %+.0f codes", offsets[c] * 255) }
            if !part.isEmpty { parts.append(names[c] + part) }
        }
        let name = "a gain and offset per channel (white balance): " + (parts.isEmpty ? "none visible" : parts.joined(separator: ", "))
        let (g, o) = (gains, offsets)
        var c = linear(id: "colour.gain", bugClass: "colour-gain", name: name) { e in clip(e * g + o) }
        for (i, channel) in names.enumerated() { c.parameters["gain.\(channel)"] = g[i]; c.parameters["offset.\(channel)"] = o[i] * 255 }
        return c
    }

    static func fitMatrix(_ points: [Point]) -> Candidate? {
        var m = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for c in 0..<3 {
            let fitted = solve(unknowns: 4) { add in for p in points { add(SIMD4(p.e.x, p.e.y, p.e.z, 1), p.a[c], p.weight) } }
            guard let x = fitted, plausibleGain(x[c]), (0..<3).allSatisfy({ $0 == c || abs(x[$0]) < x[c] }) else { return nil }
            m[c] = x
        }
        // A saturation change about the luma: a − Y(e) = s·(e − Y(e)).
        var num = 0.0, den = 0.0
        for p in points {
            let y = (p.e * luma).sum()
            for c in 0..<3 { num += p.weight * (p.a[c] - y) * (p.e[c] - y); den += p.weight * (p.e[c] - y) * (p.e[c] - y) }
        }
        let s = den > 0 ? num / den : 1
        var saturationError = 0.0, matrixError = 0.0
        for p in points {
            let y = (p.e * luma).sum()
            for c in 0..<3 {
                let byMatrix = m[c][0] * p.e.x + m[c][1] * p.e.y + m[c][2] * p.e.z + m[c][3]
                saturationError += p.weight * pow(p.a[c] - (y + s * (p.e[c] - y)), 2)
                matrixError += p.weight * pow(p.a[c] - byMatrix, 2)
            }
        }
        let rows = m.map { r in "[" + r.prefix(3).map { String(format: "%.2f", $0) }.joined(separator: " ") + "]" }.joined(separator: " ")
        let name = saturationError <= 1.5 * matrixError + 1e-9
            ? String(format: "saturation × %.2f (a 3×3 colour matrix about the luma)", s)
            : "a 3×3 colour matrix (channel cross-talk): rows \(rows)"
        let rowsFitted = m
        var candidate = linear(id: "colour.matrix", bugClass: "colour-matrix", name: name) { e in
            clip(SIMD3((0..<3).map { c in rowsFitted[c][0] * e.x + rowsFitted[c][1] * e.y + rowsFitted[c][2] * e.z + rowsFitted[c][3] }))
        }
        for r in 0..<3 { for k in 0..<3 { candidate.parameters["m\(r)\(k)"] = m[r][k] } }
        candidate.parameters["saturation"] = s
        return candidate
    }

    static func linear(id: String, bugClass: String, name: String,
                       _ transform: @escaping @Sendable (SIMD3<Double>) -> SIMD3<Double>) -> Candidate {
        Candidate(id: id, bugClass: bugClass, name: name) { (n: Neighbourhood) in
            let p = n.centre
            let t = transform(SIMD3(p.x, p.y, p.z))
            return SIMD4(t.x, t.y, t.z, p.w)
        }
    }

    // MARK: Transfer curves

    static func curves(_ points: [Point]) -> [Candidate] {
        func curve(_ id: String, _ name: String, _ f: @escaping @Sendable (Double) -> Double) -> Candidate {
            Candidate(id: id, bugClass: transferCurveClass, name: name) { (n: Neighbourhood) in
                let p = n.centre
                return SIMD4(f(p.x), f(p.y), f(p.z), p.w)
            }
        }
        var out = [
            curve("curve.srgb-decoded", "sRGB decoding applied to every value (linear light written as if encoded: darker)",
                  SRGBTransfer.toLinear),
            curve("curve.srgb-encoded", "sRGB encoding applied to encoded values (encoded twice: lighter, washed out)",
                  SRGBTransfer.fromLinear),
        ]
        if let gamma = fitPower(points) {
            let words = gamma < 1 ? String(format: "a 1/%.2f curve: lighter", 1 / gamma) : String(format: "a %.2f curve: darker", gamma)
            var power = curve("curve.power", String(format: "every value raised to the power %.3f (%@)", gamma, words)) { pow(max($0, 0), gamma) }
            power.parameters = ["gamma": gamma]
            out.append(power)
        }
        return out
    }

    /// γ minimising the weighted squared error of `a = e^γ` over 0.25…4 (golden-section search on log γ).
    static func fitPower(_ all: [Point]) -> Double? {
        guard !all.isEmpty else { return nil }
        // A regular subsample is enough for one number (the search evaluates the error 64 times).
        let step = max(1, all.count / 1024)
        let points = Swift.stride(from: 0, to: all.count, by: step).map { all[$0] }
        func error(_ logGamma: Double) -> Double {
            let g = exp(logGamma)
            return points.reduce(0) { sum, p in
                sum + p.weight * (0..<3).reduce(0) { $0 + pow(pow(max(p.e[$1], 0), g) - p.a[$1], 2) }
            }
        }
        var lo = log(0.25), hi = log(4.0)
        let phi = (sqrt(5) - 1) / 2
        for _ in 0..<32 {
            let m1 = hi - phi * (hi - lo), m2 = lo + phi * (hi - lo)
            if error(m1) < error(m2) { hi = m2 } else { lo = m1 }
        }
        let gamma = exp((lo + hi) / 2)
        return abs(gamma - 1) < 0.02 ? nil : gamma
    }

    // MARK: Choosing

    /// The simplest of the nested linear families that explains at least the richest's share less
    /// 0.02 (levels before gain before the matrix), and every curve: what the diagnosis ranks.
    static func simplest(_ scores: [Diagnosis.CandidateScore]) -> [Diagnosis.CandidateScore] {
        let linear = linearFamilies.compactMap { id in scores.first { $0.id == id } }
        let richest = linear.map(\.explained).max() ?? 0
        let chosen = linear.first { $0.explained >= richest - 0.02 }
        return (chosen.map { [$0] } ?? []) + scores.filter { !linearFamilies.contains($0.id) }
    }

    // MARK: Arithmetic

    /// A gain a colour adjustment makes (0.2…5): a negative or vanishing one is an inversion or
    /// lost content, which other candidates name (CMYK inversion, channel order, alpha).
    static func plausibleGain(_ g: Double) -> Bool { g >= 0.2 && g <= 5 }

    static func clip(_ v: SIMD3<Double>) -> SIMD3<Double> { pointwiseMin(pointwiseMax(v, .zero), .one) }

    /// Weighted least squares: the `unknowns` (≤ 4) coefficients minimising Σ w·(x·row − y)² over
    /// the rows `rows` hands to its argument (x padded with zeros), by the normal equations and
    /// Gaussian elimination with partial pivoting; `nil` when singular. The rows are summed as
    /// they come, never stored.
    static func solve(unknowns n: Int, _ rows: ((SIMD4<Double>, Double, Double) -> Void) -> Void) -> [Double]? {
        var a = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        rows { x, y, w in
            for i in 0..<n {
                for j in 0..<n { a[i][j] += w * x[i] * x[j] }
                a[i][n] += w * x[i] * y
            }
        }
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = a[r][col] / a[col][col]
                for k in col...n { a[r][k] -= f * a[col][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
