import ImageCore

/// A pixel format in Quartz terms, as `manifest.json` records it: the `CGColorSpaceModel`,
/// bits per component and per pixel, the `CGImageAlphaInfo`, the byte order flag and
/// `kCGBitmapFloatComponents`.
public struct PixelFormatRecord: Codable, Hashable, Sendable {
    /// `kCGColorSpaceModelRGB`, `…Monochrome`, `…CMYK`, `…Indexed` or `…Unknown` (alpha only).
    public var colorModel: String
    /// Whether CMYK values are Adobe-inverted (255 − ink), as JPEG files with an APP14 marker store them.
    public var cmykInverted: Bool?
    /// Bits per component: 1, 2, 4, 5, 8, 16 or 32.
    public var bitsPerComponent: Int
    /// Bits per pixel, padding included.
    public var bitsPerPixel: Int
    /// The `CGImageAlphaInfo` constant name, e.g. `kCGImageAlphaLast`.
    public var alphaInfo: String
    /// The `CGBitmapInfo` byte order constant name, e.g. `kCGBitmapByteOrder32Little`.
    public var byteOrder: String
    /// `kCGBitmapFloatComponents`.
    public var floatComponents: Bool

    /// The record of `format` (a palette's entries are not recorded: they depend on the scene).
    public init(_ format: PixelFormat) {
        colorModel = format.colorModel.quartzName
        if case .cmyk(let inverted) = format.colorModel { cmykInverted = inverted }
        bitsPerComponent = format.bitsPerComponent
        bitsPerPixel = format.bitsPerPixel
        alphaInfo = format.alphaInfo.quartzName
        byteOrder = format.byteOrder.quartzName
        floatComponents = format.isFloat
    }

    /// One line, e.g. `kCGColorSpaceModelRGB 8 bpc 32 bpp kCGImageAlphaLast`.
    public var summary: String {
        var s = "\(colorModel)\(cmykInverted == true ? " (Adobe inverted)" : "") \(bitsPerComponent) bpc \(bitsPerPixel) bpp \(alphaInfo)"
        if byteOrder != ByteOrder.default.quartzName { s += " \(byteOrder)" }
        if floatComponents { s += " float" }
        return s
    }
}
