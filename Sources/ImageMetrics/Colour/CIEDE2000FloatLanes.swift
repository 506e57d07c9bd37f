/// One colour pair in linear light, in the form ``CIEDE2000/floatDifference(_:)`` reads: the
/// expected pixel as green plus the red − green and blue − green differences, the actual pixel's
/// red − green and blue − green, and actual − expected per channel. The differences are taken
/// in `Double` (from the `Double` transfer table) before rounding to `Float`, so each is
/// accurate relative to its own size: a grey pixel has exactly zero chroma inputs, and a small
/// change is not the difference of two rounded large values.
struct LinearPair: Sendable {
    /// Expected: G, R − G, B − G (linear light, 0…1).
    var green: Float, redMinusGreen: Float, blueMinusGreen: Float
    /// Actual: R − G, B − G.
    var actualRedMinusGreen: Float, actualBlueMinusGreen: Float
    /// Actual − expected: R, G, B.
    var dRed: Float, dGreen: Float, dBlue: Float
}

/// ``LinearPair`` of eight pairs, one per lane.
struct LinearPairLanes: Sendable {
    /// Expected: G, R − G, B − G (linear light, 0…1).
    var green: FloatLanes, redMinusGreen: FloatLanes, blueMinusGreen: FloatLanes
    /// Actual: R − G, B − G.
    var actualRedMinusGreen: FloatLanes, actualBlueMinusGreen: FloatLanes
    /// Actual − expected: R, G, B.
    var dRed: FloatLanes, dGreen: FloatLanes, dBlue: FloatLanes
}

/// ΔE00 and the CIELAB differences (actual − expected) of the lanes' pairs, and which lanes the
/// caller must compute with the `Double` scalar path instead.
struct DeltaEFloatLanes: Sendable {
    var deltaE: FloatLanes, dL: FloatLanes, dA: FloatLanes, dB: FloatLanes
    /// Lanes whose values above are not valid: an achromatic sample, exactly opposite hues, or
    /// hues within ~5.7° of opposite, or a companding argument of the pair on both sides of ε (where the difference quotients
    /// below switch branch).
    var scalar: SIMDMask<FloatLanes.MaskStorage>
}

extension CIEDE2000 {
    /// ``floatDifference(_:)`` of eight pairs, lane by lane (through one
    /// ``floatDifferences(block:count:)`` block).
    static func floatDifferences(_ p: LinearPairLanes) -> DeltaEFloatLanes {
        let n = FloatDifferenceBlock.lanes
        var block = [Float](repeating: 0, count: FloatDifferenceBlock.floats)
        let inputs = [p.green, p.redMinusGreen, p.blueMinusGreen, p.actualRedMinusGreen, p.actualBlueMinusGreen, p.dRed, p.dGreen, p.dBlue]
        for (k, v) in inputs.enumerated() {
            for lane in 0..<FloatLanes.scalarCount { block[k * n + lane] = v[lane] }
        }
        block.withUnsafeMutableBufferPointer { b in
            if let base = b.baseAddress { floatDifferences(block: base, count: FloatLanes.scalarCount) }
        }
        func lanes(_ row: Int) -> FloatLanes {
            var v = FloatLanes()
            for lane in 0..<FloatLanes.scalarCount { v[lane] = block[row * n + lane] }
            return v
        }
        return DeltaEFloatLanes(deltaE: lanes(FloatDifferenceBlock.deltaE), dL: lanes(FloatDifferenceBlock.dL),
                                dA: lanes(FloatDifferenceBlock.dA), dB: lanes(FloatDifferenceBlock.dB),
                                scalar: lanes(FloatDifferenceBlock.scalar) .!= 0)
    }

    /// ``floatDifference(_:)`` of the first `count` pairs of a block laid out as
    /// ``FloatDifferenceBlock`` describes, results into the block's output rows. One base
    /// pointer and constant row offsets, so the loop vectorizer sees every access's distance and
    /// widens the loop without runtime alias checks (four lanes per SSE register, eight per AVX
    /// register in the x86-64-v3 build).
    static func floatDifferences(block: UnsafeMutablePointer<Float>, count: Int) {
        typealias B = FloatDifferenceBlock
        let n = B.lanes
        for i in 0..<count {
            let r = floatDifference(LinearPair(
                green: block[i], redMinusGreen: block[n &+ i], blueMinusGreen: block[2 &* n &+ i],
                actualRedMinusGreen: block[3 &* n &+ i], actualBlueMinusGreen: block[4 &* n &+ i],
                dRed: block[5 &* n &+ i], dGreen: block[6 &* n &+ i], dBlue: block[7 &* n &+ i]))
            block[B.deltaE &* n &+ i] = r.deltaE
            block[B.dL &* n &+ i] = r.dL
            block[B.dA &* n &+ i] = r.dA
            block[B.dB &* n &+ i] = r.dB
            block[B.scalar &* n &+ i] = r.scalar ? 1 : 0
        }
    }

