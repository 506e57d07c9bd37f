import ImageCore

/// How the stored samples of one IFD become a ``Bitmap``: which pixel format is delivered and
/// which stored sample fills each of its slots. Decided from the IFD alone, before any pixel
/// is read, so ``TIFFCodec/readHeader(_:options:)`` and the decoder agree.
///
/// Rules (TIFF 6.0 field semantics; the pixel model is Quartz's):
/// - Gray (MinIsBlack, MinIsWhite inverted so 0 is black), RGB, CMYK (Separated with InkSet 1
///   and 4 inks, `.cmyk(inverted: false)`) and palette keep their model.
/// - Depth: 1/2/4-bit single-sample pixels stay packed, 8 and 16 bits stay (16-bit in host
///   order, `.little16`), 32-bit float stays (host order). Other integer depths are expanded
///   exactly, `round(v·(2^t−1)/(2^b−1))`, to t = 8 (b < 8) or 16 (b < 16). Palette indices
///   are never scaled, only widened to an 8-bit container. 16-bit floats widen exactly to 32-bit.
/// - ExtraSamples 1 (associated alpha) is `.premultipliedLast`, 2 (unassociated) is `.last`.
///   ExtraSamples 0 (unspecified) is *not* alpha: it is delivered as a padding slot,
///   `.noneSkipLast`, with its bytes kept. TIFF 6.0 says such data has no defined meaning;
///   Pillow reads RGB + unspecified as "RGBX" too, while libvips would call it alpha.
///   Only one extra sample is kept (the first alpha one, else the first); others are dropped.
/// - A palette image with alpha is expanded to 8-bit RGBA (the indexed model has no alpha slot).
/// - YCbCr, CIE L*a*b*, LogL/LogLuv and old-style JPEG go through libtiff's RGBA interface:
///   8-bit RGB, or premultiplied RGBA when there is alpha.
/// - Signed integers (SampleFormat 2) map −2ⁿ⁻¹…2ⁿ⁻¹−1 onto 0…1: up to 16 bits by adding
///   2ⁿ⁻¹ (flipping the sign bit), which is exact, into the unsigned depth above (8-bit signed
///   → 8-bit, −128 → 0, 127 → 255); wider ones to 32-bit float, (v + 2ⁿ⁻¹) / (2ⁿ − 1).
/// - Unsigned integers of 17…32 and 64 bits (24, 32 and 64 in practice) become 32-bit float
///   v / (2ⁿ − 1): no integer depth of the pixel model holds them.
/// - 64-bit floats are rounded to 32-bit floats (values kept, not normalised, as 32-bit floats).
/// - Palettes with more than 256 entries, and floats other than 16/32/64-bit, are `.unsupported`.
/// docs/tiff-samples.md lists every stored format with what is delivered and what Quartz calls it.
struct TIFFPixelPlan: Sendable, Hashable {
    /// Where the pixels come from.
    enum Route: Sendable, Hashable {
        /// Strips or tiles decoded by libtiff, unpacked here.
        case samples
        /// libtiff's RGBA interface (`TIFFRGBAImageGet`), which converts colour itself.
        case rgbaInterface
    }

    /// How a stored sample's bits are read.
    enum SampleKind: Sendable, Hashable {
        /// Unsigned integer (SampleFormat 1 or 4).
        case unsigned
        /// Two's-complement integer (SampleFormat 2).
        case signed
        /// IEEE 754 float of 16, 32 or 64 bits (SampleFormat 3).
        case float
    }

    var route: Route
    /// How stored samples are read (``SampleKind``).
    var sampleKind: SampleKind = .unsigned
    /// The delivered format.
    var format: PixelFormat
    /// Stored colour samples per pixel (1 gray or palette, 3 RGB, 4 CMYK).
    var colorSampleCount: Int
    /// The stored sample that fills the delivered alpha or padding slot, if any.
    var extraSampleIndex: Int?
    /// Whether gray values are inverted (MinIsWhite).
    var invertsGray: Bool
    /// Set when palette indices are expanded to RGB through this palette (palette + alpha).
    var expandingPalette: Palette?
    /// What differs from the file, for ``ImageMetadata/storedFormatNote``; `nil` when nothing does.
    var note: String?

