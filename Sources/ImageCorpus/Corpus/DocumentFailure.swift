/// The documents' failures D1–D13 of `shared/DESIGN.md`, which corpus cases are tagged with.
public enum DocumentFailure: String, CaseIterable, Sendable, Codable, Comparable {
    case d1 = "D1", d2 = "D2", d3 = "D3", d4 = "D4", d5 = "D5", d6 = "D6", d7 = "D7"
    case d8 = "D8", d9 = "D9", d10 = "D10", d11 = "D11", d12 = "D12", d13 = "D13"

    /// One line naming the failure, as DESIGN.md words it.
    public var title: String {
        switch self {
        case .d1: return "24 bpp RGB with no alpha rejected by bitmap-context creation"
        case .d2: return "straight alpha-last 8 bpc / 32 bpp"
        case .d3: return "indexed colour space"
        case .d4: return "16 bits per component"
        case .d5: return "EXIF orientations 1–8, output must be upright"
        case .d6: return "pink tint: alpha / byte order misread"
        case .d7: return "transparent border or rounded corners come out black"
        case .d8: return "scale factor (retina @2x) ignored"
        case .d9: return "huge images exhaust memory"
        case .d10: return "no antialiasing when shrinking"
        case .d11: return "resizing is slow"
        case .d12: return "bitmap context built from the source's bytesPerRow / bitmapInfo"
        case .d13: return "animated GIF / APNG frames"
        }
    }

    /// The failures that concern the *input* (its format, orientation, scale or animation):
    /// each must have a case in the quick profile. D9 (size), D10 and D11 (processing) do not.
    public static let inputFailures: [DocumentFailure] = [.d1, .d2, .d3, .d4, .d5, .d6, .d7, .d8, .d12, .d13]

    public static func < (a: Self, b: Self) -> Bool { a.number < b.number }
    var number: Int { Int(rawValue.dropFirst()) ?? 0 }
}

/// The bug classes B1–B29 of `shared/research/resizer-anchors.md` §5.
public enum BugClass: String, CaseIterable, Sendable, Codable, Comparable {
    case b1 = "B1", b2 = "B2", b3 = "B3", b4 = "B4", b5 = "B5", b6 = "B6", b7 = "B7", b8 = "B8"
    case b9 = "B9", b10 = "B10", b11 = "B11", b12 = "B12", b13 = "B13", b14 = "B14", b15 = "B15"
    case b16 = "B16", b17 = "B17", b18 = "B18", b19 = "B19", b20 = "B20", b21 = "B21", b22 = "B22"
    case b23 = "B23", b24 = "B24", b25 = "B25", b26 = "B26", b27 = "B27", b28 = "B28", b29 = "B29"

    /// The class name of the catalogue's summary table.
    public var title: String {
        switch self {
        case .b1: return "unsupported pixel format / context creation"
        case .b2: return "channel order swap"
        case .b3: return "colour-model misread"
        case .b4: return "straight-alpha resampling"
        case .b5: return "double / wrong premultiply, precision"
        case .b6: return "alpha lost → black/white background"
        case .b7: return "tRNS / colour key ignored"
        case .b8: return "palette / low bit depth"
        case .b9: return "16-bit"
        case .b10: return "gray / gray+alpha"
        case .b11: return "gamma-space averaging"
        case .b12: return "shrink-on-load side effects"
        case .b13: return "CMYK/YCCK JPEG inversion"
        case .b14: return "ICC dropped / not applied"
        case .b15: return "orientation ignored"
        case .b16: return "mirrored orientations wrong"
        case .b17: return "orientation applied twice / tag kept"
        case .b18: return "orientation stored elsewhere (PNG eXIf, TIFF 274)"
        case .b19: return "half-pixel offset"
        case .b20: return "edge / border and normalisation"
        case .b21: return "ringing without clamp / wrap"
        case .b22: return "output-size rounding"
        case .b23: return "fill / crop / anchor semantics"
        case .b24: return "scale factor (points vs pixels)"
        case .b25: return "huge images / bombs / OOM"
        case .b26: return "progressive JPEG"
        case .b27: return "interlaced PNG"
        case .b28: return "embedded thumbnail returned"
        case .b29: return "animated GIF/APNG frames"
        }
    }

    /// The classes about the input's pixel format, container variant, colour statement, embedded
    /// thumbnail, orientation or animation that the corpus covers in the quick profile. Not here:
    /// B25 (size, not format: the fuzzer's huge-header files) and the processing classes.
    public static let formatClasses: [BugClass] = [.b1, .b2, .b3, .b6, .b7, .b8, .b9, .b10, .b13, .b14, .b15, .b16, .b17, .b18, .b24,
                                                   .b26, .b27, .b28, .b29]

    public static func < (a: Self, b: Self) -> Bool { a.number < b.number }
    var number: Int { Int(rawValue.dropFirst()) ?? 0 }
}
