/// One pass over two images of equal size and channel count that gathers what the diagnosis
/// needs from every pixel: which pixels differ (a bit per pixel), from which it draws its
/// deterministic sample (``samples()``), and the sums of the ``FineDetailToneSignature``
/// screen (``fineDetailToneMayName``).
///
/// The pass runs in fixed row bands on every core; the counts are exact integers and the
/// screen's sums are reduced in band order, so the result does not depend on the number of
/// cores. Drawing the sample then reads only the bits (an eighth of a byte per pixel), in pixel
/// order, skipping whole 64-pixel words that hold no drawn pixel.
struct DifferenceScan: Sendable {
    /// Image width in pixels.
    let width: Int
    /// Number of pixels.
    let pixels: Int
    /// Number of pixels that differ in any channel.
    let differing: Int
    /// Whether ``FineDetailToneSignature`` can name sRGB averaging at all
    /// (``FineDetailToneSignature/mayName(total:aligned:)``).
    let fineDetailToneMayName: Bool
    /// Per row band: its first pixel, its number of pixels, and a bit per pixel (bit j of word k
    /// is pixel `first + 64k + j`), set where the pixel differs.
    private let bands: [(first: Int, pixels: Int, words: [UInt64])]

    /// What one band's pass gathers.
    private struct BandPart: Sendable {
        var differing = 0
        /// Σ Δ² over every channel, in 16-bit codes (exact: at most 4·2²⁸ terms below 2³², < 2⁶³).
        var total = 0
        /// The screen's B_G: Σ Δ² of the colour channels of the pixels in G (exact, as `total`).
        var aligned = 0
        var words: [UInt64] = []
    }

    /// Scans `e` and `a` (equal size and channel count).
    init(expected e: ValueImage, actual a: ValueImage) {
        let n = e.channels, w = e.width
        let rows = Parallel.bands(rows: e.height, rowsPerBand: max(64, e.height / 16))
        let parts = Parallel.map(rows.count) { b -> BandPart in
            e.withSamples { es in
                a.withSamples { as_ in
                    FineDetailToneSignature.toneOf16.withUnsafeBufferPointer { tone in
                        FineDetailToneSignature.tonePrefilter.withUnsafeBufferPointer { prefilter in
                            let range = (rows[b].lowerBound * w)..<(rows[b].upperBound * w)
                            return n == 3 ? Self.scan(es, as_, pixels: range, channels: 3, tone: tone, prefilter: prefilter)
                                : Self.scan(es, as_, pixels: range, channels: 4, tone: tone, prefilter: prefilter)
                        }
                    }
                }
            }
        }
        var differing = 0, total = 0, aligned = 0
        for part in parts {
            differing += part.differing
            total += part.total; aligned += part.aligned
        }
        width = w
        pixels = w * e.height
        self.differing = differing
        fineDetailToneMayName = FineDetailToneSignature.mayName(total: Double(total), aligned: Double(aligned))
        bands = zip(rows, parts).map { (first: $0.lowerBound * w, pixels: $0.count * w, words: $1.words) }
    }

