import ImageCore
import ImageCodecs

/// Every encoding the corpus uses: the pixel-format combinations, per container, that the
/// documents (D1–D13) and the bug catalogue (B1–B29) name. The `delivered` formats restate the
/// codecs' documented decoding rules (PNGCodec, JPEGCodec, GIFCodec, TIFFPixelPlan, BMPDecoder).
public enum EncodingCatalog {
    /// All encodings, in a fixed order (PNG, JPEG, GIF, TIFF, BMP, APNG, then the tagged ones, the
    /// JPEGs with an embedded thumbnail, WebP, HEIF and AVIF).
    public static let all: [Encoding] = png + jpeg + gif + tiff + bmp + apng + tagged + thumbnails + webp + heif

    /// The encoding with identifier `id`.
    public static func named(_ id: String) -> Encoding? { all.first { $0.id == id } }

    private static func make(_ id: String, _ container: ContainerFormat, _ storage: Encoding.Storage,
                             _ reduction: ChannelReduction, delivered: PixelFormat, stored: String, tolerance: Double?,
                             _ documents: [DocumentFailure], _ bugs: [BugClass], options: EncodeOptions = EncodeOptions()) -> Encoding {
        Encoding(id: id, container: container, storage: storage, options: options, reduction: reduction, delivered: delivered,
                 stored: stored, tolerance: tolerance, documents: documents, bugClasses: bugs)
    }

    private static func gray(_ bits: Int) -> PixelFormat { PixelFormat(colorModel: .gray, bitsPerComponent: bits) }
    private static func indexed(_ bits: Int) -> PixelFormat {
        PixelFormat(colorModel: .indexed(Palette([Palette.Entry(red: 0, green: 0, blue: 0)])), bitsPerComponent: bits)
    }
    private static func tol(_ bits: Int, straight: Bool = false) -> Double { Encoding.rounding(bits: bits, straightAlpha: straight) }

    static let png: [Encoding] = {
        var list: [Encoding] = []
        for bits in [1, 2, 4, 8, 16] {
            list.append(make("png-gray\(bits)", .png, .pixels(gray(bits)), .grayOpaque, delivered: gray(bits),
                             stored: "PNG colour type 0, \(bits)-bit", tolerance: tol(bits),
                             bits == 16 ? [.d4] : [], bits < 8 ? [.b1, .b8, .b10] : (bits == 16 ? [.b1, .b9, .b10] : [.b10])))
        }
        list.append(make("png-graya8", .png, .pixels(.grayAlpha8), .gray, delivered: .grayAlpha8,
                         stored: "PNG colour type 4, 8-bit", tolerance: tol(8, straight: true), [.d2], [.b1, .b10]))
        list.append(make("png-graya16", .png, .pixels(.grayAlpha16), .gray, delivered: .grayAlpha16,
                         stored: "PNG colour type 4, 16-bit", tolerance: tol(16, straight: true), [.d2, .d4], [.b1, .b9, .b10]))
        list.append(make("png-rgb8", .png, .pixels(.rgb8), .opaque, delivered: .rgb8,
                         stored: "PNG colour type 2, 8-bit", tolerance: tol(8), [.d1], [.b1]))
        list.append(make("png-rgb16", .png, .pixels(.rgb16), .opaque, delivered: .rgb16,
                         stored: "PNG colour type 2, 16-bit", tolerance: tol(16), [.d1, .d4], [.b1, .b9]))
        list.append(make("png-rgba8", .png, .pixels(.rgba8), .none, delivered: .rgba8,
                         stored: "PNG colour type 6, 8-bit", tolerance: tol(8, straight: true), [.d2, .d6, .d7], [.b1, .b4, .b5, .b6]))
        list.append(make("png-rgba16", .png, .pixels(.rgba16), .none, delivered: .rgba16,
                         stored: "PNG colour type 6, 16-bit", tolerance: tol(16, straight: true), [.d2, .d4], [.b1, .b9, .b6]))
        for bits in [1, 2, 4, 8] {
            list.append(make("png-palette\(bits)", .png, .exactPalette(bits: bits), .opaque, delivered: indexed(bits),
                             stored: "PNG colour type 3, \(bits)-bit indices, no tRNS", tolerance: tol(8), [.d3], [.b1, .b8]))
            list.append(make("png-palette\(bits)-trns", .png, .exactPalette(bits: bits), .none, delivered: indexed(bits),
                             stored: "PNG colour type 3, \(bits)-bit indices, tRNS", tolerance: tol(8, straight: true), [.d3, .d7], [.b1, .b6, .b7, .b8]))
        }
        list.append(make("png-rgba8-adam7", .png, .pixels(.rgba8), .none, delivered: .rgba8,
                         stored: "PNG colour type 6, 8-bit, Adam7 interlaced", tolerance: tol(8, straight: true), [.d2], [.b27],
                         options: EncodeOptions(interlaced: true)))
        list.append(make("png-rgb8-adam7", .png, .pixels(.rgb8), .opaque, delivered: .rgb8,
                         stored: "PNG colour type 2, 8-bit, Adam7 interlaced", tolerance: tol(8), [.d1], [.b27],
                         options: EncodeOptions(interlaced: true)))
        return list
    }()

