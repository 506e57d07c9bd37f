import ImageCore

/// One colour of a scene: straight (not premultiplied) red, green, blue in linear light, and
/// alpha, each nominally 0…1.
public struct LinearRGBA: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour given as 8-bit sRGB codes, decoded exactly with the IEC 61966-2-1 transfer
    /// (``SRGBTransfer``), so an 8-bit rendering of it gives back the same codes.
    /// - Parameters: red, green, blue: 0…255 codes; alpha: 0…1.
    public static func sRGB(_ red: Int, _ green: Int, _ blue: Int, alpha: Double = 1) -> LinearRGBA {
        LinearRGBA(red: SRGBTransfer.linearFromByte[red], green: SRGBTransfer.linearFromByte[green],
                   blue: SRGBTransfer.linearFromByte[blue], alpha: alpha)
    }

    /// A gray of linear intensity `value` (0…1), opaque.
    public static func gray(linear value: Double) -> LinearRGBA {
        LinearRGBA(red: value, green: value, blue: value)
    }

    /// Porter–Duff `self` over `below`, in linear light, straight in and out. Where both are
    /// transparent the result keeps `below`'s colour (so hidden colours stay hidden, not black).
    public func over(_ below: LinearRGBA) -> LinearRGBA {
        let a = alpha + below.alpha * (1 - alpha)
        guard a > 0 else { return below }
        func mix(_ top: Double, _ bottom: Double) -> Double { (top * alpha + bottom * below.alpha * (1 - alpha)) / a }
        return LinearRGBA(red: mix(red, below.red), green: mix(green, below.green), blue: mix(blue, below.blue), alpha: a)
    }
}
