import Foundation

/// How SSIMULACRA 2 packs the signals of one pixel into the lanes of a vector for the blur, and
/// how it turns a blurred row into the six map sums of the three channels.
///
/// Two layouts: ``SIMD16`` carries every map (x1, x1 − x2, x1² + x2², (x1 − x2)² per
/// channel, channels X, Y, B in lanes 0…2 of each group of four; lane 3 is 0); ``SIMD8`` leaves
/// out the SSIM' map of X and B, for the scales where both of its weights are 0 in both norms
/// (at 4K: scale 0, 75 % of the pixels), which halves the blur's work there. A map whose
/// weights are all 0 adds exactly 0 to the score, so the choice changes no result.
///
/// After the blur a row is made planar (``transpose(_:count:into:stride:)``) and the maps are
/// computed four pixels per vector (``addMaps(_:stride:count:structure:into:)``), so no lane
/// idles and the four-lane sums stay in registers. The planar rows, `stride` floats apart:
/// 0…2 μ1 of X, Y, B; 3…5 μ1 − μ2; 6…8 G∗(x1² + x2²); 9…11 G∗(x1 − x2)²; 12…14 the original's
/// X, Y, B; 15…17 the distorted image's.
protocol SSIMULACRA2Lanes: SIMD where Scalar == Float {
    /// The channels (0 = X, 1 = Y, 2 = B) whose SSIM' signals the layout carries.
    static var structureChannels: Range<Int> { get }
    /// The signals of one pixel from its XYB values in the original (`a`) and distorted (`v`) image.
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> Self
    /// The signals of `count` pixels (a multiple of 4) from planar XYB rows (X1, Y1, B1, X2, Y2,
    /// B2, `stride` floats apart), four pixels per vector operation: the same values as
    /// ``signals(original:distorted:)`` pixel by pixel.
    static func signals(planar xyb: UnsafePointer<Float>, stride: Int, count: Int, into out: UnsafeMutablePointer<Self>)
    /// Writes the blurred signals of `count` pixels (a multiple of 4) into the planar rows 0…11.
    static func transpose(_ blurred: UnsafePointer<Self>, count: Int, into planes: UnsafeMutablePointer<Float>, stride: Int)
}

extension SSIMULACRA2Lanes {
    /// Adds the maps of one planar row of `count` pixels (a multiple of 4) to `totals`
    /// ([channel][SSIM' L1, SSIM'⁴, artifact, artifact⁴, detail lost, detail lost⁴], each a
    /// four-lane `Double` sum), in chunks of 64 pixels summed in `Float`. `structure`: the
    /// channels whose SSIM' map is computed. Pixels whose planar values are all 0 add exactly 0.
    ///
    /// SSIM' with S = σ11 + σ22 and D = σ11 + σ22 − 2σ12 = G∗(x1 − x2)² − (μ1 − μ2)²: the
    /// reference's 1 − (1 − Δμ²)(2σ12 + C2)/(σ11 + σ22 + C2) is exactly
    /// (Δμ²(S + C2 − D) + D)/(S + C2), clamped at 0. The edge maps: e = (1 + |v − μ2|)/(1 + |a − μ1|) − 1,
    /// artifact = max(e, 0), detail lost = max(−e, 0).
    static func addMaps(_ planes: UnsafePointer<Float>, stride: Int, count: Int, structure: Range<Int>,
                        into totals: UnsafeMutablePointer<SIMD4<Double>>) {
        for c in 0..<3 {
            if structure.contains(c) {
                addChannel(planes, stride: stride, count: count, channel: c, structure: true, into: totals + 6 * c)
            } else {
                addChannel(planes, stride: stride, count: count, channel: c, structure: false, into: totals + 6 * c)
            }
        }
    }

