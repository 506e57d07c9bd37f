/// Random access to the expected image for the diagnosis: straight RGBA pixels as
/// `SIMD4<Double>` in 0…1 (α = 1 without an alpha channel), with coordinates clamped to the
/// image (edge pixels repeat), plus the raw 16-bit samples for the bit-level candidates.
struct ExpectedView: Sendable {
    let image: ValueImage
    var width: Int { image.width }
    var height: Int { image.height }

    init(_ image: ValueImage) { self.image = image }

    /// The 16-bit samples of pixel (x, y), clamped.
    @inline(__always)
    func raw(_ x: Int, _ y: Int) -> SIMD4<UInt16> {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        return image.pixel(at: (cy * width + cx) * image.channels)
    }

    /// Straight RGBA of pixel (x, y), clamped, in 0…1.
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> SIMD4<Double> {
        let r = raw(x, y)
        return SIMD4(Double(r.x), Double(r.y), Double(r.z), Double(r.w)) / 65535
    }

    /// Bilinear sample at a fractional position in pixel-index coordinates (centres at integers),
    /// interpolating premultiplied values so transparent colour carries no weight.
    func bilinear(_ fx: Double, _ fy: Double) -> SIMD4<Double> {
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        return ExpectedView.interpolate(pixel(x0, y0), pixel(x0 + 1, y0), pixel(x0, y0 + 1), pixel(x0 + 1, y0 + 1), tx, ty)
    }

    /// Bilinear interpolation of four straight pixels, `a` top-left, `b` top-right, `c`
    /// bottom-left, `d` bottom-right, at fractions `tx`, `ty` (0…1) from `a`, in premultiplied
    /// values, returned straight.
    @inline(__always)
    static func interpolate(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ c: SIMD4<Double>, _ d: SIMD4<Double>,
                            _ tx: Double, _ ty: Double) -> SIMD4<Double> {
        func pm(_ p: SIMD4<Double>) -> SIMD4<Double> { SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w) }
        let a = pm(a), b = pm(b), c = pm(c), d = pm(d)
        let top = a * (1 - tx) + b * tx, bottom = c * (1 - tx) + d * tx
        return straight(top * (1 - ty) + bottom * ty)
    }

    /// Premultiplied → straight (colour under α = 0 becomes 0).
    @inline(__always)
    static func straight(_ p: SIMD4<Double>) -> SIMD4<Double> {
        p.w > 0 ? SIMD4(min(p.x / p.w, 1), min(p.y / p.w, 1), min(p.z / p.w, 1), p.w) : SIMD4(0, 0, 0, 0)
    }
}
