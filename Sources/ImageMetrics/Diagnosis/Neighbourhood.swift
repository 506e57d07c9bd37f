/// The 3×3 neighbourhood of one pixel (x, y) of the expected image, as a local candidate reads
/// it: straight RGBA in 0…1 with coordinates clamped to the image (``ExpectedView/pixel(_:_:)``,
/// the same values). Pixel (x + dx, y + dy), dx, dy ∈ −1…1, is element
/// `index + ((dy + 1) · 3 + dx + 1) · stride` of `planes` (``SampleNeighbourhoods`` stores the
/// nine offsets as nine planes of all samples).
struct Neighbourhood {
    /// The storage the pixels are read from.
    let planes: UnsafeBufferPointer<SIMD4<Double>>
    /// Element of pixel (x − 1, y − 1).
    let index: Int
    /// Elements between successive offsets.
    let stride: Int

    /// Straight RGBA of pixel (x + dx, y + dy), dx, dy ∈ −1…1.
    @inline(__always)
    subscript(_ dx: Int, _ dy: Int) -> SIMD4<Double> { planes[index + ((dy + 1) * 3 + dx + 1) * stride] }

    /// Straight RGBA of pixel (x, y).
    @inline(__always)
    var centre: SIMD4<Double> { self[0, 0] }

    /// The centre pixel and the per-channel minimum and maximum of the 3×3 neighbourhood
    /// (lane masks, no branches: the values are never NaN).
    @inline(__always)
    func range() -> (centre: SIMD4<Double>, lo: SIMD4<Double>, hi: SIMD4<Double>) {
        let centre = self.centre
        var lo = centre, hi = centre
        for dy in -1...1 {
            for dx in -1...1 where dx != 0 || dy != 0 {
                let v = self[dx, dy]
                lo.replace(with: v, where: v .< lo); hi.replace(with: v, where: v .> hi)
            }
        }
        return (centre, lo, hi)
    }

    /// ``ExpectedView/bilinear(_:_:)`` at (x + ox + tx, y + oy + ty), ox, oy ∈ −1…0 the offset of
    /// the top-left of the four pixels read, tx, ty ∈ 0…1 (the same arithmetic).
    @inline(__always)
    func bilinear(_ ox: Int, _ oy: Int, _ tx: Double, _ ty: Double) -> SIMD4<Double> {
        ExpectedView.interpolate(self[ox, oy], self[ox + 1, oy], self[ox, oy + 1], self[ox + 1, oy + 1], tx, ty)
    }
}
