import ImageCore

/// The sRGB transfer curves (IEC 61966-2-1) on 0…1, sampled at steps of 1/65535 and read by
/// linear interpolation: exact to Float precision for any value, not only for stored codes.
///
/// Interpolation error is at most h²/8 · max|f″| on each step (h = 1/65535). The encoding curve
/// bends most just above its linear segment (x = 0.0031308, |f″| ≈ 2,400), the decoding curve at
/// 1 (|f″| ≈ 3), so the error stays below 1e-7 of full scale, except on the one step that holds
/// the joint of the linear and the power segment, where the slope jumps (12.92 to 12.70 when
/// encoding): there it is at most h · 0.22 / 4 ≈ 8.4e-7, 0.0002 of an 8-bit code. Reading the
/// nearest sample instead would cost up to 12.92 · ½ / 65535 of full scale in the darkest
/// tones, 0.013 of an 8-bit code.
enum SRGBCurveTable {
    /// Encoding (linear → sRGB-encoded): f(i / 65535) for i in 0…65535, then the last sample
    /// again, so that the step above every index exists.
    static let encoding: [Float] = samples(SRGBTransfer.fromLinear)
    /// Decoding (sRGB-encoded → linear), laid out as ``encoding``.
    static let decoding: [Float] = samples(SRGBTransfer.toLinear)

    private static func samples(_ f: (Double) -> Double) -> [Float] {
        var table = (0...65535).map { Float(f(Double($0) / 65535)) }
        table.append(table[65535])
        return table
    }

    /// The curve sampled in `table` (``encoding`` or ``decoding``) at `v` in 0…1.
    @inline(__always)
    static func value(at v: Float, in table: UnsafeBufferPointer<Float>) -> Float {
        let t = v * 65535
        let i = min(Int(t), 65535)
        let f = t - Float(i)
        return table[i] + f * (table[i + 1] - table[i])
    }
}
