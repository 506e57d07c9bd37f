import ImageCore

/// Every candidate explanation the diagnosis tests, in a fixed order (ties go to the earlier).
///
/// Families: the 5 wrong channel orders (of the 6 permutations), alpha first↔last, premultiplied
/// read as straight and the reverse, alpha dropped (hidden colour revealed / over black / over
/// white; "palette transparency ignored" when a palette has transparent entries), the 7 wrong
/// orientations, sRGB vs linear-light averaging, 2× and ½× scale, half- and one-pixel shifts,
/// CMYK inversion, 16-bit byte swap and low-byte truncation, nearest-neighbour sampling where
/// a filter was expected, and value-range errors (``ValueRangeCandidates``). The alpha-edge halo
/// reads the actual image too, so the diagnosis makes it for each pair (``AlphaEdgeHalo``).
enum CandidateCatalog {
    static let all: [Candidate] = channelOrders + alphaPlacement + premultiplication + alphaDropped
        + orientations + [lightSpace] + scales + shifts + [cmykInversion] + sixteenBit + [nearestNeighbour] + GeometryCandidates.all
        + EdgeRowCandidates.all
        + ValueRangeCandidates.all

    // MARK: Channel order

    static let channelOrders: [Candidate] = {
        let names = ["R", "G", "B"]
        let perms: [[Int]] = [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        return perms.map { p in
            let order = p.map { names[$0] }.joined()
            let detail: String
            switch order {
            case "BGR": detail = "red and blue swapped (RGB read as BGR, e.g. BGRA bytes read as RGBA)"
            case "RBG": detail = "green and blue swapped (RGB read as RBG)"
            case "GRB": detail = "red and green swapped (RGB read as GRB)"
            default: detail = "channels rotated (RGB read as \(order))"
            }
            return Candidate(id: "channels.\(order.lowercased())", bugClass: "channel-order", name: detail,
                             references: ["D6"], applies: { _ in true }) { (n: Neighbourhood) in
                let v = n.centre
                return SIMD4(v[p[0]], v[p[1]], v[p[2]], v.w)
            }
        }
    }()

    // MARK: Alpha placement

    static let alphaPlacement: [Candidate] = [
        Candidate(id: "alpha.argb-read-as-rgba", bugClass: "alpha-position",
                  name: "alpha-first pixels read as alpha-last (ARGB as RGBA): the alpha byte lands in red — the pink tint",
                  references: ["D6"], followsActualStorage: true) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.w, v.x, v.y, v.z)
        },
        Candidate(id: "alpha.rgba-read-as-argb", bugClass: "alpha-position",
                  name: "alpha-last pixels read as alpha-first (RGBA as ARGB): red becomes alpha, colour shifts left",
                  references: ["D6"], followsActualStorage: true) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.y, v.z, v.w, v.x)
        },
    ]

    // MARK: Premultiplication

    static let premultiplication: [Candidate] = [
        Candidate(id: "premultiplied.read-as-straight", bugClass: "premultiplication",
                  name: "premultiplied colour read as straight (premultiplied twice): translucent pixels too dark",
                  references: ["D6", "D7"], applies: { $0.expectedTranslucent && $0.actualHasAlpha }) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
        },
        Candidate(id: "straight.read-as-premultiplied", bugClass: "premultiplication",
                  name: "straight colour read as premultiplied (never premultiplied): translucent pixels too bright",
                  references: ["D6"], applies: { $0.expectedTranslucent && $0.actualHasAlpha }) { (n: Neighbourhood) in
            ExpectedView.straight(n.centre)
        },
    ]

    // MARK: Alpha dropped

    static let alphaDropped: [Candidate] = [
        Candidate(id: "palette.transparency-ignored", bugClass: "alpha-dropped",
                  name: "palette transparency ignored (PNG tRNS / GIF transparent index): transparent entries shown opaque",
                  references: ["D3", "D7"], applies: { $0.expectedTranslucent && $0.indexedTransparency }) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x, v.y, v.z, 1)
        },
        Candidate(id: "alpha.dropped-hidden-colour", bugClass: "alpha-dropped",
                  name: "alpha dropped: the colour stored under transparent pixels is revealed",
                  references: ["D7"], applies: { $0.expectedTranslucent && !$0.indexedTransparency }) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x, v.y, v.z, 1)
        },
        Candidate(id: "alpha.dropped-over-black", bugClass: "alpha-dropped",
                  name: "alpha flattened onto black (the black border / black corners)",
                  references: ["D7"], applies: { $0.expectedTranslucent }) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, 1)
        },
        Candidate(id: "alpha.dropped-over-white", bugClass: "alpha-dropped",
                  name: "alpha flattened onto white",
                  references: ["D7"], applies: { $0.expectedTranslucent }) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x * v.w + 1 - v.w, v.y * v.w + 1 - v.w, v.z * v.w + 1 - v.w, 1)
        },
    ]

    // MARK: Orientation

    static let orientations: [Candidate] = Orientation.allCases.filter { $0 != .up }.map { o in
        let inverse = o.inverse
        return Candidate(id: "orientation.\(o.exifValue)", bugClass: "orientation",
                         name: "pixels transformed by EXIF orientation \(o.exifValue) (\(o)) — orientation applied twice, not applied, or the wrong one",
                         references: ["D5"], size: { w, h in o.displaySize(width: w, height: h) }) { e, x, y in
            let (dw, dh) = o.displaySize(width: e.width, height: e.height)
            let s = inverse.displayPoint(x: x, y: y, width: dw, height: dh)
            return e.pixel(s.x, s.y)
        }
    }

    // MARK: Light space

    /// Where a pixel lies between the darkest and brightest of its 3×3 neighbourhood (per
    /// channel, range ≥ ``edgeRange``), read as the coverage of a two-level edge that was
    /// averaged in linear light; the prediction is the same coverage averaged in encoded sRGB:
    /// `lo + p·(hi − lo)` with `p = (lin(E) − lin(lo)) / (lin(hi) − lin(lo))`. Flat pixels are left alone.
    static let lightSpace = Candidate(
        id: "light.srgb-averaging", bugClass: "light-space",
        name: "averaged in gamma-encoded sRGB instead of linear light (mixed pixels darker, thin bright lines fade)",
        references: ["B-gamma"], kind: .fitted) { (n: Neighbourhood) in
        let (centre, lo, hi) = n.range()
        var out = centre
        for c in 0..<3 where hi[c] - lo[c] >= edgeRange {
            let l0 = toLinear(lo[c]), l1 = toLinear(hi[c])
            let p = min(max((toLinear(centre[c]) - l0) / (l1 - l0), 0), 1)
            out[c] = lo[c] + p * (hi[c] - lo[c])
        }
        return out
    }

    /// `SRGBTransfer.toLinear(v)` of a pixel value v = code / 65535 (every value a view
    /// returns), read from the 16-bit table of the same function: `v · 65535` is within an ulp
    /// of the code, so rounding finds it.
    @inline(__always)
    static func toLinear(_ v: Double) -> Double {
        PixelStatistics.linearOf16[Int((v * 65535).rounded())]
    }

    /// Smallest 3×3 range (0…1) treated as an edge by the resampling candidates: 24 code values,
    /// well above the noise of photographs and JPEG, well below real edges.
    static let edgeRange = 24.0 / 255

    // MARK: Scale

    static let scales: [Candidate] = [
        Candidate(id: "scale.2x", bugClass: "scale",
                  name: "2× too large: points taken as pixels at scale 2 (or the scale applied twice)",
                  references: ["D8"], size: { ($0 * 2, $1 * 2) }) { e, x, y in
            e.bilinear((Double(x) + 0.5) / 2 - 0.5, (Double(y) + 0.5) / 2 - 0.5)
        },
        Candidate(id: "scale.half", bugClass: "scale",
                  name: "½× too small: pixels taken as points (the @2x scale factor ignored)",
                  references: ["D8"], size: { (($0 + 1) / 2, ($1 + 1) / 2) }) { e, x, y in
            var sum = SIMD4<Double>(repeating: 0)
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let v = e.pixel(2 * x + dx, 2 * y + dy)
                sum += SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
            }
            return ExpectedView.straight(sum / 4)
        },
    ]

    // MARK: Shifts

    static let shifts: [Candidate] = {
        var list: [Candidate] = []
        let whole: [(Int, Int, String)] = [(1, 0, "right"), (-1, 0, "left"), (0, 1, "down"), (0, -1, "up")]
        for (dx, dy, dir) in whole {
            var one = Candidate(id: "shift.one.\(dir)", bugClass: "pixel-shift",
                                name: "content shifted one pixel \(dir) (an off-by-one in the source or destination rectangle)",
                                references: ["B-offset"]) { (n: Neighbourhood) in n[-dx, -dy] }
            one.parameters = ["dx": Double(dx), "dy": Double(dy)]
            list.append(one)
        }
        let half: [(Double, Double, String)] = [(0.5, 0, "right"), (-0.5, 0, "left"), (0, 0.5, "down"), (0, -0.5, "up"),
                                                (0.5, 0.5, "right and down"), (-0.5, -0.5, "left and up")]
        for (dx, dy, dir) in half {
            // ExpectedView.bilinear(x − dx, y − dy) reads from column x + ox, ox = ⌊−dx⌋, at
            // fraction tx = (x − dx) − ⌊x − dx⌋ = |dx| (exact for dx ∈ {0, ±½}); rows alike.
            let ox = dx > 0 ? -1 : 0, oy = dy > 0 ? -1 : 0, tx = abs(dx), ty = abs(dy)
            var shifted = Candidate(id: "shift.half.\(dir.replacingOccurrences(of: " and ", with: "-"))", bugClass: "pixel-shift",
                                    name: "content shifted half a pixel \(dir) (pixel centres at integers instead of +½)",
                                    references: ["B-centre"]) { (n: Neighbourhood) in n.bilinear(ox, oy, tx, ty) }
            shifted.parameters = ["dx": dx, "dy": dy]
            list.append(shifted)
        }
        return list
    }()

    // MARK: CMYK

    /// RGB → naive CMYK (ImageCore's rule), inks inverted, back to RGB: Adobe-inverted CMYK
    /// read as plain (or the reverse). Offered only when CMYK is involved (``DiagnosisContext/cmyk``):
    /// on a grey or RGB source it predicts black for every grey, which a near-black output of any
    /// other bug matches.
    static let cmykInversion = Candidate(
        id: "cmyk.inverted", bugClass: "cmyk-inversion",
        name: "CMYK inks inverted (Adobe APP14 inverted CMYK read as plain, or the reverse)",
        references: ["B-cmyk"], applies: { $0.cmyk }) { (n: Neighbourhood) in
        let v = n.centre
        let k = 1 - max(v.x, v.y, v.z)
        let d = 1 - k
        let c = d > 0 ? (1 - v.x - k) / d : 0, m = d > 0 ? (1 - v.y - k) / d : 0, yy = d > 0 ? (1 - v.z - k) / d : 0
        // inverted inks: c' = 1 − c …; RGB = (1 − c')(1 − k') = c·k
        return SIMD4(c * k, m * k, yy * k, v.w)
    }

    // MARK: 16-bit

    static let sixteenBit: [Candidate] = [
        Candidate(id: "depth16.byte-swap", bugClass: "16-bit",
                  name: "16-bit samples byte-swapped (little-endian read as big-endian)",
                  references: ["D4"], applies: { $0.expectedBits == 16 && $0.actualBits == 16 }) { e, x, y in
            let r = e.raw(x, y)
            let s = (r &<< 8) | (r &>> 8)
            return SIMD4(Double(s.x), Double(s.y), Double(s.z), Double(s.w)) / 65535
        },
        Candidate(id: "depth16.low-byte", bugClass: "16-bit",
                  name: "16-bit samples truncated to their low byte (a UInt16 → UInt8 cast instead of scaling)",
                  references: ["D4"], applies: { $0.expectedBits == 16 && $0.actualBits <= 8 }) { e, x, y in
            let r = e.raw(x, y)
            let low = r & 0xFF
            return SIMD4(Double(low.x), Double(low.y), Double(low.z), Double(low.w)) / 255
        },
    ]

    // MARK: Filtering

    /// Nearest-neighbour sampling keeps the full contrast of detail that a filter attenuates
    /// (and aliases it): the direction is the detail of the expected image, `E − G∗E` with the
    /// 3×3 binomial kernel G = [1 2 1]ᵀ[1 2 1]/16 (premultiplied), scaled by the fitted λ > 0.
    /// Lossy re-encoding and blur remove detail (λ ≤ 0, clamped to 0) and noise is uncorrelated
    /// with it, so neither is explained. This predicts the contrast of detail the expected image
    /// shows; aliased detail from source pixels it does not show is recognised by
    /// ``AliasingSignature`` instead (see ``Diagnoser``).
    static let nearestNeighbour = Candidate(
        id: "filter.nearest", bugClass: "aliasing",
        name: "nearest-neighbour sampling where a filter was expected: detail at full contrast, aliased (jaggies, moiré)",
        references: ["D10"], kind: .fitted) { (n: Neighbourhood) in
        let centre = n.centre
        var blurred = SIMD4<Double>(repeating: 0)
        let weights: SIMD3<Double> = [1, 2, 1]
        for dy in -1...1 {
            for dx in -1...1 {
                let v = n[dx, dy]
                blurred += SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w) * (weights[dx + 1] * weights[dy + 1] / 16)
            }
        }
        let b = ExpectedView.straight(blurred)
        return SIMD4(centre.x + (centre.x - b.x), centre.y + (centre.y - b.y), centre.z + (centre.z - b.z), centre.w)
    }
}
