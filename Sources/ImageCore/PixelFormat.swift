/// How the pixels of a bitmap are laid out, in Quartz's vocabulary.
///
/// A `PixelFormat` says everything `CGBitmapContextCreate` / `CGImageCreate` can say:
/// colour model, bits per component, where the alpha sits and whether colour is premultiplied
/// by it, the byte order of 16- and 32-bit words, and whether components are floats.
/// Bytes per row (with padding) belongs to the ``Bitmap``, not to the format.
///
/// Memory layout rules (these are the Quartz rules):
/// - Components are stored in the *logical* order `alpha-first? colour… alpha-last?`,
///   most significant first, as if the pixel were one big-endian word.
/// - ``byteOrder`` then says how 16- or 32-bit words are actually stored: `.little32` with
///   8-bit ARGB puts B, G, R, A in memory (the "BGRA" layout of Windows and iOS).
/// - Components narrower than a byte (1, 2, 4 bits; gray, indexed or alpha-only) are packed
///   most significant bit first, each row starting on a byte boundary (the PNG convention).
/// - 5 bits per component is the 16-bit `-RRRRRGGGGGBBBBB` layout (`kCGImageAlphaNoneSkipFirst`).
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// The colour model of the colour components.
    public var colorModel: ColorModel
    /// Bits in one component: 1, 2, 4, 5 (16-bit 555 RGB), 8, 16, or 32 (float only).
    public var bitsPerComponent: Int
    /// Where alpha (or an unused padding component) sits, and how colour relates to it.
    public var alphaInfo: AlphaInfo
    /// How 16- and 32-bit words are stored in memory.
    public var byteOrder: ByteOrder
    /// Whether components are IEEE 754 single-precision floats (`kCGBitmapFloatComponents`);
    /// only with 32 bits per component. Nominal range 0…1.
    public var isFloat: Bool

    /// Creates a format. Use ``validated()`` to check the combination is representable.
    public init(colorModel: ColorModel, bitsPerComponent: Int, alphaInfo: AlphaInfo = .none,
                byteOrder: ByteOrder = .default, isFloat: Bool = false) {
        self.colorModel = colorModel
        self.bitsPerComponent = bitsPerComponent
        self.alphaInfo = alphaInfo
        self.byteOrder = byteOrder
        self.isFloat = isFloat
    }

    /// Number of colour components (0 for alpha-only, 1 gray/indexed, 3 RGB, 4 CMYK).
    public var colorComponentCount: Int {
        alphaInfo == .only ? 0 : colorModel.componentCount
    }

    /// Number of component slots in one pixel, counting alpha and skipped padding.
    public var slotCount: Int {
        alphaInfo == .only ? 1 : colorComponentCount + (alphaInfo.hasSlot ? 1 : 0)
    }

    /// Bits in one pixel, padding included (16 for the 555 layout).
    public var bitsPerPixel: Int {
        bitsPerComponent == 5 ? 16 : slotCount * bitsPerComponent
    }

    /// Whether the pixels carry an alpha value (straight, premultiplied or alpha-only).
    public var hasAlpha: Bool { alphaInfo.hasAlpha || colorModel.paletteHasAlpha }

    /// Whether pixels are palette indices.
    public var isIndexed: Bool {
        if case .indexed = colorModel { return true }
        return false
    }

    /// Whether colour components are stored premultiplied by alpha.
    public var isPremultiplied: Bool { alphaInfo.isPremultiplied }

    /// The largest integer component value (`2^bitsPerComponent − 1`); 1 for floats.
    public var maxComponentValue: Int {
        isFloat ? 1 : (1 << bitsPerComponent) - 1
    }

    /// The minimum bytes per row for `width` pixels, without padding.
    public func minimumBytesPerRow(width: Int) -> Int {
        (width * bitsPerPixel + 7) / 8
    }

    /// Checks that the combination can be laid out; returns `self` or throws.
    ///
    /// This is *representability*, not Quartz context support: see ``BitmapContextSupport``.
    public func validated() throws(PixelFormatError) -> PixelFormat {
        let bpc = bitsPerComponent
        switch bpc {
        case 1, 2, 4:
            guard slotCount == 1, !isFloat else {
                throw .invalid(self, "\(bpc)-bit components are only for single-component gray, indexed or alpha-only pixels")
            }
        case 5:
            guard colorModel == .rgb, alphaInfo == .noneSkipFirst || alphaInfo == .first || alphaInfo == .premultipliedFirst, !isFloat else {
                throw .invalid(self, "5 bits per component is only the 16-bit x/a-RRRRRGGGGGBBBBB layout")
            }
        case 8:
            guard !isFloat else { throw .invalid(self, "float components are 32 bits") }
        case 16:
            guard !isFloat else { throw .invalid(self, "half floats are not supported") }
        case 32:
            guard isFloat else { throw .invalid(self, "32-bit components are floats (kCGBitmapFloatComponents)") }
        default:
            throw .invalid(self, "\(bpc) bits per component is not a Quartz layout")
        }
        if case .indexed(let palette) = colorModel {
            guard bpc <= 8, alphaInfo == .none else {
                throw .invalid(self, "indexed pixels are 1, 2, 4 or 8-bit indices without an alpha component")
            }
            guard palette.count <= (1 << bpc), palette.count > 0 else {
                throw .invalid(self, "a \(bpc)-bit palette holds 1…\(1 << bpc) entries, not \(palette.count)")
            }
        }
        if alphaInfo == .only, slotCount != 1 { throw .invalid(self, "alpha-only has one component") }
        if colorModel == .none, alphaInfo != .only {
            throw .invalid(self, "colour model none is only for alpha-only bitmaps")
        }
        switch byteOrder {
        case .little16, .big16:
            guard bpc == 16 || bpc == 5 else { throw .invalid(self, "16-bit byte order needs 16-bit words") }
        case .little32, .big32:
            guard bpc == 32 || (bpc == 8 && slotCount == 4) else {
                throw .invalid(self, "32-bit byte order needs 32-bit words (float components or 4 × 8-bit)")
            }
        case .default: break
        }
        return self
    }

    /// A short human description, e.g. `RGBA 8-bit straight (kCGImageAlphaLast)`.
    public var description: String {
        var s = colorModel.shortName
        s += " \(bitsPerComponent)\(isFloat ? "-bit float" : "-bit")"
        s += ", \(alphaInfo.quartzName)"
        if byteOrder != .default { s += ", \(byteOrder.quartzName)" }
        return s
    }
}

