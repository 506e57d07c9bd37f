import Foundation

/// The CIEDE2000 colour difference ΔE00 (CIE 142-2001), with kL = kC = kH = 1, exactly as
/// written out by Sharma, Wu & Dalal, "The CIEDE2000 color-difference formula: implementation
/// notes, supplementary test data, and mathematical observations", Color Res. Appl. 30(1),
/// 2005, equations (1)–(22), including the hue conventions their paper pins down: an
/// achromatic sample (C′ = 0) has h′ = 0 and then h̄′ = h′1 + h′2, and when |h′1 − h′2| > 180°
/// the mean hue uses the "< 360" / "≥ 360" rule.
///
/// Unit: CIELAB-like ΔE units (≈ 1 is a just-noticeable difference). Angles in degrees.
public enum CIEDE2000 {
    /// Definition version of ``difference(_:_:)``; part of every machine-readable result.
    public static let version = "ciede2000-sharma2005/1"

    /// The paper's intermediate values for one pair (Table I columns).
    public struct Terms: Sendable, Hashable {
        /// a′ of each sample.
        public var a1p: Double, a2p: Double
        /// C′ (chroma) of each sample.
        public var c1p: Double, c2p: Double
        /// h′ (hue angle, degrees, 0…360) of each sample.
        public var h1p: Double, h2p: Double
        /// h̄′, the mean hue in degrees.
        public var hBarP: Double
        /// The chroma compensation G, the hue weighting T, the weights SL, SC, SH and the rotation term RT.
        public var g: Double, t: Double, sl: Double, sc: Double, sh: Double, rt: Double
        /// ΔE00.
        public var deltaE: Double
    }

    static let pow25_7 = 6103515625.0  // 25⁷
    static let degrees = 180 / Double.pi
    static let radians = Double.pi / 180

    /// ΔE00 between two CIELAB colours (``terms(_:_:)``'s value).
    public static func difference(_ x: LabColor, _ y: LabColor) -> Double {
        terms(x, y).deltaE
    }

    static let cos30 = 0.86602540378443864676, sin30 = 0.5
    static let cos6 = 0.99452189536827333692, sin6 = 0.10452846326765347140
    static let cos63 = 0.45399049973954679156, sin63 = 0.89100652418836786236
    static let cos125 = -0.57357643635104609611

