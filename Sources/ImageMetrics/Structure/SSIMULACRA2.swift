import Foundation
import ImageCore

/// SSIMULACRA 2.1 (Jon Sneyers, Cloudinary), written from `Tests/Fixtures/reference/ssimulacra2.md`,
/// which transcribes the reference cloudinary/ssimulacra2 at commit 81feacf:
///
/// 1. Alpha: if the *expected* image has an alpha channel the score is computed over grey
///    0.1 and over grey 0.9 and the minimum is returned, else over 0.5; each image with alpha
///    is blended in the gamma-encoded domain, `c' = a·c + (1 − a)·bg`.
/// 2. sRGB → linear; up to 6 scales, each a 2×2 box average in linear light of the previous
///    one (the size test looks at the previous scale, so the last scale may be under 8 px).
/// 3. Linear RGB → XYB (opsin absorbance, cube root, bias) → "positive XYB"
///    (X' = 14X + 0.42, Y' = Y + 0.01, B' = B − Y + 0.55).
/// 4. Blur: the Charalampidis (2016) recursive Gaussian, σ = 1.5, zero outside the image
///    (libjxl `FastGaussian`), horizontally then vertically.
/// 5. Per scale and channel: the SSIM' map (`C2 = 0.0009`, no luminance denominator) and the
///    artifact / detail-lost edge maps, each as a mean (L1) and a 4-norm (L4).
/// 6. A weighted sum with the reference's 108 weights (running index, see the note), then
///    `100 − 10·x^0.6276…` after the cubic remapping.
///
/// Precision: planes, colour conversions, recursions and maps are `Float` like the reference's
/// (its planes and blur are `float`); each column's sums go into `Double` every 64 rows. The SSIM' map is
/// computed from blurred *differences* (see ``tileStats(rows:columns:width:height:_:_:half:lanes:)``), which is the
/// same formula without the cancellation of large `Float` moments. The reference's float32 noise
/// floor cannot be reproduced exactly: its README allows 0.05 on colourful pairs and 1.0 on
/// grayscale or near-lossless pairs. Unit: score, 100 = identical, can go below 0.
/// `nil` for images smaller than 8×8 (the reference refuses them).
enum SSIMULACRA2 {
    /// Definition version.
    static let version = "ssimulacra2.1-cloudinary-81feacf/1"

    /// One image's displayed pixels with whether the file has an alpha channel.
    struct Input: Sendable {
        var image: ValueImage
        var hasAlpha: Bool
    }

    /// The score of `distorted` against `original`, or `nil` when smaller than 8×8.
    static func score(original: Input, distorted: Input) -> Double? {
        let w = original.image.width, h = original.image.height
        guard w >= 8, h >= 8, distorted.image.width == w, distorted.image.height == h else { return nil }
        let backgrounds: [Double] = original.hasAlpha ? [0.1, 0.9] : [0.5]
        var worst = Double.infinity
        for bg in backgrounds {
            worst = min(worst, score(original, distorted, background: bg))
        }
        return worst
    }

    /// Linear-light value of every 16-bit sample (the sRGB EOTF of `v / 65535`).
    static let linearOf16: [Double] = (0...65535).map { Double(SRGBTransfer.toLinear(Double($0) / 65535)) }

    /// Linear RGB planes of one scale (planar, stored as `Float` like the reference's planes).
    struct LinearPlanes: Sendable {
        var width: Int, height: Int
        /// The R, G and B planes one after the other, `width × height` values each.
        var values: [Float]

        /// Planes whose values are left to be written (every one of them, before any is read):
        /// no separate pass clears the memory.
        static func unwritten(width: Int, height: Int) -> LinearPlanes {
            let count = 3 * width * height
            return LinearPlanes(width: width, height: height,
                                values: [Float](unsafeUninitializedCapacity: count) { _, written in written = count })
        }
    }

