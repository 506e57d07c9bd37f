import Foundation

/// Eight CIELAB colours in SIMD lanes (one colour per lane), for the per-pixel pass.
struct LabLanes: Sendable {
    var l: SIMD8<Double>, a: SIMD8<Double>, b: SIMD8<Double>

    /// Lane `i` as a colour.
    @inline(__always)
    subscript(i: Int) -> LabColor { LabColor(l: l[i], a: a[i], b: b[i]) }
}

extension CIELab {
    /// Linear-light RGB (0…1) of eight colours → CIELAB, lane by lane. Every lane goes through
    /// exactly the operations of ``labPair(_:_:)`` in the same order (IEEE arithmetic is the
    /// same in a SIMD lane as in a scalar), so the values are bit for bit the same; only the
    /// eight colours share each instruction instead of one colour's six roots sharing one.
    @inline(__always)
    static func labLanes(linearRed r: SIMD8<Double>, green g: SIMD8<Double>, blue b: SIMD8<Double>) -> LabLanes {
        typealias V = SIMD8<Double>
        let x: V = 0.41245643908969221 * r + 0.35757607764390892 * g + 0.18043748326639886 * b
        let y: V = 0.21267285140562256 * r + 0.71515215528781784 * g + 0.072174993306559534 * b
        let z: V = 0.019333895582329303 * r + 0.11919202588130295 * g + 0.95030407853636734 * b
        @inline(__always) func f(_ t: V) -> V {
            let eps = V(repeating: epsilon)
            let root = CubeRoot.ofPositive(t.replacing(with: eps, where: t .<= eps))
            let linear: V = (kappa * t + 16) / 116
            return linear.replacing(with: root, where: t .> eps)
        }
        let fx = f(x / white.x), fy = f(y / white.y), fz = f(z / white.z)
        let l: V = 116 * fy - 16
        let a: V = 500 * (fx - fy)
        let bb: V = 200 * (fy - fz)
        return LabLanes(l: l, a: a, b: bb)
    }
}

extension CIEDE2000 {
    /// ``fastDifference(_:_:)`` of eight colour pairs, lane by lane, with every lane's
    /// arithmetic in the same order as the scalar function, so each lane's ΔE00 is bit for bit
    /// the scalar value. The scalar function's branches become lane masks: lanes with an
    /// achromatic sample or exactly opposite hues take ``terms(_:_:)``, and the rotation term
    /// R_T (atan2, exp, sin) is evaluated one lane at a time only for the lanes whose mean hue
    /// h̄′ exceeds 125° (see ``fastDifference(_:_:)``).
    @inline(__always)
    static func fastDifferences(_ x: LabLanes, _ y: LabLanes) -> SIMD8<Double> {
        typealias V = SIMD8<Double>
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let cBar: V = (c1 + c2) / 2
        let cBar7 = pow7(cBar)
        let g: V = 0.5 * (1 - (cBar7 / (cBar7 + pow25_7)).squareRoot())
        let onePlusG: V = 1 + g
        let a1p = onePlusG * x.a, a2p = onePlusG * y.a
        let c1p = (a1p * a1p + x.b * x.b).squareRoot(), c2p = (a2p * a2p + y.b * y.b).squareRoot()
        let chromaProduct = c1p * c2p
        let one = V(repeating: 1)
        let inverse1 = one / c1p, inverse2 = one / c2p
        let u1x = a1p * inverse1, u1y = x.b * inverse1, u2x = a2p * inverse2, u2y = y.b * inverse2
        let cross = u1x * u2y - u1y * u2x, dot = u1x * u2x + u1y * u2y
        // The scalar guard `chromaProduct != 0, cross != 0 || dot > 0, c1p, c2p finite`; NaN
        // and ∞ fail `< ∞`, and where c1p, c2p are finite and non-zero `cross` is finite.
        let infinity = V(repeating: .infinity), zero = V(repeating: 0)
        let regular = (chromaProduct .!= zero) .& ((cross .< zero) .| (cross .> zero) .| (dot .> zero))
            .& (c1p .< infinity) .& (c2p .< infinity)
        let dLp = y.l - x.l
        let dCp = c2p - c1p
        let ex = u2x - u1x, ey = u2y - u1y
        let halfSin = V(repeating: 0.5).replacing(with: -0.5, where: cross .< zero) * (ex * ex + ey * ey).squareRoot()
        let dHp = 2 * chromaProduct.squareRoot() * halfSin
        let lBarP: V = (x.l + y.l) / 2
        let cBarP: V = (c1p + c2p) / 2
        var mx = u1x + u2x, my = u1y + u2y
        let inverseNorm = one / (mx * mx + my * my).squareRoot()
        mx *= inverseNorm; my *= inverseNorm
        let c2h = mx * mx - my * my, s2h = 2 * mx * my
        let c3h = mx * c2h - my * s2h, s3h = my * c2h + mx * s2h
        let c4h = c2h * c2h - s2h * s2h, s4h = 2 * s2h * c2h
        let t1: V = 0.17 * (mx * cos30 + my * sin30)
        let t3: V = 0.32 * (c3h * cos6 - s3h * sin6)
        let t4: V = 0.20 * (c4h * cos63 + s4h * sin63)
        let t: V = 1 - t1 + 0.24 * c2h + t3 - t4
        let lb50 = lBarP - 50
        let l50 = lb50 * lb50
        let sl: V = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc: V = 1 + 0.045 * cBarP
        let sh: V = 1 + 0.015 * cBarP * t
        let lTerm = dLp / sl, cTerm = dCp / sc, hTerm = dHp / sh
        var rt = V(repeating: 0)
        let rotated = (my .< zero) .| (mx .< V(repeating: cos125))
        if any(rotated) {
            for i in 0..<8 where rotated[i] {
                var hBarP = atan2(my[i], mx[i]) * degrees
                if hBarP < 0 { hBarP += 360 }
                let hd = (hBarP - 275) / 25
                let dTheta = 30 * exp(-hd * hd)
                let cBarP7 = pow7(cBarP[i])
                let rc = 2 * (cBarP7 / (cBarP7 + pow25_7)).squareRoot()
                rt[i] = -sin(2 * dTheta * radians) * rc
            }
        }
        let sum: V = lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm
        var result = sum.squareRoot()
        if !all(regular) {
            for i in 0..<8 where !regular[i] { result[i] = terms(x[i], y[i]).deltaE }
        }
        return result
    }

    @inline(__always)
    private static func pow7(_ v: SIMD8<Double>) -> SIMD8<Double> {
        let v2 = v * v, v3 = v2 * v
        return v3 * v3 * v
    }
}