    static let jpeg: [Encoding] = {
        func q(_ s: ChromaSubsampling, progressive: Bool = false) -> EncodeOptions {
            EncodeOptions(jpegQuality: 95, jpegSubsampling: s, jpegProgressive: progressive)
        }
        return [
            make("jpeg-gray", .jpeg, .pixels(.gray8), .grayOpaque, delivered: .gray8, stored: "JPEG baseline, 1 component (gray), quality 95",
                 tolerance: nil, [], [.b10], options: q(.s444)),
            make("jpeg-444", .jpeg, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "JPEG baseline YCbCr 4:4:4, quality 95",
                 tolerance: nil, [.d1], [.b3], options: q(.s444)),
            make("jpeg-422", .jpeg, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "JPEG baseline YCbCr 4:2:2, quality 95",
                 tolerance: nil, [.d1], [.b3], options: q(.s422)),
            make("jpeg-420", .jpeg, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "JPEG baseline YCbCr 4:2:0, quality 95",
                 tolerance: nil, [.d1], [.b3], options: q(.s420)),
            make("jpeg-progressive", .jpeg, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "JPEG progressive YCbCr 4:2:0, quality 95",
                 tolerance: nil, [.d1], [.b26], options: q(.s420, progressive: true)),
            make("jpeg-cmyk-adobe", .jpeg, .pixels(.cmyk8), .opaque, delivered: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8),
                 stored: "JPEG CMYK with Adobe APP14 (transform 0, inverted), quality 95", tolerance: nil, [], [.b1, .b3, .b13], options: q(.s444)),
        ]
    }()

    static let gif: [Encoding] = [
        make("gif-palette", .gif, .exactPalette(bits: 8), .opaque, delivered: indexed(8), stored: "GIF89a, global colour table",
             tolerance: tol(8), [.d3], [.b1, .b8]),
        make("gif-transparent", .gif, .exactPalette(bits: 8), .binaryAlpha, delivered: indexed(8),
             stored: "GIF89a, global colour table, transparent index", tolerance: tol(8, straight: true), [.d3, .d7], [.b6, .b7, .b8]),
        make("gif-interlaced", .gif, .exactPalette(bits: 8), .opaque, delivered: indexed(8), stored: "GIF89a, interlaced rows",
             tolerance: tol(8), [.d3], [.b8], options: EncodeOptions(interlaced: true)),
    ] + [FrameDisposal.unspecified, .none, .background, .previous].map { d in
        make("gif-anim-\(d.rawValue)", .gif, .animation(.gif(d)), .none, delivered: .rgba8,
             stored: "GIF89a, 3 frames, disposal \(d.rawValue), transparent index", tolerance: tol(8, straight: true), [.d13], [.b29])
    }

    static let tiff: [Encoding] = {
        let rgb16le = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, byteOrder: .little16)
        let rgba16le = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .last, byteOrder: .little16)
        let rgba16pre = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .premultipliedLast, byteOrder: .little16)
        let rgbFloat = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true)
        let planar = EncodeOptions(tiffPlanar: true)
        return [
            make("tiff-rgb8", .tiff, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "TIFF RGB 8-bit, LZW", tolerance: tol(8), [.d1], [.b1]),
            make("tiff-rgba8-assoc", .tiff, .pixels(.rgba8Premultiplied), .none, delivered: .rgba8Premultiplied,
                 stored: "TIFF RGBA 8-bit, ExtraSamples 1 (associated alpha)", tolerance: tol(8), [.d7], [.b5, .b6]),
            make("tiff-rgba8-unassoc", .tiff, .pixels(.rgba8), .none, delivered: .rgba8,
                 stored: "TIFF RGBA 8-bit, ExtraSamples 2 (unassociated alpha)", tolerance: tol(8, straight: true), [.d2], [.b1, .b4]),
            make("tiff-rgb16", .tiff, .pixels(rgb16le), .opaque, delivered: rgb16le, stored: "TIFF RGB 16-bit little-endian",
                 tolerance: tol(16), [.d4], [.b1, .b9]),
            make("tiff-rgba16-assoc", .tiff, .pixels(rgba16pre), .none, delivered: rgba16pre,
                 stored: "TIFF RGBA 16-bit, associated alpha", tolerance: tol(16), [.d4], [.b5, .b9]),
            make("tiff-rgba16-unassoc", .tiff, .pixels(rgba16le), .none, delivered: rgba16le,
                 stored: "TIFF RGBA 16-bit, unassociated alpha", tolerance: tol(16, straight: true), [.d2, .d4], [.b9]),
            make("tiff-float-rgb", .tiff, .pixels(rgbFloat), .opaque, delivered: rgbFloat,
                 stored: "TIFF RGB 32-bit IEEE float (SampleFormat 3), sRGB-encoded values", tolerance: 1e-6, [.d4], [.b1, .b9]),
            make("tiff-float-rgba", .tiff, .pixels(.rgbaFloat), .none, delivered: .rgbaFloat,
                 stored: "TIFF RGBA 32-bit float, unassociated alpha", tolerance: 1e-6, [.d2, .d4], [.b1, .b9]),
            make("tiff-palette", .tiff, .exactPalette(bits: 8), .opaque, delivered: indexed(8),
                 stored: "TIFF palette (Photometric 3), 8-bit indices", tolerance: tol(8), [.d3], [.b8]),
            make("tiff-cmyk", .tiff, .pixels(.cmyk8), .opaque, delivered: .cmyk8, stored: "TIFF CMYK 8-bit (Photometric 5, InkSet 1)",
                 tolerance: 2 * tol(8), [], [.b1, .b3, .b13]),
            make("tiff-gray8", .tiff, .pixels(.gray8), .grayOpaque, delivered: .gray8, stored: "TIFF gray 8-bit (MinIsBlack)",
                 tolerance: tol(8), [], [.b10]),
            make("tiff-gray16", .tiff, .pixels(PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16)), .grayOpaque,
                 delivered: PixelFormat(colorModel: .gray, bitsPerComponent: 16, byteOrder: .little16), stored: "TIFF gray 16-bit",
                 tolerance: tol(16), [.d4], [.b9, .b10]),
            make("tiff-rgb8-planar", .tiff, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "TIFF RGB 8-bit, PlanarConfiguration 2",
                 tolerance: tol(8), [.d12], [.b1], options: planar),
            make("tiff-rgba16-planar", .tiff, .pixels(rgba16le), .none, delivered: rgba16le,
                 stored: "TIFF RGBA 16-bit unassociated, PlanarConfiguration 2", tolerance: tol(16, straight: true), [.d4, .d12], [.b9], options: planar),
        ]
    }()

    static let bmp: [Encoding] = {
        let bgrx = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32)
        let bgra = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32)
        let rgb555 = PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst, byteOrder: .little16)
        return [
            make("bmp-24", .bmp, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "BMP 24-bit BI_RGB, bottom-up",
                 tolerance: tol(8), [.d1], [.b1, .b2]),
            make("bmp-xrgb32", .bmp, .pixels(bgrx), .opaque, delivered: bgrx, stored: "BMP 32-bit BI_RGB (B, G, R, unused)",
                 tolerance: tol(8), [.d12], [.b2]),
            make("bmp-bgra32-v5", .bmp, .pixels(bgra), .none, delivered: bgra, stored: "BMP 32-bit BITMAPV5HEADER BI_BITFIELDS ARGB (B, G, R, A in memory)",
                 tolerance: tol(8, straight: true), [.d2, .d6, .d12], [.b2, .b6]),
            make("bmp-565", .bmp, .bmp565, .opaque, delivered: .rgb8, stored: "BMP 16-bit BI_BITFIELDS R5 G6 B5",
                 tolerance: 0.5 / 31 + 0.5 / 255, [.d12], [.b1, .b8]),
            make("bmp-555", .bmp, .pixels(rgb555), .opaque, delivered: rgb555, stored: "BMP 16-bit BI_RGB x-R5-G5-B5",
                 tolerance: 0.5 / 31, [.d12], [.b1, .b8]),
            make("bmp-palette8", .bmp, .exactPalette(bits: 8), .opaque, delivered: indexed(8), stored: "BMP 8-bit palette",
                 tolerance: tol(8), [.d3], [.b8]),
            make("bmp-24-topdown", .bmp, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "BMP 24-bit, top-down (negative height)",
                 tolerance: tol(8), [.d12], [.b1], options: EncodeOptions(bmpTopDown: true)),
        ]
    }()

    /// Lossless WebP (VP8L), which decodes to the very samples written: judged as PNG's 8-bit
    /// storage is. The colour under alpha 0 is kept (libwebp's `exact`), so the hidden-colour check
    /// applies. Lossy WebP (VP8, always 4:2:0) at quality 95, opaque: judged as lossy, like JPEG.
    static let webp: [Encoding] = [
        make("webp-rgb8-lossy", .webp, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "WebP lossy (VP8 4:2:0), quality 95",
             tolerance: nil, [.d1], [.b3], options: EncodeOptions(webpQuality: 95)),
        make("webp-rgb8-lossless", .webp, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "WebP lossless (VP8L), no alpha",
             tolerance: tol(8), [.d1], [.b1]),
        make("webp-rgba8-lossless", .webp, .pixels(.rgba8), .none, delivered: .rgba8,
             stored: "WebP lossless (VP8L), straight alpha", tolerance: tol(8, straight: true), [.d2, .d7], [.b1, .b4, .b6]),
    ] + [FrameBlend.source, .over].flatMap { blend in
        [FrameDisposal.none, .background].map { d in
            make("webp-anim-\(blend.rawValue)-\(d.rawValue)", .webp, .animation(.webp(d, blend)), .none, delivered: .rgba8,
                 stored: "WebP animation, 3 lossless ANMF frames, \(blend == .source ? "not blended" : "blended"), disposal \(d.rawValue)",
                 tolerance: tol(8, straight: true), [.d13], [.b29])
        }
    }

    /// HEIF (HEVC) and AVIF (AV1), written by libheif. Lossless storage (4:4:4, the identity
    /// matrix) decodes to the very samples written: judged at its own rounding (10 and 12 bits:
    /// the 16-bit rendering rounded to that depth and expanded back). Lossy storage (4:4:4,
    /// quality 90) is judged as JPEG is. Orientation is the irot/imir transform; two encodings
    /// add an EXIF orientation that agrees or disagrees with it (the transform wins).
    static let heif: [Encoding] = {
        let deep10 = tol(10) + 2 * tol(16), deep12 = tol(12, straight: true) + 2 * tol(16, straight: true)
        // Lossy at 4:4:4: decoders upsample 4:2:0 chroma each their own way (libheif and libavif differ by tens of
        // codes at colour edges), which would judge the decoder instead of the resizer.
        let lossy = EncodeOptions(heifQuality: 90, heifLossyChroma: .s444)
        var list = [
            make("heif-rgb8-lossless", .heif, .pixels(.rgb8), .opaque, delivered: .rgb8,
                 stored: "HEIC lossless (HEVC 4:4:4, RGB matrix), no alpha", tolerance: tol(8), [.d1, .d5], [.b1, .b15]),
            make("heif-rgba8-lossless", .heif, .pixels(.rgba8), .none, delivered: .rgba8,
                 stored: "HEIC lossless, straight alpha (auxiliary image)", tolerance: tol(8, straight: true), [.d2, .d7], [.b1, .b4, .b6]),
            make("heif-rgba8-premultiplied", .heif, .pixels(.rgba8Premultiplied), .none, delivered: .rgba8Premultiplied,
                 stored: "HEIC lossless, premultiplied alpha (auxiliary image, prem reference)", tolerance: tol(8), [.d2, .d6], [.b5]),
            make("heif-rgb16-10bit", .heif, .pixels(.rgb16), .opaque, delivered: .rgb16,
                 stored: "HEIC lossless, 10 bits per sample", tolerance: deep10, [.d4], [.b9]),
            make("heif-rgb8-lossy", .heif, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "HEIC lossy (HEVC 4:4:4), quality 90",
                 tolerance: nil, [.d1], [.b3], options: lossy),
            make("avif-rgb8-lossless", .avif, .pixels(.rgb8), .opaque, delivered: .rgb8,
                 stored: "AVIF lossless (AV1 4:4:4, RGB matrix), no alpha", tolerance: tol(8), [.d1], [.b1]),
            make("avif-rgba8-lossless", .avif, .pixels(.rgba8), .none, delivered: .rgba8,
                 stored: "AVIF lossless, straight alpha (auxiliary image)", tolerance: tol(8, straight: true), [.d2, .d5, .d7],
                 [.b1, .b4, .b6, .b15]),
            make("avif-rgba16-12bit", .avif, .pixels(.rgba16), .none, delivered: .rgba16,
                 stored: "AVIF lossless, 12 bits per sample, straight alpha", tolerance: deep12, [.d2, .d4], [.b9]),
            make("avif-rgb8-lossy", .avif, .pixels(.rgb8), .opaque, delivered: .rgb8, stored: "AVIF lossy (AV1 4:4:4), quality 90",
                 tolerance: nil, [.d1], [.b3], options: lossy),
        ]
        list.append(make("avif-anim", .avif, .animation(.avif), .none, delivered: .rgba8,
                         stored: "AVIF image sequence (libavif), 3 lossless whole frames", tolerance: tol(8, straight: true),
                         [.d13], [.b29]))
        for statement in [Encoding.ExifBesideTransform.agrees, .disagrees] {
            var encoding = make("heif-rgb8-exif-\(statement.rawValue)", .heif, .pixels(.rgb8), .opaque, delivered: .rgb8,
                                stored: "HEIC lossless, irot/imir and an EXIF orientation that \(statement == .agrees ? "agrees" : "disagrees")",
                                tolerance: tol(8), [.d5], [.b15, .b18])
            encoding.exifBesideTransform = statement
            list.append(encoding)
        }
        return list
    }()

    static let apng: [Encoding] = [FrameBlend.source, .over].flatMap { blend in
        [FrameDisposal.none, .background, .previous].map { d in
            make("apng-\(blend.rawValue)-\(d.rawValue)", .png, .animation(.apng(d, blend)), .none, delivered: .rgba8,
                 stored: "APNG, 3 frames, blend_op \(blend.rawValue), dispose_op \(d.rawValue)", tolerance: tol(8, straight: true), [.d13], [.b29])
        }
    }

    /// Sources that state colours other than sRGB's (B14), each a picture that is right only if
    /// the statement is applied: wide-gamut and swapped-primaries ICC profiles (v2 and v4), 16-bit
    /// ProPhoto, gray gamma 2.2, PNG gAMA alone and cICP, CMYK with a press profile (plain and
    /// Adobe-inverted inks). The identity oracle is the scene in sRGB, as for every case; the
    /// tolerance is the storage's rounding as it shows in sRGB (``TaggedColours/renderingSlope``).
    static let tagged: [Encoding] = {
        let d65 = DisplaySpace.d65
        let p3 = [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]
        let adobe = DisplaySpace(white: d65, primaries: [[0.64, 0.33], [0.21, 0.71], [0.15, 0.06]], curve: .gamma(563.0 / 256))
        let displayP3 = DisplaySpace(white: d65, primaries: p3, curve: .srgb)
        let proPhoto = DisplaySpace(white: [0.3457, 0.3585], primaries: [[0.7347, 0.2653], [0.1596, 0.8404], [0.0366, 0.0001]],
                                    curve: .gamma(1.8))
        let srgb = DisplaySpace.srgbPrimaries
        let swapped = DisplaySpace(white: d65, primaries: [srgb[1], srgb[0], srgb[2]], curve: .srgb)
        let gray22 = DisplaySpace(white: d65, primaries: nil, curve: .gamma(2.2))
        func tagged(_ id: String, _ container: ContainerFormat, _ format: PixelFormat, _ reduction: ChannelReduction,
                    _ colours: TaggedColours, stored: String, _ documents: [DocumentFailure], _ bugs: [BugClass],
                    options: EncodeOptions = EncodeOptions()) -> Encoding {
            let bits = format.bitsPerComponent, straight = format.hasAlpha && !format.isPremultiplied
            // CMYK is rendered through the profile's interpolated table: approximate, judged as lossy.
            let cmyk: Bool
            if case .cmyk = format.colorModel { cmyk = true } else { cmyk = false }
            let tolerance = cmyk || container == .jpeg ? nil
                : Encoding.rounding(bits: bits, straightAlpha: false) * (colours.renderingSlope ?? 1)
                    + (straight ? Encoding.rounding(bits: bits, straightAlpha: false) : 0)
            var e = make(id, container, .pixels(format), reduction, delivered: cmyk && container == .jpeg
                         ? PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8) : format,
                         stored: stored + ", " + colours.words, tolerance: tolerance, documents, [.b14] + bugs, options: options)
            e.colours = colours
            return e
        }
        return [
            tagged("png-rgb8-tagged-adobergb", .png, .rgb8, .opaque, .profile(adobe, name: "imglab Adobe RGB (1998)-like", version2: true),
                   stored: "PNG colour type 2, 8-bit", [.d1], []),
            tagged("png-rgba8-tagged-p3", .png, .rgba8, .none, .profile(displayP3, name: "imglab Display P3-like", version2: false),
                   stored: "PNG colour type 6, 8-bit", [.d2], [.b4]),
            tagged("png-rgb16-tagged-prophoto", .png, .rgb16, .opaque, .profile(proPhoto, name: "imglab ProPhoto RGB-like", version2: false),
                   stored: "PNG colour type 2, 16-bit", [.d4], [.b9]),
            tagged("png-gray8-tagged-gamma22", .png, .gray8, .grayOpaque, .profile(gray22, name: "imglab gray gamma 2.2", version2: false),
                   stored: "PNG colour type 0, 8-bit", [], [.b10]),
            tagged("png-rgb8-tagged-swapped", .png, .rgb8, .opaque,
                   .profile(swapped, name: "imglab sRGB with red and green swapped", version2: false),
                   stored: "PNG colour type 2, 8-bit", [], []),
            tagged("png-rgb8-tagged-gama18", .png, .rgb8, .opaque, .gamma(1.8), stored: "PNG colour type 2, 8-bit", [], []),
            tagged("png-rgb8-tagged-cicp-p3", .png, .rgb8, .opaque, .codingPoints(primaries: 12, transfer: 13, space: displayP3),
                   stored: "PNG colour type 2, 8-bit", [], []),
            tagged("jpeg-cmyk-adobe-tagged-inks", .jpeg, .cmyk8, .opaque, .inks(gain: 1.6),
                   stored: "JPEG CMYK with Adobe APP14 (inverted), quality 95", [], [.b13],
                   options: EncodeOptions(jpegQuality: 95, jpegSubsampling: .s444)),
            tagged("tiff-cmyk-tagged-inks", .tiff, .cmyk8, .opaque, .inks(gain: 1.6), stored: "TIFF CMYK 8-bit (Photometric 5)", [], [.b13]),
        ]
    }()

    /// JPEGs whose EXIF block embeds a thumbnail that does not show the image (B28): stale,
    /// tiny, or stored upright under a rotated image (``EmbeddedThumbnailKind``).
    static let thumbnails: [Encoding] = EmbeddedThumbnailKind.allCases.map { kind in
        var e = make("jpeg-420-exifthumb-\(kind.rawValue)", .jpeg, .pixels(.rgb8), .opaque, delivered: .rgb8,
                     stored: "JPEG baseline YCbCr 4:2:0, quality 95, EXIF IFD1 thumbnail (\(kind.rawValue))", tolerance: nil, [.d1], [.b28],
                     options: EncodeOptions(jpegQuality: 95, jpegSubsampling: .s420))
        e.thumbnail = kind
        return e
    }
}
