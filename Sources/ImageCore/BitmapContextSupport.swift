/// Whether `CGBitmapContextCreate` accepts a pixel format, per Apple's table of supported
/// context formats (Technical Q&A QA1037 and the Quartz 2D Programming Guide; transcribed in
/// `Tests/Fixtures/reference/quartz-bitmap-formats.md`).
///
/// Images *decode* in many more formats than a context accepts: drawing a 24-bit RGB, a
/// straight-alpha RGBA, an indexed or a 16-bit image into a context created with the image's
/// own parameters fails with "unsupported parameter combination" (documents' failures D1–D4, D12).
public struct BitmapContextVerdict: Sendable, Hashable {
    /// Whether the format is a supported context format on iOS.
    public var iOS: Bool
    /// Whether it is supported on macOS (some rows need 10.3 or 10.4, long since universal).
    public var macOS: Bool
    /// Why it is rejected, in Quartz's terms; `nil` when both platforms accept it.
    public var reason: String?
    /// A context format to draw into instead on iOS (the format itself when supported).
    public var iOSTarget: PixelFormat
    /// A context format to draw into instead on macOS.
    public var macOSTarget: PixelFormat
}

public enum BitmapContextSupport {
    /// One row of the supported-formats table.
    private struct Row {
        var model: ColorModel
        var bitsPerComponent: Int
        var alpha: [AlphaInfo]
        var isFloat: Bool
        var iOS: Bool
    }

    /// Apple's table; every row is supported on macOS.
    private static let table: [Row] = [
        Row(model: .none, bitsPerComponent: 8, alpha: [.only], isFloat: false, iOS: true),
        Row(model: .gray, bitsPerComponent: 8, alpha: [.none, .only], isFloat: false, iOS: true),
        Row(model: .gray, bitsPerComponent: 16, alpha: [.none], isFloat: false, iOS: false),
        Row(model: .gray, bitsPerComponent: 32, alpha: [.none], isFloat: true, iOS: false),
        Row(model: .rgb, bitsPerComponent: 5, alpha: [.noneSkipFirst], isFloat: false, iOS: true),
        Row(model: .rgb, bitsPerComponent: 8, alpha: [.noneSkipFirst, .noneSkipLast, .premultipliedFirst, .premultipliedLast], isFloat: false, iOS: true),
        Row(model: .rgb, bitsPerComponent: 16, alpha: [.premultipliedLast, .noneSkipLast], isFloat: false, iOS: false),
        Row(model: .rgb, bitsPerComponent: 32, alpha: [.noneSkipLast, .premultipliedLast], isFloat: true, iOS: false),
        Row(model: .cmyk(inverted: false), bitsPerComponent: 8, alpha: [.none], isFloat: false, iOS: false),
        Row(model: .cmyk(inverted: false), bitsPerComponent: 16, alpha: [.none], isFloat: false, iOS: false),
        Row(model: .cmyk(inverted: false), bitsPerComponent: 32, alpha: [.none], isFloat: true, iOS: false),
    ]

    private static func sameModel(_ a: ColorModel, _ b: ColorModel) -> Bool {
        switch (a, b) {
        case (.cmyk, .cmyk), (.gray, .gray), (.rgb, .rgb), (.none, .none): return true
        default: return false
        }
    }

    /// The verdict for drawing into a context created with `format`'s own parameters.
    public static func verdict(for format: PixelFormat) -> BitmapContextVerdict {
        let row = table.first {
            sameModel($0.model, format.colorModel) && $0.bitsPerComponent == format.bitsPerComponent
                && $0.isFloat == format.isFloat && $0.alpha.contains(format.alphaInfo)
        }
        let iOS = row?.iOS ?? false, macOS = row != nil
        var reason: String?
        if !macOS || !iOS {
            reason = rejection(format, onlyIOS: macOS)
        }
        return BitmapContextVerdict(iOS: iOS, macOS: macOS, reason: reason,
                                    iOSTarget: iOS ? format : drawTarget(for: format, iOS: true),
                                    macOSTarget: macOS ? format : drawTarget(for: format, iOS: false))
    }

    /// What the context creation error would be about.
    private static func rejection(_ f: PixelFormat, onlyIOS: Bool) -> String {
        let combo = "\(f.colorComponentCount) components, \(f.bitsPerComponent) bits-per-component, \(f.bitsPerPixel) bits-per-pixel, \(f.alphaInfo.quartzName)"
        if onlyIOS { return "iOS supports no \(f.bitsPerComponent)-bit \(f.colorModel.shortName) context format (\(combo))" }
        switch f.colorModel {
        case .indexed: return "unsupported colorspace: indexed (kCGColorSpaceModelIndexed) is not a context colour space"
        case .gray where f.alphaInfo.hasSlot: return "unsupported parameter combination: gray with an alpha component (\(combo))"
        default:
            if f.alphaInfo == .first || f.alphaInfo == .last {
                return "unsupported parameter combination: straight alpha \(f.alphaInfo.quartzName) is not a context format; use the premultiplied variant (\(combo))"
            }
            if f.alphaInfo == .none && f.colorModel == .rgb {
                return "unsupported parameter combination: \(f.bitsPerPixel)-bit RGB without an alpha or skip byte (\(combo))"
            }
            return "unsupported parameter combination (\(combo))"
        }
    }

    /// The supported format to draw into: 8-bit premultiplied ARGB little-endian (iOS's native
    /// BGRA) for anything with alpha or colour, 8-bit gray for opaque gray, and on macOS
    /// 16-bit premultiplied RGBA / 16-bit gray when the source has more than 8 bits.
    public static func drawTarget(for format: PixelFormat, iOS: Bool) -> PixelFormat {
        let deep = format.bitsPerComponent > 8 && !iOS
        let gray: Bool = {
            if case .gray = format.colorModel { return true }
            return false
        }()
        if gray && !format.alphaInfo.hasAlpha {
            return PixelFormat(colorModel: .gray, bitsPerComponent: deep ? 16 : 8)
        }
        if format.alphaInfo == .only {
            return PixelFormat(colorModel: .none, bitsPerComponent: 8, alphaInfo: .only)
        }
        if deep {
            return PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: format.hasAlpha ? .premultipliedLast : .noneSkipLast)
        }
        return PixelFormat(colorModel: .rgb, bitsPerComponent: 8,
                           alphaInfo: format.hasAlpha ? .premultipliedFirst : .noneSkipFirst, byteOrder: .little32)
    }
}