    static func score(_ o: Input, _ d: Input, background bg: Double) -> Double {
        var w = o.image.width, h = o.image.height
        // Scale 0 is read row by row from the value images; later scales are materialised.
        var planes: (LinearPlanes, LinearPlanes)? = nil
        var scaleOne: (LinearPlanes, LinearPlanes)? = nil
        var stats: [[ScaleStats]] = [[], [], []]  // [channel][scale]
        // The number of scales, known before computing them (the weights' running index depends on it).
        var scales = 0
        var (lastW, lastH) = (w, h)
        for scale in 0..<6 {
            if lastW < 8 || lastH < 8 { break }
            if scale > 0 { (lastW, lastH) = ((lastW + 1) / 2, (lastH + 1) / 2) }
            scales += 1
        }
        var prevW = w, prevH = h
        for scale in 0..<6 {
            if prevW < 8 || prevH < 8 { break }
            if scale > 0 {
                if let p = planes {
                    planes = (downsample(p.0), downsample(p.1))
                } else {
                    planes = scaleOne
                }
                w = planes?.0.width ?? w
                h = planes?.0.height ?? h
            }
            prevW = w; prevH = h
            let current = planes
            let (sw, sh) = (w, h)
            let rows1: RowReader, rows2: RowReader
            if let current {
                rows1 = planarReader(current.0); rows2 = planarReader(current.1)
            } else {
                rows1 = valueReader(o, background: bg); rows2 = valueReader(d, background: bg)
            }
            // Fixed tiles of rows × columns (independent of the core count), each with a warm-up.
            let bands = Parallel.bands(rows: sh, rowsPerBand: 256)
            let strips = Parallel.bands(rows: sw, rowsPerBand: 256)
            // The 8-lane layout where the SSIM' maps of X and B weigh nothing at this scale.
            // (Weight index = 6·scales·channel + 6·scale + 3·norm + map; the SSIM' map is map 0.)
            let xIndex = 6 * scale, bIndex = 12 * scales + 6 * scale
            let compact = [xIndex, xIndex + 3, bIndex, bIndex + 3].allSatisfy { weights[$0] == 0 }
            let tiles = { (half: HalfScale?) -> [[ScaleStats]] in
                Parallel.map(bands.count * strips.count) { job in
                    let rows = bands[job / strips.count], columns = strips[job % strips.count]
                    return compact
                        ? tileStats(rows: rows, columns: columns, width: sw, height: sh, rows1, rows2, half: half, lanes: SIMD8<Float>.self)
                        : tileStats(rows: rows, columns: columns, width: sw, height: sh, rows1, rows2, half: half, lanes: SIMD16<Float>.self)
                }
            }
            let parts: [[ScaleStats]]
            if scale == 0 {
                // Scale 0 writes scale 1 as it goes (scale 1 always follows: the size test looks at the previous scale).
                let ow = (sw + 1) / 2, oh = (sh + 1) / 2, plane = ow * oh
                var one = LinearPlanes.unwritten(width: ow, height: oh), two = LinearPlanes.unwritten(width: ow, height: oh)
                parts = one.values.withUnsafeMutableBufferPointer { a in
                    two.values.withUnsafeMutableBufferPointer { b in
                        guard let pa = a.baseAddress, let pb = b.baseAddress else { return tiles(nil) }
                        let outputs = [pa, pa + plane, pa + 2 * plane, pb, pb + plane, pb + 2 * plane].map { BandOutput(base: $0) }
                        return tiles(HalfScale(planes: outputs, width: ow))
                    }
                }
                scaleOne = (one, two)
            } else {
                parts = tiles(nil)
            }
            for c in 0..<3 {
                var total = ScaleStats()
                for part in parts { total.add(part[c]) }
                total.pixels = Double(sw * sh)
                stats[c].append(total)
            }
        }
        return finalScore(stats)
    }