    /// One band's pass, with `channels` a constant at each call, 64 pixels (a word of bits) at a
    /// time. A branch-free integer loop sets the difference bits, sums Δ², and lists the pixels
    /// that may add to B_G: changed (some |Δ| ≥ ``FineDetailToneSignature/changedCodes``, i.e.
    /// Δ² ≥ its square), opaque in both images (with alpha), and through the tone test's
    /// integer prefilter (``FineDetailToneSignature/tonePrefilter``); the tone test proper runs
    /// on the listed pixels only. The integer sums cannot overflow (see ``BandPart``), so they
    /// wrap without checks.
    @inline(__always)
    private static func scan(_ es: SampleView, _ as_: SampleView, pixels: Range<Int>,
                             channels n: Int, tone: UnsafeBufferPointer<SIMD2<Float>>,
                             prefilter: UnsafeBufferPointer<Int32>) -> BandPart {
        var part = BandPart()
        var words = [UInt64](repeating: 0, count: (pixels.count + 63) / 64)
        let belowFirm = FineDetailToneSignature.changedCodes * FineDetailToneSignature.changedCodes - 1
        var total = 0, aligned = 0
        var listed = [Int](repeating: 0, count: 64)
        words.withUnsafeMutableBufferPointer { words in
        listed.withUnsafeMutableBufferPointer { listed in
            for k in 0..<words.count {
                let first = (pixels.lowerBound + 64 * k) * n, count = min(64, pixels.count - 64 * k)
                var word: UInt64 = 0, m = 0
                // The chunk as 16-bit samples (an 8-bit image's codes widened into a stack buffer).
                es.withSixteenBit(from: first, count: count * n) { chunkE in
                as_.withSixteenBit(from: first, count: count * n) { chunkA in
                var pe = chunkE, pa = chunkA
                for j in 0..<count {
                    let e0 = Int(pe[0]), e1 = Int(pe[1]), e2 = Int(pe[2])
                    let d0 = Int(pa[0]) &- e0, d1 = Int(pa[1]) &- e1, d2 = Int(pa[2]) &- e2
                    let s0 = d0 &* d0, s1 = d1 &* d1, s2 = d2 &* d2
                    var squared = s0 &+ s1 &+ s2
                    // Negative where some channel changed by at least the firm amount, …
                    var counted = (belowFirm &- s0) | (belowFirm &- s1) | (belowFirm &- s2)
                    if n == 4 {
                        let d3 = Int(pa[3]) &- Int(pe[3]), s3 = d3 &* d3
                        squared &+= s3
                        counted |= belowFirm &- s3
                        counted &= pe[3] == 65535 && pa[3] == 65535 ? -1 : 0
                    }
                    // … and where some channel passes the prefilter.
                    counted &= (d0 &+ Int(prefilter[e0])) | (d1 &+ Int(prefilter[e1])) | (d2 &+ Int(prefilter[e2]))
                    total &+= squared
                    word |= UInt64(squared != 0 ? 1 : 0) &<< UInt64(j)
                    listed[m] = j
                    m &+= Int(UInt64(bitPattern: Int64(counted)) >> 63)
                    pe += n; pa += n
                }
                }
                }
                words[k] = word
                for l in 0..<m {
                    let p = first + listed[l] * n
                    let e0 = Int(es[p]), e1 = Int(es[p + 1]), e2 = Int(es[p + 2])
                    let d0 = Int(as_[p]) - e0, d1 = Int(as_[p + 1]) - e1, d2 = Int(as_[p + 2]) - e2
                    if FineDetailToneSignature.toneFits(e0, e1, e2, d0, d1, d2, tone: tone) { aligned += d0 * d0 + d1 * d1 + d2 * d2 }
                }
            }
        }
        }
        part.differing = words.reduce(0) { $0 + $1.nonzeroBitCount }
        part.total = total
        part.aligned = aligned
        part.words = words
        return part
    }

    /// Differing and unchanged pixels, each kind at a stride keeping at most
    /// ``Diagnoser/sampleBudget`` (the i-th pixel of a kind, counted in pixel order from 0, is
    /// drawn when i is a multiple of its stride, weighted by the stride), in pixel order;
    /// empty when no pixel differs.
    func samples() -> [Diagnoser.Sample] {
        let budget = Diagnoser.sampleBudget
        let unchanged = pixels - differing
        guard differing > 0 else { return [] }
        let strideD = max(1, (differing + budget - 1) / budget)
        let strideU = max(1, (unchanged + budget - 1) / budget)
        var out: [Diagnoser.Sample] = []
        out.reserveCapacity(min(differing, budget) + min(unchanged, budget))
        // Rank (within its kind) of the next pixel of each kind to draw, and of the first
        // pixel of each kind in the current word.
        var nextD = 0, nextU = 0, seenD = 0, seenU = 0
        for band in bands {
            for (k, bits) in band.words.enumerated() {
                let valid = min(64, band.pixels - 64 * k)
                let mask: UInt64 = valid == 64 ? ~0 : (1 << UInt64(valid)) - 1
                let changedBits = bits, sameBits = ~bits & mask
                let countD = changedBits.nonzeroBitCount, countU = valid - countD
                var drawnD: UInt64 = 0, drawnU: UInt64 = 0
                if nextD < seenD + countD { drawnD = Self.draw(changedBits, from: seenD, next: &nextD, stride: strideD) }
                if nextU < seenU + countU { drawnU = Self.draw(sameBits, from: seenU, next: &nextU, stride: strideU) }
                seenD += countD; seenU += countU
                var drawn = drawnD | drawnU
                while drawn != 0 {
                    let j = drawn.trailingZeroBitCount
                    let p = band.first + 64 * k + j
                    let weight = (drawnD >> UInt64(j)) & 1 == 1 ? strideD : strideU
                    out.append(Diagnoser.Sample(x: p % width, y: p / width, weight: Double(weight)))
                    drawn &= drawn - 1
                }
            }
        }
        return out
    }

    /// The bits of `bits` to draw: its set bits have ranks `first`, `first + 1`, … in pixel
    /// order; those whose rank is `next`, `next + stride`, … are drawn, and `next` moves past them.
    private static func draw(_ bits: UInt64, from first: Int, next: inout Int, stride: Int) -> UInt64 {
        var drawn: UInt64 = 0, rest = bits, rank = first
        while rest != 0 {
            let lowest = rest & (~rest &+ 1)
            if rank == next { drawn |= lowest; next += stride }
            rest &= rest - 1
            rank += 1
        }
        return drawn
    }
}
