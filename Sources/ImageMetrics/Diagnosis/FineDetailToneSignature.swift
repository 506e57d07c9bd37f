import ImageCore

/// The signature of averaging in gamma-encoded sRGB where linear light was expected (B11), for
/// the case ``CandidateCatalog/lightSpace`` cannot see: detail finer than a pixel. A filter
/// that averages full-contrast sub-pixel detail (a 1-pixel black/white checker, hatching)
/// leaves a *flat* area; in linear light its value is the share `p` of white, encoded
/// `e = fromLinear(p)` (linear ½ = sRGB 188); averaging the encoded values gives `p` itself,
/// i.e. `toLinear(e)` as the encoded result (188 → 128). The expected image shows no edge
/// there, so no edge-based prediction applies; but the tone change is exact.
///
/// Read at the pixels where the expected image is flat (3×3 range below
/// ``CandidateCatalog/edgeRange`` in every colour channel), both images opaque, and the actual
/// pixel differs: `explained = 1 − Σ(d − t)² / Σd²` with `d = actual − expected` and
/// `t = toLinear(expected) − expected` per colour channel (0…1). A flat area that was flat in
/// the source too is the same under either averaging, so unchanged flat pixels are not read
/// (the expected image cannot tell which flat area had detail). It names the bug when those
/// pixels carry at least ``minimumShare`` of the whole squared difference (every channel,
/// every pixel), the tone change explains at least ``minimumExplained`` of it there, and there
/// are at least ``minimumPixels`` of them. Noise, lossy re-encoding and rounding are
/// uncorrelated with `t` (explained ≤ 0); a uniform gain (a bit-depth shift) moves 188 to
/// 177 or 94, not to 128.
struct FineDetailToneSignature: Sendable, Hashable {
    /// Flat, opaque, changed pixels read.
    var pixels: Int
    /// Share of the squared difference the tone change explains at those pixels (≤ 1).
    var explained: Double
    /// Share of the whole squared difference that lies at those pixels (0…1).
    var share: Double

    /// Smallest change of a channel (0…1) for a pixel to count as changed: 2 code values, more
    /// than the rounding of two resizers that agree (a flat area left alone must not be read).
    static let minimumChange = 2.0 / 255
    /// Smallest number of flat changed pixels.
    static let minimumPixels = 16
    /// Smallest share of the whole difference on flat changed pixels.
    static let minimumShare = 0.5
    /// Smallest explained share there.
    static let minimumExplained = 0.8

    /// Whether the signature names sRGB averaging.
    var names: Bool {
        pixels >= FineDetailToneSignature.minimumPixels && share >= FineDetailToneSignature.minimumShare
            && explained >= FineDetailToneSignature.minimumExplained
    }

    /// Whether the signature can name the bug at all, from the sums of one pass without the
    /// flatness test (``DifferenceScan`` adds them up beside the difference samples): `total`
    /// = Σ Δ² over every channel of every pixel and `aligned` = B_G below, both in squared
    /// 16-bit codes. When this is false, ``names`` is certainly false, so the diagnosis skips the
    /// full measurement (``init(expected:actual:)``).
    ///
    /// Proof. Let C be the changed pixels opaque in both images, F ⊆ C the flat ones the
    /// signature reads, and per pixel b = Σd², r = Σ(d − t)² (colour channels). Let G = {p ∈ C :
    /// r ≤ b} and B_G = Σ_G b. Naming needs explained ≥ 0.8, i.e. Σ_F r ≤ 0.2·Σ_F b, and
    /// share ≥ 0.5, i.e. Σ_F b ≥ 0.5·total. Off G, b ≤ r (a tie r = b may fall on either side),
    /// so Σ_{F∖G} b ≤ Σ_F r ≤ 0.2·Σ_F b; hence Σ_F b ≤ B_G + 0.2·Σ_F b, Σ_F b ≤ 1.25·B_G, and
    /// naming needs B_G ≥ 0.4·total. The screen asks B_G ≥ 0.39·total, a margin for rounding:
    /// B_G is summed exactly (integer Δ²); membership of G is decided by ``tonePrefilter`` and
    /// then ``toneFits(_:_:_:_:_:_:tone:)`` in `Float`, whose rounding (a few units in 2⁻²⁴ of
    /// the terms) can put only a pixel with |r − b| below 10⁻⁵·b on the wrong side (at a tie
    /// |d| ≈ |t| / 2, so the terms are of the size of b), which changes the inequality
    /// Σ_{F∖G} b ≤ Σ_F r by less than 10⁻⁵ of the total.
    static func mayName(total: Double, aligned: Double) -> Bool {
        aligned >= 0.39 * total
    }