    /// `read(y, x0, count, r, g, b)` fills `count` linear R, G, B values (`Float`) of row y from column x0.
    typealias RowReader = @Sendable (Int, Int, Int, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void

    /// `Float` copy of ``linearOf16`` (the reference's planes are `float`).
    static let linearFloatOf16: [Float] = linearOf16.map(Float.init)

    /// Reads linear rows from a value image: the sRGB EOTF from ``linearFloatOf16``, or, for a
    /// translucent pixel of an image with alpha, blended over `bg` in the gamma-encoded domain.
    ///
    /// The row's samples are first copied as they are into a stack buffer, then looked up from
    /// there. Tiles read 256-column segments of rows ~23 KB apart (at 4K), which the hardware
    /// prefetcher barely follows; in the lookup loop each miss stalls the lookups behind it,
    /// while the plain copy has no load waiting on another, so the CPU keeps all of the
    /// segment's misses in flight at once.
    static func valueReader(_ input: Input, background bg: Double) -> RowReader {
        let image = input.image, blend = input.hasAlpha && image.channels == 4
        let lut = linearFloatOf16
        return { y, x0, count, r, g, b in
            let n = image.channels, w = image.width
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count * n) { staged in
                image.withSamples { samples in
                    guard let copy = staged.baseAddress else { return }
                    samples.copy(from: (y * w + x0) * n, count: count * n, into: copy)
                }
                let s = UnsafeBufferPointer(staged)
                lut.withUnsafeBufferPointer { lin in
                    var i = 0
                    if !blend {
                        // Opaque (or alpha ignored): three lookups per pixel, no tests.
                        for x in 0..<count {
                            r[x] = lin[Int(s[i])]; g[x] = lin[Int(s[i + 1])]; b[x] = lin[Int(s[i + 2])]
                            i += n
                        }
                        return
                    }
                    for x in 0..<count {
                        if blend && s[i + 3] != 65535 {
                            let a = Double(s[i + 3]) / 65535
                            func comp(_ v: UInt16) -> Float {
                                let c = a * (Double(v) / 65535) + (1 - a) * bg
                                return Float(SRGBTransfer.toLinear(Double(c)))
                            }
                            r[x] = comp(s[i]); g[x] = comp(s[i + 1]); b[x] = comp(s[i + 2])
                        } else {
                            r[x] = lin[Int(s[i])]; g[x] = lin[Int(s[i + 1])]; b[x] = lin[Int(s[i + 2])]
                        }
                        i += n
                    }
                }
            }
        }
    }

    static func planarReader(_ p: LinearPlanes) -> RowReader {
        { y, x0, count, r, g, b in
            let o = y * p.width + x0, plane = p.width * p.height
            p.values.withUnsafeBufferPointer { v in
                guard let base = v.baseAddress else { return }
                r.update(from: base + o, count: count)
                g.update(from: base + plane + o, count: count)
                b.update(from: base + 2 * plane + o, count: count)
            }
        }
    }

