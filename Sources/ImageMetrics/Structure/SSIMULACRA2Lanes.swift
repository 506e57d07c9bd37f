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
/// After the blur a row is made planar (``transpose(_:count:into:stride:)``) for
/// ``SSIMULACRA2Maps``, whose plain loops compute the maps a full register of pixels at a time.
/// The planar rows, `stride` floats apart: 0…2 μ1 of X, Y, B; 3…5 μ1 − μ2; 6…8 G∗(x1² + x2²);
/// 9…11 G∗(x1 − x2)².
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