    @inline(__always)
    private static func addChannel(_ planes: UnsafePointer<Float>, stride: Int, count: Int, channel c: Int, structure: Bool,
                                   into totals: UnsafeMutablePointer<SIMD4<Double>>) {
        typealias Q = SIMD4<Float>
        let p = UnsafeRawPointer(planes)
        func row(_ r: Int) -> Int { 4 * (r * stride) }
        let mu1Row = row(c), dmRow = row(3 + c), sqRow = row(6 + c), dsqRow = row(9 + c)
        let aRow = row(12 + c), vRow = row(15 + c)
        let one = Q(repeating: 1), zero = Q(), c2 = Q(repeating: 0.0009)
        let magnitude = SIMD4<UInt32>(repeating: 0x7fff_ffff)
        var x0 = 0
        while x0 < count {
            let x1 = Swift.min(x0 + 64, count)
            var s1 = Q(), s4 = Q(), a1 = Q(), a4 = Q(), d1 = Q(), d4 = Q()
            var x = x0
            while x < x1 {
                let o = 4 * x
                let mu1 = p.loadUnaligned(fromByteOffset: mu1Row + o, as: Q.self)
                let dm = p.loadUnaligned(fromByteOffset: dmRow + o, as: Q.self)
                let mu2 = mu1 - dm
                if structure {
                    let dm2 = dm * dm
                    let sigmaSum: Q = p.loadUnaligned(fromByteOffset: sqRow + o, as: Q.self) - mu1 * mu1 - mu2 * mu2 + c2
                    let dd: Q = p.loadUnaligned(fromByteOffset: dsqRow + o, as: Q.self) - dm2
                    let ratio: Q = (dm2 * (sigmaSum - dd) + dd) / sigmaSum
                    let d = ratio.replacing(with: zero, where: ratio .< zero)
                    let d2 = d * d
                    s1 += d; s4 += d2 * d2
                }
                let a = p.loadUnaligned(fromByteOffset: aRow + o, as: Q.self)
                let v = p.loadUnaligned(fromByteOffset: vRow + o, as: Q.self)
                let t2: Q = v - mu2, t1: Q = a - mu1
                // |t| by clearing the sign bit.
                let distortedEdge = one + unsafeBitCast(unsafeBitCast(t2, to: SIMD4<UInt32>.self) & magnitude, to: Q.self)
                let originalEdge = one + unsafeBitCast(unsafeBitCast(t1, to: SIMD4<UInt32>.self) & magnitude, to: Q.self)
                let e: Q = distortedEdge / originalEdge - one
                let positive = e .> zero
                let artifact = zero.replacing(with: e, where: positive)
                let detail = (zero - e).replacing(with: zero, where: positive)
                let artifact2 = artifact * artifact, detail2 = detail * detail
                a1 += artifact; a4 += artifact2 * artifact2
                d1 += detail; d4 += detail2 * detail2
                x += 4
            }
            totals[0] += SIMD4<Double>(s1); totals[1] += SIMD4<Double>(s4)
            totals[2] += SIMD4<Double>(a1); totals[3] += SIMD4<Double>(a4)
            totals[4] += SIMD4<Double>(d1); totals[5] += SIMD4<Double>(d4)
            x0 = x1
        }
    }

    /// The 4 × 4 transpose of (a, b, c, d): lane i of result k is lane k of the i-th argument.
    @inline(__always)
    static func transposed(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let ab0 = SIMD4(a[0], b[0], a[1], b[1]), cd0 = SIMD4(c[0], d[0], c[1], d[1])
        let ab1 = SIMD4(a[2], b[2], a[3], b[3]), cd1 = SIMD4(c[2], d[2], c[3], d[3])
        return (SIMD4(lowHalf: ab0.lowHalf, highHalf: cd0.lowHalf), SIMD4(lowHalf: ab0.highHalf, highHalf: cd0.highHalf),
                SIMD4(lowHalf: ab1.lowHalf, highHalf: cd1.lowHalf), SIMD4(lowHalf: ab1.highHalf, highHalf: cd1.highHalf))
    }
}

/// Every map: lane 4·signal + channel, signals x1, x1 − x2, x1² + x2², (x1 − x2)².
extension SIMD16: SSIMULACRA2Lanes where Scalar == Float {
    static var structureChannels: Range<Int> { 0..<3 }

    @inline(__always)
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> SIMD16<Float> {
        let d = a - v
        return SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: d), highHalf: SIMD8(lowHalf: a * a + v * v, highHalf: d * d))
    }

    static func signals(planar xyb: UnsafePointer<Float>, stride: Int, count: Int, into out: UnsafeMutablePointer<SIMD16<Float>>) {
        typealias Q = SIMD4<Float>
        let p = UnsafeRawPointer(xyb), zero = Q()
        var x = 0
        while x < count {
            func load(_ r: Int) -> Q { p.loadUnaligned(fromByteOffset: 4 * (r * stride + x), as: Q.self) }
            let a = (load(0), load(1), load(2)), v = (load(3), load(4), load(5))
            let d = (a.0 - v.0, a.1 - v.1, a.2 - v.2)
            let sq = (a.0 * a.0 + v.0 * v.0, a.1 * a.1 + v.1 * v.1, a.2 * a.2 + v.2 * v.2)
            let ta = transposed(a.0, a.1, a.2, zero), td = transposed(d.0, d.1, d.2, zero)
            let ts = transposed(sq.0, sq.1, sq.2, zero)
            let tq = transposed(d.0 * d.0, d.1 * d.1, d.2 * d.2, zero)
            func pixel(_ a: Q, _ d: Q, _ s: Q, _ q: Q) -> SIMD16<Float> {
                SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: d), highHalf: SIMD8(lowHalf: s, highHalf: q))
            }
            out[x] = pixel(ta.0, td.0, ts.0, tq.0)
            out[x + 1] = pixel(ta.1, td.1, ts.1, tq.1)
            out[x + 2] = pixel(ta.2, td.2, ts.2, tq.2)
            out[x + 3] = pixel(ta.3, td.3, ts.3, tq.3)
            x += 4
        }
    }

    static func transpose(_ blurred: UnsafePointer<SIMD16<Float>>, count: Int, into planes: UnsafeMutablePointer<Float>, stride: Int) {
        let out = UnsafeMutableRawPointer(planes)
        var x = 0
        while x < count {
            let p0 = blurred[x], p1 = blurred[x + 1], p2 = blurred[x + 2], p3 = blurred[x + 3]
            func store(_ group: Int, _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>) {
                let t = transposed(a, b, c, d)
                out.storeBytes(of: t.0, toByteOffset: 4 * ((3 * group) * stride + x), as: SIMD4<Float>.self)
                out.storeBytes(of: t.1, toByteOffset: 4 * ((3 * group + 1) * stride + x), as: SIMD4<Float>.self)
                out.storeBytes(of: t.2, toByteOffset: 4 * ((3 * group + 2) * stride + x), as: SIMD4<Float>.self)
            }
            store(0, p0.lowHalf.lowHalf, p1.lowHalf.lowHalf, p2.lowHalf.lowHalf, p3.lowHalf.lowHalf)
            store(1, p0.lowHalf.highHalf, p1.lowHalf.highHalf, p2.lowHalf.highHalf, p3.lowHalf.highHalf)
            store(2, p0.highHalf.lowHalf, p1.highHalf.lowHalf, p2.highHalf.lowHalf, p3.highHalf.lowHalf)
            store(3, p0.highHalf.highHalf, p1.highHalf.highHalf, p2.highHalf.highHalf, p3.highHalf.highHalf)
            x += 4
        }
    }
}