    /// `downsample2`: 2×2 box average in linear RGB, output ⌈w/2⌉ × ⌈h/2⌉, source coordinates
    /// clamped to the last row/column. (Scale 1 comes from the scale-0 pass: ``HalfScale``.)
    static func downsample(_ p: LinearPlanes) -> LinearPlanes {
        let w = p.width, h = p.height, ow = (w + 1) / 2, oh = (h + 1) / 2
        var out = LinearPlanes.unwritten(width: ow, height: oh)
        let src = p.values
        out.values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let output = BandOutput(base: base)
            _ = Parallel.map(3) { c -> Bool in
                src.withUnsafeBufferPointer { s in
                    guard let first = s.baseAddress else { return }
                    let plane = first + c * w * h
                    let dst = output.base + c * ow * oh
                    for oy in 0..<oh {
                        let top = plane + 2 * oy * w, bottom = plane + min(2 * oy + 1, h - 1) * w
                        let row = dst + oy * ow
                        // Blocks inside the row as one plain loop (vectorized), the clamped last column apart.
                        for ox in 0..<w / 2 {
                            let x0 = 2 &* ox, x1 = x0 &+ 1
                            row[ox] = (top[x0] + top[x1] + bottom[x0] + bottom[x1]) * 0.25
                        }
                        for ox in w / 2..<ow {
                            let x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1)
                            row[ox] = (top[x0] + top[x1] + bottom[x0] + bottom[x1]) * 0.25
                        }
                    }
                }
                return true
            }
        }
        return out
    }

    /// Opsin absorbance matrix rows and bias (libjxl `opsin_params.h`).
    static let m: [Double] = [0.30, 0.622, 0.078,
                             0.23, 0.692, 0.078,
                             0.24342268924547819, 0.20476744424496821, 0.55180986650955360]
    static let bias: Double = 0.0037930732552754493
    static let cbrtBias: Double = Double(Foundation.cbrt(Double(0.0037930732552754493 as Double)))

    /// L1 and L4 inputs of the three maps of one channel at one scale.
    struct ScaleStats: Sendable {
        var pixels = 0.0
        var ssim1 = 0.0, ssim4 = 0.0, artifact1 = 0.0, artifact4 = 0.0, detail1 = 0.0, detail4 = 0.0

        mutating func add(_ o: ScaleStats) {
            ssim1 += o.ssim1; ssim4 += o.ssim4; artifact1 += o.artifact1; artifact4 += o.artifact4
            detail1 += o.detail1; detail4 += o.detail4
        }
    }

    /// Where the scale-0 pass writes scale 1 (``downsample(_:)``'s 2×2 box average in linear
    /// light, read from the value images while scale 0 reads them anyway): the linear R, G, B
    /// planes of the original then the distorted image, ⌈w/2⌉ wide. Output row oy is written
    /// by the tile whose rows hold 2·oy, column ox by the tile whose columns hold 2·ox, so every
    /// value is written exactly once, by the same arithmetic as ``downsample(_:)``.
    struct HalfScale: Sendable {
        var planes: [BandOutput<Float>]
        var width: Int
    }

    /// Streams the tile `rows` × `columns` of all three channels through the blur and the maps.
    ///
    /// The vertical recursion runs row by row with a per-column state, reading horizontally
    /// blurred rows from a 12-row ring, two rows per pass over the state. A tile that does not start at row 0 starts its
    /// recursion 2N rows early from a zero state, counting only inputs from N − 1 rows later:
    /// each of the three recursions is a finite filter (its impulse is cancelled exactly 2N steps
    /// after it enters), so from the tile's first row on the values equal those of one pass
    /// over the whole image, up to rounding. Horizontally the same holds: each row segment is
    /// blurred from the tile's columns widened by N + 1 / N − 1
    /// (``RecursiveGaussian/blur(lanes:samples:outputs:into:)``). Tiles of 256 columns keep the
    /// per-column state, the ring and the XYB rows (~0.4 MB) in L2 instead of streaming a 4K
    /// row's 4 MB through L3 at every row. Tiles are fixed, so results do not depend on cores.
    ///
    /// Everything is `Float`, like the reference's planes and blur, with each column's sums over
    /// chunks of 64 rows added into `Double`. The signals ride in the lanes of one vector per pixel
    /// (``SSIMULACRA2Lanes``: x1, x1 − x2, x1² + x2² and (x1 − x2)² of each channel, or fewer
    /// where a map weighs nothing), so one recursion blurs all of them; the blurred row is then
    /// turned planar (``SSIMULACRA2Lanes/transpose(_:count:into:stride:)``) and the maps are
    /// computed and summed per column by plain loops (``SSIMULACRA2Maps``).
    /// The reference's σ11 + σ22 − 2σ12 is
    /// then `G∗(x1 − x2)² − (μ1 − μ2)²`, a difference of small numbers, instead of a difference
    /// of moments near 0.2, whose `Float` cancellation would move a 4K near-lossless score by
    /// 1–2 points; the remaining cancellation, σ11 + σ22 = G∗(x1² + x2²) − μ1² − μ2², is the
    /// reference's own and errs by ~1e-7 against its C2 = 9e-4 (plus the recursion's ~2e-5 at
    /// the end of a 4K row: ``RecursiveGaussian/blur(lanes:into:count:)``).
    ///
    /// With `half` (scale 0 only), the tile also writes its share of scale 1 from the linear rows it reads.
    static func tileStats<Lanes: SSIMULACRA2Lanes>(rows: Range<Int>, columns: Range<Int>, width: Int, height h: Int,
                                                   _ rows1: RowReader, _ rows2: RowReader, half: HalfScale?,
                                                   lanes: Lanes.Type) -> [ScaleStats] {
        typealias Q = SIMD4<Float>
        let g = RecursiveGaussian.sigma15
        let n = g.radius
        // The vertical window of 2N + 1 rows, plus the row a two-step pass reads ahead.
        let ringSize = 2 * n + 2
        let start = rows.lowerBound == 0 ? -n + 1 : rows.lowerBound - 2 * n
        let firstInput = rows.lowerBound == 0 ? 0 : start + n - 1
        // Input columns of the tile: its output columns widened by the horizontal recursion's reach.
        let samples = max(0, columns.lowerBound - n - 1)..<min(width, columns.upperBound + n - 1)
        let w = columns.count, sw = samples.count, lead = columns.lowerBound - samples.lowerBound
        let n21 = Lanes(repeating: Float(g.n2[0])), n23 = Lanes(repeating: Float(g.n2[1])), n25 = Lanes(repeating: Float(g.n2[2]))
        let d11 = Lanes(repeating: Float(g.d1[0])), d13 = Lanes(repeating: Float(g.d1[1])), d15 = Lanes(repeating: Float(g.d1[2]))
        // Input rows are `pw` floats apart (a constant, so loops see fixed distances); output rows
        // are padded to whole SIMD4 groups (wp).
        let pw = sampleStride, wp = (w + 3) / 4 * 4
        // Tiles are at most 256 columns (the strips of `score`), whatever the image.
        precondition(sw <= pw && w <= SSIMULACRA2Maps.stride, "SSIMULACRA 2 tile wider than 256 columns")
        // Linear r1, g1, b1, r2, g2, b2 rows of the current and the previous input row.
        var lin = [Float](repeating: 0, count: 12 * pw)
        var ring = [Lanes](repeating: Lanes(), count: ringSize * w)  // [slot][x], horizontally blurred
        var xyb = [Float](repeating: 0, count: ringSize * 6 * pw)   // [slot][X1, Y1, B1, X2, Y2, B2][x]
        var state = [Lanes](repeating: Lanes(), count: 6 * w)        // [x][k = 1, 3, 5][two rows' outputs]
        // Signals of one input row, with the 2N zeros before and N after that the blur reads.
        var line = [Lanes](repeating: Lanes(), count: 2 * n + sw + n)
        var blurred = [Lanes](repeating: Lanes(), count: 2 * wp)    // two output rows; zero past w
        // One output row's blurred signals, planar, and the column sums of the maps (``SSIMULACRA2Maps``).
        var maps = [Float](repeating: 0, count: SSIMULACRA2Maps.rows * SSIMULACRA2Maps.stride)
        var columnTotals = [Double](repeating: 0, count: 18 * SSIMULACRA2Maps.stride)
        let zeros = [Lanes](repeating: Lanes(), count: w)          // the rows outside the image
        // Scale-1 columns this tile writes: those whose left source column lies in `columns`.
        let halfColumns = (columns.lowerBound + 1) / 2..<(columns.upperBound + 1) / 2
        var totals = [Double](repeating: 0, count: 18)  // [channel][map]
        lin.withUnsafeMutableBufferPointer { linB in
        ring.withUnsafeMutableBufferPointer { ringB in
        xyb.withUnsafeMutableBufferPointer { xybB in
        state.withUnsafeMutableBufferPointer { stB in
        line.withUnsafeMutableBufferPointer { lineB in
        blurred.withUnsafeMutableBufferPointer { blurredB in
        maps.withUnsafeMutableBufferPointer { mapsB in
        columnTotals.withUnsafeMutableBufferPointer { totalsB in
        zeros.withUnsafeBufferPointer { zeroB in
            guard let linBase = linB.baseAddress, let ringP = ringB.baseAddress, let xybP = xybB.baseAddress,
                  let st = stB.baseAddress, let lineBase = lineB.baseAddress, let blurredP = blurredB.baseAddress,
                  let mapsP = mapsB.baseAddress, let totalsP = totalsB.baseAddress,
                  let zeroRow = zeroB.baseAddress else { return }
            var l = linBase, previous = linBase + 6 * pw
            var chunkRows = 0
            let lineP = lineBase + 2 * n
            /// Reads, converts and blurs horizontally the input row that `step` brings in; its
            /// blurred row (the zero row when the step brings none).
            func takeIncoming(_ step: Int) -> UnsafePointer<Lanes> {
                let incoming = step + n - 1
                guard incoming < h && incoming >= firstInput else { return zeroRow }
                let slot = incoming % ringSize
                swap(&l, &previous)
                rows1(incoming, samples.lowerBound, sw, l, l + pw, l + 2 * pw)
                rows2(incoming, samples.lowerBound, sw, l + 3 * pw, l + 4 * pw, l + 5 * pw)
                if let half {
                    writeHalfScale(half, row: incoming, height: h, rows: rows, columns: halfColumns, width: width,
                                   current: l, previous: previous, rowStride: pw, firstSample: samples.lowerBound)
                }
                // Opsin absorbance, cube root and XYB of both images (planar rows).
                let xybRow = xybP + slot * 6 * pw
                positiveXYB(l, into: xybRow, count: sw)
                positiveXYB(l + 3 * pw, into: xybRow + 3 * pw, count: sw)
                // Signals of the row's pixels; the zeros after them (the blur's padding) stay.
                let groups = sw / 4 * 4
                Lanes.signals(planar: xybRow, stride: pw, count: groups, into: lineP)
                for x in groups..<sw {
                    let a = Q(xybRow[x], xybRow[pw + x], xybRow[2 * pw + x], 0)
                    let v = Q(xybRow[3 * pw + x], xybRow[4 * pw + x], xybRow[5 * pw + x], 0)
                    lineP[x] = Lanes.signals(original: a, distorted: v)
                }
                g.blur(lanes: lineP, samples: samples, outputs: columns, into: ringP + slot * w)
                return UnsafePointer(ringP + slot * w)
            }
            /// The blurred row that leaves the vertical window at `step` (zero before the first input).
            func outgoingRow(_ step: Int) -> UnsafePointer<Lanes> {
                let outgoing = step - n - 1
                return outgoing >= firstInput ? UnsafePointer(ringP + (outgoing % ringSize) * w) : zeroRow
            }
            /// The maps of output row `step` (none during the warm-up) from its blurred signals.
            func addMaps(_ step: Int, _ blurredRow: UnsafePointer<Lanes>) {
                guard step >= rows.lowerBound else { return }
                // The blurred signals, planar, then the maps against the pixels' own XYB values.
                let xybRow = xybP + (step % ringSize) * 6 * pw + lead
                Lanes.transpose(blurredRow, count: wp, into: mapsP, stride: SSIMULACRA2Maps.stride)
                SSIMULACRA2Maps.addRow(mapsP, original: xybRow, distorted: xybRow + 3 * pw, pixelStride: pw, count: w,
                                       structure: Lanes.structureChannels)
                chunkRows += 1
                if chunkRows == SSIMULACRA2Maps.chunkRows || step == rows.upperBound - 1 {
                    SSIMULACRA2Maps.flush(mapsP, into: totalsP, count: w)
                    chunkRows = 0
                }
            }
            // The vertical recursion, two steps per pass over the per-column state (which is
            // larger than L1): y[n−1] of each recursion is in slot 1 − o, y[n−2] in slot o; the
            // first step's output replaces slot o, the second's slot 1 − o.
            var step = start
            while step + 1 < rows.upperBound {
                let in0 = takeIncoming(step), in1 = takeIncoming(step + 1)
                let out0 = outgoingRow(step), out1 = outgoingRow(step + 1)
                let o = step & 1, p = 1 - o
                let second = blurredP + wp
                for x in 0..<w {
                    let s = st + x * 6
                    let sum0 = in0[x] + out0[x], sum1 = in1[x] + out1[x]
                    let p1 = s[p], p3 = s[2 + p], p5 = s[4 + p]
                    let y1 = n21 * sum0 - d11 * p1 - s[o]
                    let y3 = n23 * sum0 - d13 * p3 - s[2 + o]
                    let y5 = n25 * sum0 - d15 * p5 - s[4 + o]
                    let z1 = n21 * sum1 - d11 * y1 - p1
                    let z3 = n23 * sum1 - d13 * y3 - p3
                    let z5 = n25 * sum1 - d15 * y5 - p5
                    s[o] = y1; s[2 + o] = y3; s[4 + o] = y5
                    s[p] = z1; s[2 + p] = z3; s[4 + p] = z5
                    blurredP[x] = y1 + y3 + y5
                    second[x] = z1 + z3 + z5
                }
                addMaps(step, blurredP)
                addMaps(step + 1, second)
                step += 2
            }
            if step < rows.upperBound {
                let inRow = takeIncoming(step), outRow = outgoingRow(step)
                let o = step & 1, p = 1 - o
                for x in 0..<w {
                    let sum = inRow[x] + outRow[x]
                    let s = st + x * 6
                    let y1 = n21 * sum - d11 * s[p] - s[o]
                    let y3 = n23 * sum - d13 * s[2 + p] - s[2 + o]
                    let y5 = n25 * sum - d15 * s[4 + p] - s[4 + o]
                    s[o] = y1; s[2 + o] = y3; s[4 + o] = y5
                    blurredP[x] = y1 + y3 + y5
                }
                addMaps(step, blurredP)
            }
            totals = SSIMULACRA2Maps.totals(totalsP, count: w)
        }
        }
        }
        }
        }
        }
        }
        }
        }
        return (0..<3).map { c in
            let t = 6 * c
            return ScaleStats(pixels: 0, ssim1: totals[t], ssim4: totals[t + 1], artifact1: totals[t + 2],
                              artifact4: totals[t + 3], detail1: totals[t + 4], detail4: totals[t + 5])
        }
    }

    /// Floats between two input rows of a tile (linear and XYB rows): a tile's columns (≤ 256)
    /// widened by the blur's reach (N + 1 left, N − 1 right, N = 5), rounded up to 8.
    static let sampleStride = 272

    /// Opsin absorbance, cube root and positive XYB of `count` pixels: `linear` holds the R, G, B
    /// rows, `xyb` receives the X', Y', B' rows, each ``sampleStride`` floats apart. A plain
    /// `Float` loop over contiguous rows (constant row distances), which the loop vectorizer
    /// widens; the operations and their order are the reference's, so every build gives the same bits.
    @inline(__always)
    private static func positiveXYB(_ linear: UnsafePointer<Float>, into xyb: UnsafeMutablePointer<Float>, count: Int) {
        let s = sampleStride
        let m00 = Float(m[0]), m01 = Float(m[1]), m02 = Float(m[2]), m10 = Float(m[3]), m11 = Float(m[4]), m12 = Float(m[5])
        let m20 = Float(m[6]), m21 = Float(m[7]), m22 = Float(m[8])
        let biasF = Float(bias), cbrtF = Float(cbrtBias)
        for x in 0..<count {
            let r = linear[x], g = linear[s &+ x], b = linear[2 &* s &+ x]
            // Linear light is never negative, so every value is ≥ the bias (> 0): the
            // reference's max(0, ·) never binds.
            let m0 = CubeRoot.ofPositive(m00 * r + m01 * g + m02 * b + biasF) - cbrtF
            let m1 = CubeRoot.ofPositive(m10 * r + m11 * g + m12 * b + biasF) - cbrtF
            let m2 = CubeRoot.ofPositive(m20 * r + m21 * g + m22 * b + biasF) - cbrtF
            // X' = 14·½(m0 − m1) + 0.42, Y' = ½(m0 + m1) + 0.01, B' = (m2 − Y) + 0.55.
            let y = 0.5 * (m0 + m1)
            xyb[x] = 14 * (0.5 * (m0 - m1)) + 0.42
            xyb[s &+ x] = y + 0.01
            xyb[2 &* s &+ x] = (m2 - y) + 0.55
        }
    }

    /// Writes the scale-1 row that input row `row` completes (row 2·oy + 1, or the last row when
    /// the height is odd), for the tile's `rows` and the scale-1 `columns` it owns: the mean of
    /// the 2×2 block in linear light, source coordinates clamped to the last row/column, added in
    /// the order of ``downsample(_:)``. `current` and `previous` hold the six linear rows
    /// (`rowStride` apart) of `row` and `row − 1`, from column `firstSample`.
    private static func writeHalfScale(_ half: HalfScale, row: Int, height h: Int, rows: Range<Int>, columns: Range<Int>,
                                       width: Int, current: UnsafePointer<Float>, previous: UnsafePointer<Float>,
                                       rowStride: Int, firstSample: Int) {
        let top: UnsafePointer<Float>
        if row % 2 == 1 {
            top = previous
        } else if row == h - 1 {
            top = current
        } else {
            return
        }
        let oy = row / 2
        guard rows.contains(2 * oy) else { return }
        // Columns whose 2×2 block lies inside the row (2·ox + 1 < width), four at a time.
        let inside = columns.lowerBound + max(0, min(columns.upperBound, width / 2) - columns.lowerBound) / 4 * 4
        let quarter = SIMD4<Float>(repeating: 0.25)
        for plane in 0..<6 {
            let a = top + plane * rowStride, b = current + plane * rowStride
            let dst = half.planes[plane].base + oy * half.width
            var ox = columns.lowerBound
            while ox < inside {
                let o = 2 * ox - firstSample
                let pa = UnsafeRawPointer(a + o).loadUnaligned(as: SIMD8<Float>.self)
                let pb = UnsafeRawPointer(b + o).loadUnaligned(as: SIMD8<Float>.self)
                let mean = (pa.evenHalf + pa.oddHalf + pb.evenHalf + pb.oddHalf) * quarter
                UnsafeMutableRawPointer(dst + ox).storeBytes(of: mean, as: SIMD4<Float>.self)
                ox += 4
            }
            while ox < columns.upperBound {
                let x0 = 2 * ox - firstSample, x1 = min(2 * ox + 1, width - 1) - firstSample
                dst[ox] = (a[x0] + a[x1] + b[x0] + b[x1]) * 0.25
                ox += 1
            }
        }
    }

    /// The weighted sum and the final remapping (reference `Msssim::Score()`).
    static func finalScore(_ stats: [[ScaleStats]]) -> Double {
        var sum = 0.0
        var i = 0
        for c in 0..<3 {
            for s in stats[c] {
                let n = s.pixels
                let l1 = [s.ssim1 / n, s.artifact1 / n, s.detail1 / n]
                let l4 = [pow(s.ssim4 / n, 0.25), pow(s.artifact4 / n, 0.25), pow(s.detail4 / n, 0.25)]
                for norm in [l1, l4] {
                    for value in norm {
                        sum += weights[i] * abs(value)
                        i += 1
                    }
                }
            }
        }
        var x = sum * 0.9562382616834844
        x = 2.326765642916932 * x - 0.020884521182843837 * x * x + 6.248496625763138e-05 * x * x * x
        return x > 0 ? 100 - 10 * pow(x, 0.6276336467831387) : 100
    }

    /// The 108 weights of the reference, index = 36·channel + 6·scale + 3·norm + map.
    static let weights: [Double] = [
        0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
        0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
        0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
        0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
        0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
        0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
        0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
        0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
        225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
        176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
        0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
        0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
        95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
        0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
    ]
}
