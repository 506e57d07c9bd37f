import ImageCore

/// What a pixel format cannot hold of a scene, applied to the scene point by point before
/// rendering, so that the source file and the oracle describe the same image.
///
/// The reductions follow ImageCore's conversion rules (`Bitmap.converted(to:)`): a format
/// without alpha keeps the *straight* colour (nothing is composited: colour hidden under
/// α = 0 becomes visible), and gray is `Y′ = 0.299 R′ + 0.587 G′ + 0.114 B′` of the
/// gamma-encoded values (Rec. 601 luma).
public enum ChannelReduction: String, CaseIterable, Sendable, Codable {
    /// Nothing is lost: RGBA formats.
    case none
    /// Alpha is dropped (set to 1): RGB, CMYK and JPEG formats, palettes without transparency.
    case opaque
    /// Colour becomes Rec. 601 luma of the encoded values; alpha is kept: gray + alpha.
    case gray
    /// Luma, and alpha dropped: gray formats.
    case grayOpaque
    /// Alpha becomes on/off at ½ (GIF's transparent index): α ≥ ½ → 1, else 0.
    case binaryAlpha

    /// The reduced colour of one scene point.
    public func apply(_ c: LinearRGBA) -> LinearRGBA {
        switch self {
        case .none: return c
        case .opaque: return LinearRGBA(red: c.red, green: c.green, blue: c.blue, alpha: 1)
        case .gray, .grayOpaque:
            let y = 0.299 * SRGBTransfer.fromLinear(c.red) + 0.587 * SRGBTransfer.fromLinear(c.green)
                + 0.114 * SRGBTransfer.fromLinear(c.blue)
            let l = SRGBTransfer.toLinear(y)
            return LinearRGBA(red: l, green: l, blue: l, alpha: self == .gray ? c.alpha : 1)
        case .binaryAlpha:
            return LinearRGBA(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha >= 0.5 ? 1 : 0)
        }
    }
}