/// A pixel format that cannot be laid out.
public enum PixelFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The combination of fields is not representable; the string says which rule it breaks.
    case invalid(PixelFormat, String)

    public var description: String {
        switch self {
        case .invalid(let f, let why): return "invalid pixel format \(f): \(why)"
        }
    }
}

/// The colour model of a bitmap's colour components (Quartz `CGColorSpaceModel`).
public enum ColorModel: Hashable, Sendable {
    /// No colour, used with ``AlphaInfo/only`` (a mask).
    case none
    /// One gray component; 0 is black.
    case gray
    /// Red, green, blue, in that logical order.
    case rgb
    /// Cyan, magenta, yellow, black. `inverted` is the Adobe convention (JPEG with an APP14
    /// marker, Photoshop): stored values are 255 − ink, so 0 means full ink.
    case cmyk(inverted: Bool)
    /// Indices into a palette of up to 256 RGBA entries (`kCGColorSpaceModelIndexed`).
    case indexed(Palette)

    /// Number of stored colour components of one pixel.
    public var componentCount: Int {
        switch self {
        case .none: return 0
        case .gray, .indexed: return 1
        case .rgb: return 3
        case .cmyk: return 4
        }
    }

    /// Whether this is an indexed model whose palette has a non-opaque entry.
    public var paletteHasAlpha: Bool {
        if case .indexed(let p) = self { return p.hasAlpha }
        return false
    }

    /// The model's name as `imglab info` prints it.
    public var shortName: String {
        switch self {
        case .none: return "Alpha"
        case .gray: return "Gray"
        case .rgb: return "RGB"
        case .cmyk(let inv): return inv ? "CMYK (Adobe inverted)" : "CMYK"
        case .indexed(let p): return "Indexed(\(p.count)\(p.hasAlpha ? ", with alpha" : ""))"
        }
    }

    /// The Quartz `CGColorSpaceModel` constant name.
    public var quartzName: String {
        switch self {
        case .none: return "kCGColorSpaceModelUnknown"
        case .gray: return "kCGColorSpaceModelMonochrome"
        case .rgb: return "kCGColorSpaceModelRGB"
        case .cmyk: return "kCGColorSpaceModelCMYK"
        case .indexed: return "kCGColorSpaceModelIndexed"
        }
    }
}

/// A colour table of up to 256 entries, each with 8-bit straight red, green, blue and alpha.
public struct Palette: Hashable, Sendable {
    /// One palette entry: 8-bit components, straight (not premultiplied) alpha.
    public struct Entry: Hashable, Sendable {
        public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        }
    }
    /// The entries, index 0 first.
    public var entries: [Entry]
    public init(_ entries: [Entry]) { self.entries = entries }
    /// Number of entries.
    public var count: Int { entries.count }
    /// Whether any entry is not fully opaque (PNG tRNS, GIF transparent index).
    public var hasAlpha: Bool { entries.contains { $0.alpha != 255 } }
}

