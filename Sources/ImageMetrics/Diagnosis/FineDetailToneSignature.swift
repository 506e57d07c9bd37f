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

    /// Measures the signature of two value images of equal size and channel count.
    init(expected e: ValueImage, actual a: ValueImage) {
        let w = e.width, h = e.height, n = e.channels
        let threshold = Int((CandidateCatalog.edgeRange * 65535).rounded(.up))
        var total = 0.0, before = 0.0, after = 0.0, count = 0
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
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
            for p in 0..<(w * h) {
                let i = p * n
                var d2 = 0.0, differs = false
                for c in 0..<n {
                    let d = (Double(as_[i + c]) - Double(es[i + c])) / 65535
                    d2 += d * d
                    if abs(d) > FineDetailToneSignature.minimumChange { differs = true }
                }
                total += d2
                guard differs, n < 4 || (es[i + 3] == 65535 && as_[i + 3] == 65535), flat(p % w, p / w) else { continue }
                count += 1
                for c in 0..<min(n, 3) {
                    let ev = Double(es[i + c]) / 65535, av = Double(as_[i + c]) / 65535
                    let d = av - ev, t = SRGBTransfer.toLinear(ev) - ev
                    before += d * d; after += (d - t) * (d - t)
                }
            }
        }
        }
        pixels = count
        explained = before > 0 ? 1 - after / before : 0
        share = total > 0 ? before / total : 0
    }
}