    /// The same ΔE00 with fewer transcendental calls, for the per-pixel pass: hue angles are
    /// handled as unit vectors (the mean hue h̄′ is the direction of u1 + u2, which is the
    /// paper's rule for both |Δh′| ≤ 180° and > 180°; sin(Δh′/2) from |u1 − u2| and the sign of u1 × u2),
    /// and T's four cosines from cos h̄′ and sin h̄′ by multiple-angle identities. One atan2, one
    /// exp and one sin remain, and only for h̄′ > 125° (below, the rotation term is under 5e-16). Falls back to ``terms(_:_:)`` for an achromatic sample or exactly
    /// opposite hues, where the paper's conventions are not vector operations. Agrees with
    /// ``terms(_:_:)`` to 1e-9 (`ColourScienceTests`).
    @inline(__always)
    static func fastDifference(_ x: LabColor, _ y: LabColor) -> Double {
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let cBar = (c1 + c2) / 2
        let cBar7 = pow7(cBar)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow25_7)).squareRoot())
        let a1p = (1 + g) * x.a, a2p = (1 + g) * y.a
        let c1p = (a1p * a1p + x.b * x.b).squareRoot(), c2p = (a2p * a2p + y.b * y.b).squareRoot()
        let chromaProduct = c1p * c2p
        // Unit hue vectors.
        let inverse1 = 1 / c1p, inverse2 = 1 / c2p
        let u1x = a1p * inverse1, u1y = x.b * inverse1, u2x = a2p * inverse2, u2y = y.b * inverse2
        let cross = u1x * u2y - u1y * u2x, dot = u1x * u2x + u1y * u2y
        guard chromaProduct != 0, cross != 0 || dot > 0, c1p.isFinite, c2p.isFinite else { return terms(x, y).deltaE }
        let dLp = y.l - x.l
        let dCp = c2p - c1p
        // sin(Δh′/2) with Δh′ in (−180°, 180°): |u1 − u2| = 2·sin(|Δh′|/2), sign of the cross product.
        let ex = u2x - u1x, ey = u2y - u1y
        let halfSin = (cross < 0 ? -0.5 : 0.5) * (ex * ex + ey * ey).squareRoot()
        let dHp = 2 * chromaProduct.squareRoot() * halfSin
        let lBarP = (x.l + y.l) / 2
        let cBarP = (c1p + c2p) / 2
        var mx = u1x + u2x, my = u1y + u2y
        let inverseNorm = 1 / (mx * mx + my * my).squareRoot()
        mx *= inverseNorm; my *= inverseNorm
        // T from cos h̄′, sin h̄′.
        let c2h = mx * mx - my * my, s2h = 2 * mx * my
        let c3h = mx * c2h - my * s2h, s3h = my * c2h + mx * s2h
        let c4h = c2h * c2h - s2h * s2h, s4h = 2 * s2h * c2h
        let t = 1 - 0.17 * (mx * cos30 + my * sin30) + 0.24 * c2h
            + 0.32 * (c3h * cos6 - s3h * sin6) - 0.20 * (c4h * cos63 + s4h * sin63)
        // The rotation term R_T = −sin(2Δθ)·R_C with Δθ = 30°·exp(−((h̄′ − 275°)/25°)²). For
        // h̄′ ≤ 125° (the vector in the first quadrant or up to 35° into the second),
        // exp(−36) makes |R_T| < 5e-16, which changes ΔE00 by less than a unit in the last
        // place: R_T is 0 there and the atan2, exp and sin are skipped.
        let l50 = (lBarP - 50) * (lBarP - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cBarP
        let sh = 1 + 0.015 * cBarP * t
        var rt = 0.0
        if my < 0 || mx < cos125 {
            var hBarP = atan2(my, mx) * degrees
            if hBarP < 0 { hBarP += 360 }
            let hd = (hBarP - 275) / 25
            let dTheta = 30 * exp(-hd * hd)
            let cBarP7 = pow7(cBarP)
            let rc = 2 * (cBarP7 / (cBarP7 + pow25_7)).squareRoot()
            rt = -sin(2 * dTheta * radians) * rc
        }
        let lTerm = dLp / sl, cTerm = dCp / sc, hTerm = dHp / sh
        return (lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm).squareRoot()
    }

    /// ΔE00 with every intermediate of Sharma et al.'s Table I.
    @inline(__always)
    public static func terms(_ x: LabColor, _ y: LabColor) -> Terms {
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let cBar = (c1 + c2) / 2
        let cBar7 = pow7(cBar)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow25_7)).squareRoot())
        let a1p = (1 + g) * x.a, a2p = (1 + g) * y.a
        let c1p = (a1p * a1p + x.b * x.b).squareRoot(), c2p = (a2p * a2p + y.b * y.b).squareRoot()
        let h1p = hue(x.b, a1p), h2p = hue(y.b, a2p)

        let dLp = y.l - x.l
        let dCp = c2p - c1p
        let chromaProduct = c1p * c2p
        var dhp = 0.0
        if chromaProduct != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * chromaProduct.squareRoot() * sin(dhp * radians / 2)

        let lBarP = (x.l + y.l) / 2
        let cBarP = (c1p + c2p) / 2
        var hBarP = h1p + h2p
        if chromaProduct != 0 {
            if abs(h1p - h2p) <= 180 { hBarP = (h1p + h2p) / 2 }
            else if h1p + h2p < 360 { hBarP = (h1p + h2p + 360) / 2 }
            else { hBarP = (h1p + h2p - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hBarP - 30) * radians) + 0.24 * cos(2 * hBarP * radians)
            + 0.32 * cos((3 * hBarP + 6) * radians) - 0.20 * cos((4 * hBarP - 63) * radians)
        let hd = (hBarP - 275) / 25
        let dTheta = 30 * exp(-hd * hd)
        let cBarP7 = pow7(cBarP)
        let rc = 2 * (cBarP7 / (cBarP7 + pow25_7)).squareRoot()
        let l50 = (lBarP - 50) * (lBarP - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cBarP
        let sh = 1 + 0.015 * cBarP * t
        let rt = -sin(2 * dTheta * radians) * rc
        let lTerm = dLp / sl, cTerm = dCp / sc, hTerm = dHp / sh
        let e = (lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm).squareRoot()
        return Terms(a1p: a1p, a2p: a2p, c1p: c1p, c2p: c2p, h1p: h1p, h2p: h2p, hBarP: hBarP,
                     g: g, t: t, sl: sl, sc: sc, sh: sh, rt: rt, deltaE: e)
    }

    @inline(__always)
    static func pow7(_ v: Double) -> Double {
        let v2 = v * v, v3 = v2 * v
        return v3 * v3 * v
    }

    /// h′ = atan2(b, a′) in degrees, 0…360; 0 when both are 0 (Sharma eq. 7).
    @inline(__always)
    private static func hue(_ b: Double, _ ap: Double) -> Double {
        if b == 0 && ap == 0 { return 0 }
        let h = atan2(b, ap) * degrees
        return h < 0 ? h + 360 : h
    }
}
