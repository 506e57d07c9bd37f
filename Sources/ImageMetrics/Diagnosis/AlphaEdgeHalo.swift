/// The alpha-edge halo (class `premultiplication`): straight RGBA resampled without
/// premultiplying, so the colour stored under α = 0 — invisible in the source — bleeds into the
/// translucent pixels along every alpha edge. Opaque and transparent pixels stay as expected, the
/// alpha channel is unchanged, and a translucent pixel's straight colour is pulled from the
/// expected colour E toward the hidden colour H.
///
/// How far it is pulled is the share of the filter's taps that were transparent in the source,
/// which the two images do not tell (`1 − α` beside an opaque edge, less inside a soft edge
/// whose translucent source pixels carry the visible colour, more beside a translucent area).
/// So the prediction at a translucent expected pixel (0 < α < 1) is the point of the segment
/// from E to H nearest the actual straight colour A, `E + s·(H − E)` with
/// `s = clamp(⟨A − E, H − E⟩ / |H − E|², 0, 1)`, alpha as expected; every other pixel is
/// predicted unchanged. One number per translucent pixel along a line fixed by the images: a
/// halo is explained whole, while a difference that does not point at the hidden colour is
/// explained at most by its component along that line (a third of random colour noise in the
/// translucent pixels, none of an alpha or opaque difference). Where an exact candidate of the
/// same class — premultiplied colour read as straight, the halo of a black hidden colour beside
/// opaque edges — explains nearly as much, that one is named (``Candidate/fitsEachPixel``).
///
/// A halo pulls one way only, toward H, and far: beside an opaque edge the share is 1 − α. The
/// candidate is offered only when the pulls of the translucent pixels are
/// - one-sided: the squared components along H − E (weighted by α², as the visible values weigh
///   them) that point away from H add up to at most ``maximumAwayShare`` of those that point
///   toward it, so symmetric noise, whose components split evenly (and which on a grey image lies
///   along the grey line H − E), is not offered a line to be explained along;
/// - strong: Σ α²·s²·|H − E|² is at least ``minimumStrength`` of Σ α²·(1 − α)²·|H − E|², the same
///   sum for a full halo beside opaque edges, so a change of a few codes that happens to lean
///   toward H (a transfer curve's, a rounding's) is not taken for a bleed of the hidden colour.
///   Pillow's straight Lanczos thumbnail reaches 0.40; a pure-power gamma 0.0008.
/// The screen reads every translucent pixel, or a regular subsample of at most ``screenBudget``.
///
/// The hidden colour H is read from the *actual* image's transparent pixels, which the bug
/// keeps (the filter spreads H alone where every tap is transparent): the mean straight colour of
/// the actual's α = 0 pixels in the smallest square around the pixel that holds any
/// (``HiddenColourField``). Colour under α = 0 carries no weight in any explained fraction
/// (visible values are colour × α). Where no transparent pixel is found, the pixel is predicted
/// unchanged; an actual that stores black under α = 0 gives the dark fringe of a black hidden
/// colour.
enum AlphaEdgeHalo {
    /// Identifier of the candidate.
    static let id = "premultiplication.alpha-edge-halo"

    /// Largest share of away-pointing to toward-pointing pull for the candidate to be offered.
    static let maximumAwayShare = 0.25
    /// Smallest strength of the pulls, relative to a full halo, for the candidate to be offered.
    static let minimumStrength = 0.05
    /// Largest number of translucent pixels the one-sidedness test reads.
    static let screenBudget = 1 << 16

    /// The candidate for two images of equal size with alpha (4 channels), or `nil` when the
    /// expected image has no translucent pixel or the pulls are not one-sided and strong.
    static func candidate(expected: ValueImage, actual: ValueImage) -> Candidate? {
        guard expected.channels == 4, actual.channels == 4, expected.width == actual.width, expected.height == actual.height,
              expected.hasTranslucency else { return nil }
        let hidden = HiddenColourField(actual)
        guard pullsLikeAHalo(expected: expected, actual: actual, hidden: hidden) else { return nil }
        let view = ExpectedView(actual)
        return Candidate(id: id, bugClass: "premultiplication",
                         name: "straight colour resampled without premultiplying: the colour hidden under α = 0 bleeds into the translucent pixels of alpha edges (the halo)",
                         references: ["B4", "B5", "D7"], fitsEachPixel: true,
                         applies: { $0.expectedTranslucent && $0.actualHasAlpha }) { e, x, y in
            let v = e.pixel(x, y)
            guard x < view.width, y < view.height, let s = pull(v, view.pixel(x, y), hidden, x, y) else { return v }
            return SIMD4(v.x + s.share * s.toward.x, v.y + s.share * s.toward.y, v.z + s.share * s.toward.z, v.w)
        }
    }

    /// At a translucent expected pixel `v` (straight, 0…1) with actual pixel `a` at (x, y), H read
    /// from `hidden`: the direction H − E and the share s = ⟨A − E, H − E⟩ / |H − E|², clamped to
    /// 0…1 and raw; `nil` where the pixel is not translucent, no hidden colour is found or H = E.
    @inline(__always)
    static func pull(_ v: SIMD4<Double>, _ a: SIMD4<Double>, _ hidden: HiddenColourField, _ x: Int, _ y: Int)
        -> (toward: SIMD3<Double>, share: Double, raw: Double)? {
        guard v.w > 0, v.w < 1, let h = hidden.colour(x, y) else { return nil }
        let t = SIMD3(h.x - v.x, h.y - v.y, h.z - v.z), d = SIMD3(a.x - v.x, a.y - v.y, a.z - v.z)
        let tt = (t * t).sum()
        guard tt > 0 else { return nil }
        let raw = (d * t).sum() / tt
        return (t, min(max(raw, 0), 1), raw)
    }

    /// Whether the translucent pixels' pulls along H − E are one-sided and strong (see the type's notes).
    static func pullsLikeAHalo(expected: ValueImage, actual: ValueImage, hidden: HiddenColourField) -> Bool {
        let e = ExpectedView(expected), a = ExpectedView(actual)
        let pixels = expected.width * expected.height
        func isTranslucent(_ s: SampleView, _ p: Int) -> Bool { s[p * 4 + 3] != 0 && s[p * 4 + 3] != 65535 }
        let count = expected.withSamples { s in (0..<pixels).reduce(0) { $0 + (isTranslucent(s, $1) ? 1 : 0) } }
        // Every step-th translucent pixel, counted in pixel order from 0.
        let step = max(1, (count + screenBudget - 1) / screenBudget)
        var toward = 0.0, away = 0.0, pulled = 0.0, full = 0.0, rank = 0
        expected.withSamples { s in
            for p in 0..<pixels where isTranslucent(s, p) {
                defer { rank += 1 }
                guard rank % step == 0 else { continue }
                let x = p % expected.width, y = p / expected.width
                let v = e.pixel(x, y)
                guard let p = pull(v, a.pixel(x, y), hidden, x, y) else { continue }
                // The squared length of the component along H − E, in visible (× α) terms.
                let length = (p.toward * p.toward).sum() * v.w * v.w
                if p.raw > 0 { toward += p.raw * p.raw * length } else { away += p.raw * p.raw * length }
                pulled += p.share * p.share * length
                full += (1 - v.w) * (1 - v.w) * length
            }
        }
        return toward > 0 && away <= maximumAwayShare * toward && pulled >= minimumStrength * full
    }
}
