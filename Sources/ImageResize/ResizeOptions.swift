import ImageCore

/// How an operation resamples, and what it delivers. One value for every operation.
public struct ResizeOptions: Sendable {
    /// The resampling kernel (default Lanczos3, i.e. ``InterpolationQuality/high``).
    public var kernel: Kernel
    /// The space in which pixels are averaged (default linear light, which is physically right;
    /// `.sRGB` averages the stored codes, as most browsers and CoreGraphics do).
    public var lightSpace: LightSpace
    /// The output pixel format; `nil` picks one by ``OutputFormat/result(for:needsAlpha:)``.
    public var outputFormat: PixelFormat?
    /// When true, an image already inside the box keeps its size (no upscaling).
    public var onlyShrink: Bool
    /// When true (and ``outputFormat`` is `nil`), a result that would be premultiplied is delivered
    /// with straight alpha in the same layout (``OutputFormat/withStraightAlpha(_:)``). For a file
    /// format that stores only straight alpha (PNG, GIF, BMP): the colours are then rounded once,
    /// from the working form, instead of twice (premultiplied, then divided by alpha and rounded
    /// again). Composited, the rounding error stays ≤ ½·α code value instead of up to ½ + ½·α.
    public var straightAlpha: Bool
    /// What becomes of colours a file states with an ICC profile that is not sRGB's, in a
    /// file-to-file resize (``ResizeColour``; default: the profile kept, averaged in its own
    /// linear light).
    public var colour: ResizeColour = .keep

    public init(kernel: Kernel = .lanczos3, lightSpace: LightSpace = .linear, outputFormat: PixelFormat? = nil,
                onlyShrink: Bool = false, straightAlpha: Bool = false) {
        self.kernel = kernel
        self.lightSpace = lightSpace
        self.outputFormat = outputFormat
        self.onlyShrink = onlyShrink
        self.straightAlpha = straightAlpha
    }

    /// The format an operation delivers: ``outputFormat`` if set, else `natural` (the operation's
    /// own choice), with straight alpha when ``straightAlpha`` asks for it.
    func deliveredFormat(natural: PixelFormat) -> PixelFormat {
        if let outputFormat { return outputFormat }
        return straightAlpha ? OutputFormat.withStraightAlpha(natural) : natural
    }

    /// Options for a Quartz interpolation quality.
    public init(quality: InterpolationQuality, lightSpace: LightSpace = .linear) {
        self.init(kernel: quality.kernel, lightSpace: lightSpace)
    }
}

/// Why an operation could not run.
public enum ResizeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A requested size or rectangle is empty, negative or outside the image.
    case invalidGeometry(String)
    /// The requested output format cannot hold the result (e.g. an indexed palette without the colours).
    case conversion(ConversionError)
    /// The colours the file's profile states cannot be converted (Little CMS's reason).
    case colour(String)

    public var description: String {
        switch self {
        case .invalidGeometry(let s): return "invalid geometry: \(s)"
        case .conversion(let e): return "cannot write the result: \(e)"
        case .colour(let why): return "cannot convert the colours of the file's ICC profile: \(why)"
        }
    }
}

/// Which pixel format an operation delivers when the caller does not say.
public enum OutputFormat {
    /// The input's own layout where it can hold the result exactly: 16-bit stays 16-bit, float
    /// stays float, alpha placement, premultiplication and byte order are kept (BGRA stays BGRA).
    /// Layouts that cannot hold resampled values become their nearest 8-bit relative: palettes →
    /// RGB(A) 8, 1/2/4-bit gray → gray 8, 555 → RGB 8, CMYK → RGB 8 or 16 (the working form is RGB),
    /// with straight alpha when the CMYK has alpha.
    /// With `needsAlpha` (borders, rounded corners) a format without alpha gains one: gray → gray +
    /// alpha, RGB → straight RGBA, skip-first/last → premultiplied first/last in the same byte order.
    public static func result(for input: PixelFormat, needsAlpha: Bool = false) -> PixelFormat {
        var f: PixelFormat
        switch input.colorModel {
        case .indexed(let palette):
            f = palette.hasAlpha ? .rgba8 : .rgb8
        case .cmyk:
            let alpha = input.alphaInfo.hasAlpha
            f = input.bitsPerComponent == 16 ? (alpha ? .rgba16 : .rgb16) : (alpha ? .rgba8 : .rgb8)
        case .none:
            f = PixelFormat(colorModel: .none, bitsPerComponent: input.bitsPerComponent >= 8 ? input.bitsPerComponent : 8,
                            alphaInfo: .only, isFloat: input.isFloat)
        case .gray, .rgb:
            f = input
            if input.bitsPerComponent < 8 { f = PixelFormat(colorModel: input.colorModel, bitsPerComponent: 8, alphaInfo: input.alphaInfo) }
            if input.bitsPerComponent == 5 { f = .rgb8 }
        }
        if needsAlpha && !f.alphaInfo.hasAlpha {
            switch f.alphaInfo {
            case .noneSkipFirst: f.alphaInfo = .premultipliedFirst
            case .noneSkipLast: f.alphaInfo = .premultipliedLast
            default:
                if f.colorModel == .none { f.alphaInfo = .only } else { f.alphaInfo = .last }
                if f.bitsPerComponent == 8 && f.byteOrder != .default && f.slotCount != 4 { f.byteOrder = .default }
            }
        }
        return f
    }

    /// `format` with premultiplied alpha made straight (premultiplied first → first, last → last);
    /// every other format as it is.
    public static func withStraightAlpha(_ format: PixelFormat) -> PixelFormat {
        var f = format
        switch f.alphaInfo {
        case .premultipliedFirst: f.alphaInfo = .first
        case .premultipliedLast: f.alphaInfo = .last
        default: break
        }
        return f
    }
}
