/// The integer statistics of a run of at most ``maxPixels`` adjacent opaque RGB pixels (16-bit
/// samples, 3 per pixel): what the opaque pixel pass needs apart from CIELAB and ΔE00.
///
/// Every figure is exact in integers, in 16-bit units (a difference d = actual − expected of
/// one sample, 257 units = one 8-bit code). Each is a plain reduction over the pixels with no
/// branch and no table, so the loop vectorizer widens both loops of ``init(expected:actual:count:edges:overThreshold:)``
/// (8 lanes of `Int32` with AVX2).
struct OpaqueSegmentSums {
    /// The most pixels one segment may hold: the bounds below (no overflow) rest on it.
    static let maxPixels = 1024

    /// max |d| of R, G, B.
    var maxR: Int32 = 0, maxG: Int32 = 0, maxB: Int32 = 0
    /// Σ d of R, G, B (|Σ| ≤ 1024 · 65535 < 2³¹).
    var biasR: Int32 = 0, biasG: Int32 = 0, biasB: Int32 = 0
    /// Σ of each pixel's largest |d| (≤ 1024 · 65535 < 2³¹).
    var sumMax: Int32 = 0
    /// Pixels whose largest |d| is above the over-tolerance threshold.
    var over: Int32 = 0
    /// Pixels whose largest |d| is above each of the 8 bucket edges (edge 0 first: the differing pixels).
    var above: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Σ d² of R, G, B (≤ 1024 · 65535² < 2⁶³).
    var squaredR: Int64 = 0, squaredG: Int64 = 0, squaredB: Int64 = 0
    /// Σ (299·dR + 587·dG + 114·dB)²: 10⁶ · 257² times Σ ΔY′² of 8-bit units (≤ 1024 · (1000 · 65535)² ≈ 4.4e18 < 2⁶³).
    var squaredY: Int64 = 0

    /// Reads `count` pixels (≤ ``maxPixels``) from `e` and `a`, each `3 · count` samples.
    /// `edges`: the 8 bucket edges compared (16-bit units, ascending); `overThreshold`: a pixel
    /// counts in ``over`` when its largest |d| exceeds it.
    init(expected e: UnsafePointer<UInt16>, actual a: UnsafePointer<UInt16>, count: Int,
         edges: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32), overThreshold: Int32) {
        precondition(count <= OpaqueSegmentSums.maxPixels, "a segment holds at most \(OpaqueSegmentSums.maxPixels) pixels")
        // Wrapping operators: the bounds above hold for every input, so none wraps, and the
        // loops carry no overflow branch that would stop the vectorizer.
        var mR: Int32 = 0, mG: Int32 = 0, mB: Int32 = 0, bR: Int32 = 0, bG: Int32 = 0, bB: Int32 = 0
        var sMax: Int32 = 0, over: Int32 = 0
        var c0: Int32 = 0, c1: Int32 = 0, c2: Int32 = 0, c3: Int32 = 0, c4: Int32 = 0, c5: Int32 = 0, c6: Int32 = 0, c7: Int32 = 0
        for p in 0..<count {
            let i = p &* 3
            let dr = Int32(a[i]) &- Int32(e[i]), dg = Int32(a[i &+ 1]) &- Int32(e[i &+ 1]), db = Int32(a[i &+ 2]) &- Int32(e[i &+ 2])
            let adr = abs(dr), adg = abs(dg), adb = abs(db)
            mR = max(mR, adr); mG = max(mG, adg); mB = max(mB, adb)
            bR &+= dr; bG &+= dg; bB &+= db
            let m = max(max(adr, adg), adb)
            sMax &+= m
            // m > t ⇔ t − m < 0 (no overflow: 0 ≤ m ≤ 65535, −1 ≤ t): the sign, −1 or 0, is
            // subtracted. A `m > t ? 1 : 0` select is not vectorized.
            over &-= (overThreshold &- m) &>> 31
            c0 &-= (edges.0 &- m) &>> 31; c1 &-= (edges.1 &- m) &>> 31; c2 &-= (edges.2 &- m) &>> 31; c3 &-= (edges.3 &- m) &>> 31
            c4 &-= (edges.4 &- m) &>> 31; c5 &-= (edges.5 &- m) &>> 31; c6 &-= (edges.6 &- m) &>> 31; c7 &-= (edges.7 &- m) &>> 31
        }
        // The squares in a second loop: 64-bit sums, fewer live registers in each loop.
        var sR: Int64 = 0, sG: Int64 = 0, sB: Int64 = 0, sY: Int64 = 0
        for p in 0..<count {
            let i = p &* 3
            let dr = Int32(a[i]) &- Int32(e[i]), dg = Int32(a[i &+ 1]) &- Int32(e[i &+ 1]), db = Int32(a[i &+ 2]) &- Int32(e[i &+ 2])
            let y = Int64(299 &* dr &+ 587 &* dg &+ 114 &* db)
            sR &+= Int64(dr) &* Int64(dr); sG &+= Int64(dg) &* Int64(dg); sB &+= Int64(db) &* Int64(db)
            sY &+= y &* y
        }
        maxR = mR; maxG = mG; maxB = mB
        biasR = bR; biasG = bG; biasB = bB
        sumMax = sMax
        self.over = over
        above = (c0, c1, c2, c3, c4, c5, c6, c7)
        squaredR = sR; squaredG = sG; squaredB = sB; squaredY = sY
    }
}