    /// ΔE00 (kL = kC = kH = 1) of one linear-light colour pair in `Float`, the body of the loop
    /// of ``floatDifferences(block:count:)``: CIELAB and the formula of
    /// ``fastDifference(_:_:)`` rearranged so that no value is the difference of two rounded
    /// large values. Branch-free (every choice a select), so the loop is vectorized.
    ///
    /// Error analysis (u = 2⁻²⁴ ≈ 6e-8, the `Float` unit roundoff). Every quantity the formula
    /// subtracts is formed from inputs that are already differences:
    /// - CIELAB. t = (X/Xn, Y/Yn, Z/Zn) of the expected pixel is G·Σk + k_R·(R−G) + k_B·(B−G)
    ///   (relative error a few u); t_X − t_Y = (k_XR − k_YR)(R−G) + (k_XB − k_YB)(B−G), which is
    ///   exactly 0 for a grey and otherwise accurate relative to itself; the actual pixel's
    ///   from its own R−G, B−G; Δt from the per-channel differences. f(t₁) − f(t₂) is
    ///   (t₁ − t₂)/(f₁² + f₁f₂ + f₂²) above ε (the cube-root identity; f from
    ///   ``ElementaryFloatLanes/cubeRoot(_:)``, a few ulp) and κ/116·(t₁ − t₂) below, so
    ///   a*, b* of each pixel and ΔL*, Δa*, Δb* carry a relative error of ≲ 10u of the size
    ///   of their own terms. Δa* = 500(Δf_X − Δf_Y) still cancels when a change is nearly grey,
    ///   leaving an absolute error ≲ 500·10u·|Δf| ≈ 3e-6·|ΔL*|.
    /// - ΔC′ = (Δa′(a′₁ + a′₂) + Δb(b₁ + b₂))/(C′₁ + C′₂) (the difference of squares), and the
    ///   cross product a′₁b₂ − a′₂b₁ = a′ᵢΔb − Δa′bᵢ taken at the smaller chroma i, so
    ///   ΔH′ = cross/(√(C′₁C′₂)·cos(Δh′/2)) with cos(Δh′/2) = √((1 + cos Δh′)/2) ≥ 0.707 when
    ///   the hues are less than 90° apart; beyond, |ΔH′| = √(C′₁C′₂)·|u₁ − u₂| with |u₁ − u₂| ≥ √2
    ///   (no cancellation). Both are accurate to ≲ 10u of |Δa′| + |Δb| (· √(Cᵢ/Cⱼ) ≤ 1).
    /// - G, S_L, S_C, S_H, T and R_T are smooth functions of means, computed to a relative
    ///   error ≲ 1e-6 (the mean hue's direction u₁ + u₂ to ≲ 10u/|u₁ + u₂|; lanes with
    ///   |u₁ + u₂| < 0.1, hues within ~5.7° of opposite, take the scalar path) (atan2, exp, sin by ``ElementaryFloatLanes``, ≤ 4e-7), which scales the
    ///   terms, not their difference.
    /// - Every square root is the correctly rounded hardware root (≤ u/2). A bit-level 1/√x guess
    ///   with two Newton steps leaves up to 4.8e-6 relative error per root, which through C′, the
    ///   hue directions and the final root puts ΔE00 of saturated noise 2.5e-5 off; with the
    ///   hardware root the 3840×2160 bench pair's mean ΔE00 is 1.3e-8 from the `Double` path's.
    /// So |ΔE_Float − ΔE_Double| ≲ 1e-5·ΔE00 plus ≈ 1e-6 (the inputs' own rounding); the test
    /// (`PixelPassLanesTests`) bounds it by 1e-5·max(1, ΔE00), and ΔE00 with ΔL*, Δa*, Δb* by
    /// 1e-5·max(1, ΔE00 + |ΔLab|), on 48 000 random pairs (noise, large changes, near-greys,
    /// opposite hues, one-code and 16-bit steps); the reference tolerance per pixel is 1e-4 and it
    /// keeps being checked against the scalar `Double` path, which stays the definition.
    @inline(__always)
    static func floatDifference(_ p: LinearPair) -> (deltaE: Float, dL: Float, dA: Float, dB: Float, scalar: Bool) {
        typealias V = Float
        typealias E = ElementaryFloatLanes
        @inline(__always) func root(_ v: V) -> V { E.squareRoot(v) }
        // sRGB linear → XYZ / white (the matrix of ``CIELab/xyz(linearRed:green:blue:)`` over
        // ``CIELab/white``), rows X/Xn, Y/Yn, Z/Zn, in `Double`, rounded once to `Float` where
        // used. Literal expressions, so the compiler folds every constant below.
        let kx = (0.41245643908969221 / 0.95047, 0.35757607764390892 / 0.95047, 0.18043748326639886 / 0.95047)
        let ky = (0.21267285140562256, 0.71515215528781784, 0.072174993306559534)
        let kz = (0.019333895582329303 / 1.08883, 0.11919202588130295 / 1.08883, 0.95030407853636734 / 1.08883)
        @inline(__always) func f(_ k: (Double, Double, Double)) -> (Float, Float, Float, Float) {
            (Float(k.0), Float(k.1), Float(k.2), Float(k.0 + k.1 + k.2))
        }
        let x = f(kx), y = f(ky), z = f(kz)
        let xyR = Float(kx.0 - ky.0), xyB = Float(kx.2 - ky.2), yzR = Float(ky.0 - kz.0), yzB = Float(ky.2 - kz.2)
        // Expected t and the actual t = t₁ + Δt.
        let tx1: V = x.3 * p.green + x.0 * p.redMinusGreen + x.2 * p.blueMinusGreen
        let ty1: V = y.3 * p.green + y.0 * p.redMinusGreen + y.2 * p.blueMinusGreen
        let tz1: V = z.3 * p.green + z.0 * p.redMinusGreen + z.2 * p.blueMinusGreen
        let dtx: V = x.0 * p.dRed + x.1 * p.dGreen + x.2 * p.dBlue
        let dty: V = y.0 * p.dRed + y.1 * p.dGreen + y.2 * p.dBlue
        let dtz: V = z.0 * p.dRed + z.1 * p.dGreen + z.2 * p.dBlue
        let tx2 = tx1 + dtx, ty2 = ty1 + dty, tz2 = tz1 + dtz
        // Within-pixel differences of t.
        let xy1: V = xyR * p.redMinusGreen + xyB * p.blueMinusGreen
        let yz1: V = yzR * p.redMinusGreen + yzB * p.blueMinusGreen
        let xy2: V = xyR * p.actualRedMinusGreen + xyB * p.actualBlueMinusGreen
        let yz2: V = yzR * p.actualRedMinusGreen + yzB * p.actualBlueMinusGreen
        // f of the six arguments (the two branches), and whether each is above ε.
        let eps = Float(CIELab.epsilon)
        let slope = Float(CIELab.kappa / 116)
        @inline(__always) func companded(_ t: V) -> V {
            let root = E.cubeRoot(t <= eps ? eps : t)
            return t > eps ? root : slope * t + 16 / 116
        }
        let fx1 = companded(tx1), fy1 = companded(ty1), fz1 = companded(tz1)
        let fx2 = companded(tx2), fy2 = companded(ty2), fz2 = companded(tz2)
        let aboveX1 = tx1 > eps, aboveY1 = ty1 > eps, aboveZ1 = tz1 > eps
        let aboveX2 = tx2 > eps, aboveY2 = ty2 > eps, aboveZ2 = tz2 > eps
        let allAbove = aboveX1 && aboveY1 && aboveZ1 && aboveX2 && aboveY2 && aboveZ2
        let noneAbove = !(aboveX1 || aboveY1 || aboveZ1 || aboveX2 || aboveY2 || aboveZ2)
        // f(s) − f(t) = (s − t)·q(f(s), f(t)).
        @inline(__always) func q(_ a: V, _ b: V) -> V {
            noneAbove ? slope : 1 / (a * a + a * b + b * b)
        }
        let dfx = dtx * q(fx1, fx2), dfy = dty * q(fy1, fy2), dfz = dtz * q(fz1, fz2)
        let l1: V = 116 * fy1 - 16, l2: V = 116 * fy2 - 16
        let a1: V = 500 * (xy1 * q(fx1, fy1)), b1: V = 200 * (yz1 * q(fy1, fz1))
        let a2: V = 500 * (xy2 * q(fx2, fy2)), b2: V = 200 * (yz2 * q(fy2, fz2))
        let dL: V = 116 * dfy, dA: V = 500 * (dfx - dfy), dB: V = 200 * (dfy - dfz)

        // ΔE00.
        let c1 = root(a1 * a1 + b1 * b1), c2 = root(a2 * a2 + b2 * b2)
        let cBar: V = (c1 + c2) / 2
        let pow25to7 = Float(pow25_7)
        @inline(__always) func pow7(_ v: V) -> V { let v2 = v * v, v3 = v2 * v; return v3 * v3 * v }
        let cBar7 = pow7(cBar)
        let g: V = 0.5 * (1 - root(cBar7 / (cBar7 + pow25to7)))
        let onePlusG: V = 1 + g
        let a1p = onePlusG * a1, a2p = onePlusG * a2, dAp = onePlusG * dA
        let c1p = root(a1p * a1p + b1 * b1), c2p = root(a2p * a2p + b2 * b2)
        let chromaSum = c1p + c2p
        let dCp = (dAp * (a1p + a2p) + dB * (b1 + b2)) / (chromaSum == 0 ? 1 : chromaSum)
        let cross = c1p <= c2p ? a1p * dB - dAp * b1 : a2p * dB - dAp * b2
        let chromaProduct = c1p * c2p
        let dot = a1p * a2p + b1 * b2
        let rootProduct = root(chromaProduct)
        let inverse1 = 1 / c1p, inverse2 = 1 / c2p
        let u1x = a1p * inverse1, u1y = b1 * inverse1, u2x = a2p * inverse2, u2y = b2 * inverse2
        let cosHalf = root((1 + dot / chromaProduct) / 2)
        let ex = u2x - u1x, ey = u2y - u1y
        let farH = rootProduct * root(ex * ex + ey * ey)
        let dHp = dot > 0 ? cross / (rootProduct * cosHalf) : (cross < 0 ? -farH : farH)

        let lBarP: V = (l1 + l2) / 2
        let cBarP: V = (c1p + c2p) / 2
        var mx = u1x + u2x, my = u1y + u2y
        let norm2 = mx * mx + my * my
        let inverseNorm = 1 / root(norm2)
        mx *= inverseNorm; my *= inverseNorm
        // Hues within ~5.7° of opposite (|u₁ + u₂| < 0.1) go to the scalar path: there the mean
        // hue's direction carries the `Float` error of u₁, u₂ divided by |u₁ + u₂| (and at
        // exactly opposite hues the definition jumps by 180°).
        let scalar = !(allAbove || noneAbove) || chromaProduct == 0 || norm2 < 0.01
        let c2h = mx * mx - my * my, s2h = 2 * mx * my
        let c3h = mx * c2h - my * s2h, s3h = my * c2h + mx * s2h
        let c4h = c2h * c2h - s2h * s2h, s4h = 2 * s2h * c2h
        let t1: V = Float(0.17 * cos30) * mx + Float(0.17 * sin30) * my
        let t3: V = Float(0.32 * cos6) * c3h - Float(0.32 * sin6) * s3h
        let t4: V = Float(0.20 * cos63) * c4h + Float(0.20 * sin63) * s4h
        let t: V = 1 - t1 + 0.24 * c2h + t3 - t4
        let lb50 = lBarP - 50
        let l50 = lb50 * lb50
        let sl: V = 1 + 0.015 * l50 / root(20 + l50)
        let sc: V = 1 + 0.045 * cBarP
        let sh: V = 1 + 0.015 * cBarP * t
        let lTerm = dL / sl, cTerm = dCp / sc, hTerm = dHp / sh
        var sum: V = lTerm * lTerm + cTerm * cTerm + hTerm * hTerm
        // R_T where h̄′ > 125° (see fastDifference): h̄′ − 275° is the angle from the 275°
        // direction to (mx, my), which for h̄′ in (125°, 360°) is in (−150°, 85°). Computed for
        // every pair and selected (the loop has no branches).
        let rotated = my < 0 || mx < Float(cos125)
        let refX = Float(0.08715574274765817), refY = Float(-0.9961946980917455)  // cos, sin 275°
        let delta = E.atan2(refX * my - refY * mx, refX * mx + refY * my)
        let hd = delta * Float(degrees / 25)
        let dTheta = 30 * E.exp(-(hd * hd))
        let cBarP7 = pow7(cBarP)
        let rc = 2 * root(cBarP7 / (cBarP7 + pow25to7))
        let rt = rotated ? -E.sin(2 * dTheta * Float(radians)) * rc : 0
        sum += rt * cTerm * hTerm
        return (root(sum > 0 ? sum : 0), dL, dA, dB, scalar)
    }
}

/// The layout of the block ``CIEDE2000/floatDifferences(block:count:)`` reads and writes: rows
/// of ``lanes`` `Float`s, one pair per column: eight input rows (``LinearPair``'s fields in
/// order), then ΔE00, ΔL*, Δa*, Δb* and the scalar-path flag (1 or 0).
enum FloatDifferenceBlock {
    /// Pairs per block (columns).
    static let lanes = 64
    /// Output rows.
    static let deltaE = 8, dL = 9, dA = 10, dB = 11, scalar = 12
    /// `Float`s in a block.
    static let floats = 13 * lanes
}