    /// Whether the tone change fits a pixel at least as well as no change (r ≤ b): with
    /// d = Δ / 65535 (Δ the 16-bit difference actual − expected) and t the tone change of the
    /// expected code, r − b = Σ(t² − 2td) = (Σ 65535·t² − 2·Σ t·Δ) / 65535, so r ≤ b exactly when
    /// Σ 65535·t² ≤ 2·Σ t·Δ, evaluated in `Float` from ``toneOf16`` (e₀…e₂ the expected codes,
    /// d₀…d₂ the differences of the colour channels, exact in `Float`).
    @inline(__always)
    static func toneFits(_ e0: Int, _ e1: Int, _ e2: Int, _ d0: Int, _ d1: Int, _ d2: Int,
                         tone: UnsafeBufferPointer<SIMD2<Float>>) -> Bool {
        let t0 = tone[e0], t1 = tone[e1], t2 = tone[e2]
        let along = t0.x * Float(Int32(truncatingIfNeeded: d0)) + t1.x * Float(Int32(truncatingIfNeeded: d1))
            + t2.x * Float(Int32(truncatingIfNeeded: d2))
        return t0.y + t1.y + t2.y <= 2 * along
    }

    /// Per 16-bit code e: the tone change t = toLinear(e) − e (0…1 units, from the 16-bit table
    /// of toLinear) and 65535·t², rounded to `Float`.
    static let toneOf16: [SIMD2<Float>] = PixelStatistics.linearOf16.enumerated().map { code, linear in
        let t = linear - Double(code) / 65535
        return SIMD2(Float(t), Float(65535 * t * t))
    }

    /// Per 16-bit code e: θ = ⌊32767.5·|t|⌋, the integer prefilter of ``toneFits(_:_:_:_:_:_:tone:)``.
    /// Each channel's term of r − b is 65535·t² − 2tΔ = |t|·(65535·|t| + 2Δ) (t ≤ 0), negative
    /// only where Δ < −32767.5·|t| ≤ −θ. So a pixel none of whose channels has Δ + θ < 0 has
    /// r − b ≥ 0: not in G, or a tie, which may fall either way (``mayName(total:aligned:)``).
    /// Only pixels near black or white in some channel (where |t| is small) pass when the
    /// difference is small, so the `Float` test runs on few pixels.
    static let tonePrefilter: [Int32] = PixelStatistics.linearOf16.enumerated().map { code, linear in
        Int32((32767.5 * abs(linear - Double(code) / 65535)).rounded(.down))
    }

    /// The smallest |Δ| in 16-bit codes that passes the changed test `|Δ / 65535| >`
    /// ``minimumChange`` in `Double` (the quotient is correctly rounded, so the test is monotone
    /// in |Δ| and a pixel changed exactly when its largest |Δ| reaches this).
    static let changedCodes: Int = {
        var k = 0
        while Double(k) / 65535 <= minimumChange { k += 1 }
        return k
    }()

    /// Measures the signature of two value images of equal size and channel count.
    ///
    /// Speed (not behaviour): fixed row bands on every core, reduced in band order (the same
    /// result with any number of cores); a pixel's changed test is an integer test first
    /// (``changedCodes``, the same test as `|Δ/65535| > minimumChange` in `Double`); the whole
    /// difference Σd² is summed exactly in integers (`Int`: at most 4·2²⁸ terms of < 2³², below
    /// 2⁶³); toLinear is read from the 16-bit table (the same values as the function).
    init(expected e: ValueImage, actual a: ValueImage) {
        let w = e.width, h = e.height, n = e.channels
        let threshold = Int((CandidateCatalog.edgeRange * 65535).rounded(.up))
        let firm = FineDetailToneSignature.changedCodes
        struct Part: Sendable { var total = 0, before = 0.0, after = 0.0, count = 0 }
        let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
        let parts = Parallel.map(bands.count) { b -> Part in
            var part = Part()
            e.withSamples { es in
            a.withSamples { as_ in
            PixelStatistics.linearOf16.withUnsafeBufferPointer { toLinear in
                func flat(_ x: Int, _ y: Int) -> Bool {
                    for c in 0..<min(n, 3) {
                        var lo = Int.max, hi = Int.min
                        for yy in max(y - 1, 0)...min(y + 1, h - 1) {
                            for xx in max(x - 1, 0)...min(x + 1, w - 1) {
                                let v = Int(es[(yy * w + xx) * n + c])
                                lo = min(lo, v); hi = max(hi, v)
                            }
                        }
                        if hi - lo >= threshold { return false }
                    }
                    return true
                }
                for y in bands[b] {
                    for x in 0..<w {
                        let i = (y * w + x) * n
                        var largest = 0
                        for c in 0..<n {
                            let d = Int(as_[i + c]) - Int(es[i + c])
                            part.total += d * d
                            largest = max(largest, abs(d))
                        }
                        guard largest >= firm, n < 4 || (es[i + 3] == 65535 && as_[i + 3] == 65535), flat(x, y) else { continue }
                        part.count += 1
                        for c in 0..<min(n, 3) {
                            let ev = Double(es[i + c]) / 65535, av = Double(as_[i + c]) / 65535
                            let d = av - ev, t = toLinear[Int(es[i + c])] - ev
                            part.before += d * d; part.after += (d - t) * (d - t)
                        }
                    }
                }
            }
            }
            }
            return part
        }
        var total = 0.0, before = 0.0, after = 0.0, count = 0
        for part in parts {
            total += Double(part.total)
            before += part.before; after += part.after; count += part.count
        }
        total /= 65535 * 65535
        pixels = count
        explained = before > 0 ? 1 - after / before : 0
        share = total > 0 ? before / total : 0
    }
}