/// Without the SSIM' map of X and B: lanes 0…2 x1 and 4…6 x1 − x2 of X, Y, B; lane 3
/// x1² + x2² and lane 7 (x1 − x2)² of Y.
extension SIMD8: SSIMULACRA2Lanes where Scalar == Float {
    static var structureChannels: Range<Int> { 1..<2 }

    @inline(__always)
    static func signals(original a: SIMD4<Float>, distorted v: SIMD4<Float>) -> SIMD8<Float> {
        let d = a - v
        var low = a, high = d
        low[3] = a[1] * a[1] + v[1] * v[1]
        high[3] = d[1] * d[1]
        return SIMD8(lowHalf: low, highHalf: high)
    }

    static func signals(planar xyb: UnsafePointer<Float>, stride: Int, count: Int, into out: UnsafeMutablePointer<SIMD8<Float>>) {
        typealias Q = SIMD4<Float>
        let p = UnsafeRawPointer(xyb)
        var x = 0
        while x < count {
            func load(_ r: Int) -> Q { p.loadUnaligned(fromByteOffset: 4 * (r * stride + x), as: Q.self) }
            let a = (load(0), load(1), load(2)), v = (load(3), load(4), load(5))
            let d = (a.0 - v.0, a.1 - v.1, a.2 - v.2)
            let low = transposed(a.0, a.1, a.2, a.1 * a.1 + v.1 * v.1)
            let high = transposed(d.0, d.1, d.2, d.1 * d.1)
            out[x] = SIMD8(lowHalf: low.0, highHalf: high.0)
            out[x + 1] = SIMD8(lowHalf: low.1, highHalf: high.1)
            out[x + 2] = SIMD8(lowHalf: low.2, highHalf: high.2)
            out[x + 3] = SIMD8(lowHalf: low.3, highHalf: high.3)
            x += 4
        }
    }

    static func transpose(_ blurred: UnsafePointer<SIMD8<Float>>, count: Int, into planes: UnsafeMutablePointer<Float>, stride: Int) {
        let out = UnsafeMutableRawPointer(planes)
        var x = 0
        while x < count {
            let p0 = blurred[x], p1 = blurred[x + 1], p2 = blurred[x + 2], p3 = blurred[x + 3]
            func store(_ t: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>), rows: (Int, Int, Int, Int)) {
                out.storeBytes(of: t.0, toByteOffset: 4 * (rows.0 * stride + x), as: SIMD4<Float>.self)
                out.storeBytes(of: t.1, toByteOffset: 4 * (rows.1 * stride + x), as: SIMD4<Float>.self)
                out.storeBytes(of: t.2, toByteOffset: 4 * (rows.2 * stride + x), as: SIMD4<Float>.self)
                out.storeBytes(of: t.3, toByteOffset: 4 * (rows.3 * stride + x), as: SIMD4<Float>.self)
            }
            // μ1 of X, Y, B and G∗(x1² + x2²) of Y; then μ1 − μ2 of X, Y, B and G∗(x1 − x2)² of Y.
            store(transposed(p0.lowHalf, p1.lowHalf, p2.lowHalf, p3.lowHalf), rows: (0, 1, 2, 7))
            store(transposed(p0.highHalf, p1.highHalf, p2.highHalf, p3.highHalf), rows: (3, 4, 5, 10))
            x += 4
        }
    }
}