/// Where alpha sits in a pixel and how colour relates to it (Quartz `CGImageAlphaInfo`).
public enum AlphaInfo: String, CaseIterable, Hashable, Sendable {
    /// No alpha, no padding (`kCGImageAlphaNone`).
    case none
    /// An unused padding component first (`kCGImageAlphaNoneSkipFirst`, XRGB).
    case noneSkipFirst
    /// An unused padding component last (`kCGImageAlphaNoneSkipLast`, RGBX).
    case noneSkipLast
    /// Straight alpha first (`kCGImageAlphaFirst`, ARGB).
    case first
    /// Straight alpha last (`kCGImageAlphaLast`, RGBA).
    case last
    /// Premultiplied alpha first (`kCGImageAlphaPremultipliedFirst`).
    case premultipliedFirst
    /// Premultiplied alpha last (`kCGImageAlphaPremultipliedLast`).
    case premultipliedLast
    /// Alpha only, no colour (`kCGImageAlphaOnly`).
    case only

    /// Whether the pixel has an alpha or padding slot besides colour.
    public var hasSlot: Bool { self != .none && self != .only }
    /// Whether the slot (or the only component) holds alpha.
    public var hasAlpha: Bool {
        switch self {
        case .first, .last, .premultipliedFirst, .premultipliedLast, .only: return true
        default: return false
        }
    }
    /// Whether the alpha or padding slot comes before the colour components.
    public var isFirst: Bool { self == .first || self == .premultipliedFirst || self == .noneSkipFirst }
    /// Whether colour is premultiplied by alpha.
    public var isPremultiplied: Bool { self == .premultipliedFirst || self == .premultipliedLast }

    /// The Quartz constant name, e.g. `kCGImageAlphaLast`.
    public var quartzName: String {
        switch self {
        case .none: return "kCGImageAlphaNone"
        case .noneSkipFirst: return "kCGImageAlphaNoneSkipFirst"
        case .noneSkipLast: return "kCGImageAlphaNoneSkipLast"
        case .first: return "kCGImageAlphaFirst"
        case .last: return "kCGImageAlphaLast"
        case .premultipliedFirst: return "kCGImageAlphaPremultipliedFirst"
        case .premultipliedLast: return "kCGImageAlphaPremultipliedLast"
        case .only: return "kCGImageAlphaOnly"
        }
    }
}

/// How multi-byte words are stored (Quartz `CGBitmapInfo` byte-order flags).
public enum ByteOrder: String, CaseIterable, Hashable, Sendable {
    /// `kCGBitmapByteOrderDefault`: components in logical order, 16-bit values big-endian,
    /// 32-bit floats in host order (little-endian on every platform imglab runs on).
    case `default`
    /// `kCGBitmapByteOrder16Little`: each 16-bit word stored little-endian.
    case little16
    /// `kCGBitmapByteOrder16Big`.
    case big16
    /// `kCGBitmapByteOrder32Little`: each 32-bit word (a float, or 4 × 8-bit) reversed.
    case little32
    /// `kCGBitmapByteOrder32Big`.
    case big32

    /// The Quartz constant name.
    public var quartzName: String {
        switch self {
        case .default: return "kCGBitmapByteOrderDefault"
        case .little16: return "kCGBitmapByteOrder16Little"
        case .big16: return "kCGBitmapByteOrder16Big"
        case .little32: return "kCGBitmapByteOrder32Little"
        case .big32: return "kCGBitmapByteOrder32Big"
        }
    }
}

extension PixelFormat {
    /// 8-bit gray, no alpha.
    public static let gray8 = PixelFormat(colorModel: .gray, bitsPerComponent: 8)
    /// 16-bit gray, big-endian.
    public static let gray16 = PixelFormat(colorModel: .gray, bitsPerComponent: 16)
    /// 8-bit gray + straight alpha (not a Quartz context format).
    public static let grayAlpha8 = PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last)
    /// 16-bit gray + straight alpha, big-endian.
    public static let grayAlpha16 = PixelFormat(colorModel: .gray, bitsPerComponent: 16, alphaInfo: .last)
    /// 24-bit RGB (D1's format).
    public static let rgb8 = PixelFormat(colorModel: .rgb, bitsPerComponent: 8)
    /// 48-bit RGB, big-endian.
    public static let rgb16 = PixelFormat(colorModel: .rgb, bitsPerComponent: 16)
    /// 32-bit RGBA, straight alpha last (D2's format).
    public static let rgba8 = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .last)
    /// 64-bit RGBA, straight alpha, big-endian.
    public static let rgba16 = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last)
    /// 32-bit RGBA, premultiplied alpha last (a Quartz context format).
    public static let rgba8Premultiplied = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedLast)
    /// 32-bit BGRA in memory: premultiplied ARGB, 32-bit little-endian (iOS's native layout).
    public static let bgra8Premultiplied = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .premultipliedFirst, byteOrder: .little32)
    /// 128-bit RGBA float, straight alpha, host order.
    public static let rgbaFloat = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, alphaInfo: .last, isFloat: true)
    /// 32-bit CMYK, plain (0 = no ink).
    public static let cmyk8 = PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: 8)
}