    /// Whether the delivered bytes are exactly the decoded bytes (after in-place inversion).
    func isVerbatim(_ d: TIFFDirectory) -> Bool {
        route == .samples && expandingPalette == nil
            && (sampleKind == .unsigned ? d.bitsPerSample <= 16 : sampleKind == .float && d.bitsPerSample <= 32)
            && format.bitsPerComponent == d.bitsPerSample
            && format.slotCount == d.samplesPerPixel
            && (!d.isPlanar || d.samplesPerPixel == 1)
            && !(invertsGray && format.isFloat)
    }

    /// Decides the plan for `d`.
    /// - Throws: `.unsupported` for sample layouts the pixel model cannot hold exactly,
    ///   `.malformed` for fields that contradict each other.
    init(_ d: TIFFDirectory) throws(DecodeError) {
        guard let photometric = d.photometric else {
            throw .malformed(.tiff, reason: "the first IFD has no PhotometricInterpretation (tag 262)", offset: nil)
        }
        guard d.width > 0, d.height > 0 else {
            throw .malformed(.tiff, reason: "image size \(d.width)×\(d.height) is empty", offset: nil)
        }
        let alphaKinds = [TIFFTag.associatedAlpha, TIFFTag.unassociatedAlpha]
        let viaRGBA = [TIFFTag.yCbCr, TIFFTag.cieLab, TIFFTag.iccLab, TIFFTag.ituLab, TIFFTag.logL, TIFFTag.logLuv]
        if viaRGBA.contains(photometric) || d.compression == TIFFTag.compressionOJPEG {
            let alpha = d.extraSamples.first.map(alphaKinds.contains) ?? false
            route = .rgbaInterface
            format = alpha ? .rgba8Premultiplied : .rgb8
            colorSampleCount = 3
            extraSampleIndex = nil
            invertsGray = false
            expandingPalette = nil
            note = "TIFF \(TIFFTag.photometricName(photometric)) \(d.bitsPerSample)-bit (\(TIFFTag.compressionName(d.compression))), converted to 8-bit RGB\(alpha ? "A" : "") by libtiff's RGBA interface"
            return
        }
        route = .samples
        let bits = d.bitsPerSample
        // Delivered as 32-bit float: stored floats, and integers no integer depth of the model holds.
        let isFloat: Bool
        switch d.sampleFormat {
        case TIFFTag.unsignedInteger, TIFFTag.undefinedFormat:
            guard (1...32).contains(bits) || bits == 64 else { throw .unsupported(.tiff, feature: "\(bits)-bit integer samples") }
            sampleKind = .unsigned
            isFloat = bits > 16
        case TIFFTag.signedInteger:
            guard (2...32).contains(bits) || bits == 64 else { throw .unsupported(.tiff, feature: "\(bits)-bit signed integer samples") }
            sampleKind = .signed
            isFloat = bits > 16
        case TIFFTag.ieeeFloat:
            guard [16, 32, 64].contains(bits) else { throw .unsupported(.tiff, feature: "\(bits)-bit floating-point samples") }
            sampleKind = .float
            isFloat = true
        default:
            throw .unsupported(.tiff, feature: "SampleFormat \(d.sampleFormat)")
        }

        let model: ColorModel
        switch photometric {
        case TIFFTag.minIsWhite, TIFFTag.minIsBlack:
            model = .gray
        case TIFFTag.rgb:
            model = .rgb
        case TIFFTag.separated:
            guard d.inkSet == 1, d.samplesPerPixel - d.extraSamples.count >= 4 else {
                throw .unsupported(.tiff, feature: "separated image with InkSet \(d.inkSet) and \(d.samplesPerPixel - d.extraSamples.count) inks (only CMYK is read)")
            }
            model = .cmyk(inverted: false)
        case TIFFTag.palette:
            guard sampleKind == .unsigned else {
                throw .malformed(.tiff, reason: "palette indices cannot be \(sampleKind == .float ? "floating point" : "signed")", offset: nil)
            }
            guard bits <= 8 else { throw .unsupported(.tiff, feature: "\(bits)-bit palette indices (more than 256 colours)") }
            guard let map = d.colorMap else {
                throw .malformed(.tiff, reason: "a palette image has no ColorMap (tag 320)", offset: nil)
            }
            // TIFF 6.0 p. 23: ColorMap values are 16-bit; 8-bit entries are the rounded ÷ 257.
            func eight(_ v: UInt16) -> UInt8 { UInt8((Int(v) + 128) / 257) }
            model = .indexed(Palette((0..<map.red.count).map {
                Palette.Entry(red: eight(map.red[$0]), green: eight(map.green[$0]), blue: eight(map.blue[$0]))
            }))
        case TIFFTag.mask:
            throw .unsupported(.tiff, feature: "transparency mask images (Photometric 4)")
        default:
            throw .unsupported(.tiff, feature: "Photometric \(TIFFTag.photometricName(photometric))")
        }
        colorSampleCount = model.componentCount
        invertsGray = photometric == TIFFTag.minIsWhite
        guard d.samplesPerPixel >= colorSampleCount else {
            throw .malformed(.tiff, reason: "Photometric \(TIFFTag.photometricName(photometric)) needs \(colorSampleCount) samples, SamplesPerPixel is \(d.samplesPerPixel)", offset: nil)
        }

        // The extra samples after the colour ones; a missing ExtraSamples entry counts as unspecified.
        let extraCount = d.samplesPerPixel - colorSampleCount
        let kinds = (0..<extraCount).map { $0 < d.extraSamples.count ? d.extraSamples[$0] : TIFFTag.unspecifiedExtra }
        let alphaPosition = kinds.firstIndex(where: alphaKinds.contains)
        var alphaInfo: AlphaInfo = .none
        if let alphaPosition {
            alphaInfo = kinds[alphaPosition] == TIFFTag.associatedAlpha ? .premultipliedLast : .last
            extraSampleIndex = colorSampleCount + alphaPosition
        } else if extraCount > 0, case .indexed = model {
            extraSampleIndex = nil  // an indexed pixel has no padding slot
        } else if extraCount > 0 {
            alphaInfo = .noneSkipLast
            extraSampleIndex = colorSampleCount
        } else {
            extraSampleIndex = nil
        }
        var notes: [String] = []
        let dropped = extraCount - (extraSampleIndex == nil ? 0 : 1)
        if dropped > 0 { notes.append("\(dropped) extra sample\(dropped == 1 ? "" : "s") dropped") }

        if case .indexed(let palette) = model, alphaInfo.hasAlpha {
            expandingPalette = palette
            format = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: alphaInfo)
            notes.insert("TIFF \(bits)-bit palette with alpha, expanded to 8-bit RGBA", at: 0)
        } else {
            expandingPalette = nil
            let slots = colorSampleCount + (alphaInfo.hasSlot ? 1 : 0)
            let depth: Int
            let name = model.shortName
            if isFloat {
                depth = 32
                switch (sampleKind, bits) {
                case (.float, 16): notes.insert("TIFF 16-bit float widened to 32-bit float", at: 0)
                case (.float, 64): notes.insert("TIFF 64-bit float rounded to 32-bit float", at: 0)
                case (.signed, _): notes.insert("TIFF \(bits)-bit signed \(name) mapped to 32-bit float 0…1, (v + 2^\(bits - 1)) / (2^\(bits) − 1)", at: 0)
                case (.unsigned, _): notes.insert("TIFF \(bits)-bit \(name) mapped to 32-bit float 0…1, v / (2^\(bits) − 1)", at: 0)
                default: break
                }
            } else if case .indexed = model {
                depth = [1, 2, 4, 8].first { $0 >= bits } ?? 8
                if depth != bits { notes.insert("TIFF \(bits)-bit palette indices held in \(depth)-bit indices", at: 0) }
            } else if bits == 8 || bits == 16 || (slots == 1 && [1, 2, 4].contains(bits)) {
                depth = bits
            } else {
                depth = bits < 8 ? 8 : 16
                notes.insert("TIFF \(bits)-bit \(name) expanded to \(depth)-bit", at: 0)
            }
            if sampleKind == .signed, !isFloat {
                notes.insert("TIFF \(bits)-bit signed \(name) offset by 2^\(bits - 1) to unsigned (−2^\(bits - 1) → 0, 2^\(bits - 1) − 1 → \((1 << depth) - 1))", at: 0)
            }
            format = PixelFormat(colorModel: model, bitsPerComponent: depth, alphaInfo: alphaInfo,
                                 byteOrder: depth == 16 ? .little16 : .default, isFloat: isFloat)
        }
        note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        do { _ = try format.validated() } catch {
            throw .unsupported(.tiff, feature: "\(error)")
        }
    }
}
