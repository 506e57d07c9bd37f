import CImageShim
import ImageCore

/// Writes one page through libtiff into memory (little-endian classic TIFF).
///
/// Stored as they are: gray 1/2/4/8/16, RGB and CMYK 8/16, 32-bit float gray/RGB/CMYK, each
/// with associated alpha (premultiplied formats, ExtraSamples 1), unassociated alpha (straight
/// formats, ExtraSamples 2) or a padding slot (ExtraSamples 0), and palettes of 1/2/4/8-bit
/// indices (ColorMap = entry × 257). Everything else is first converted exactly with
/// ``Bitmap/converted(to:)`` to ``writtenFormat(for:)``: alpha-first layouts to alpha-last,
/// Adobe-inverted CMYK to plain CMYK, 5-bit 555 RGB to 8-bit, alpha-only masks to gray (0) plus
/// alpha, palettes with transparent entries to 8-bit straight RGBA, 1/2/4-bit gray with alpha
/// to 8-bit, 16-bit big-endian to little-endian and big-endian floats to host order.
///
/// Options: `tiffCompression` (none, LZW, Adobe Deflate; with horizontal differencing for 8 and
/// 16-bit samples and the floating-point predictor for floats), `tiffPlanar`
/// (PlanarConfiguration 2), `writeOrientation` (tag 274 when not `.up`). The ICC profile is
/// written to tag 34675. EXIF is not written.
enum TIFFEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let source = image.bitmap
        guard source.width <= Int(UInt32.max), source.height <= Int(UInt32.max) else {
            throw .invalidOption("TIFF sizes are 32-bit: \(source.width)×\(source.height) is too large")
        }
        let target = writtenFormat(for: source.format)
        let bitmap: Bitmap
        do {
            bitmap = target == source.format ? source.tightlyPacked() : try source.converted(to: target)
        } catch {
            throw .unsupportedFormat(.tiff, source.format, suggestion: "convert it to \(target) first (\(error))")
        }

        let planar = options.tiffPlanar
        let samples = target.slotCount
        let pixels = planar && samples > 1 ? planes(of: bitmap) : bitmap.bytes
        let page = Page(width: bitmap.width, height: bitmap.height, format: target, options: options, orientation: image.orientation)
        return try write(page, pixels: pixels, icc: image.metadata.iccProfile ?? [])
    }

    /// The fields of one page: libtiff's parameters and the colour map they point to.
    struct Page {
        var params = imglab_tiff_encode_params()
        var colorMap: (red: [UInt16], green: [UInt16], blue: [UInt16]) = ([], [], [])

        /// The page of a `width × height` bitmap in `format` (a ``writtenFormat(for:)``), with
        /// `options` and `orientation` (tag 274 when written and not `.up`).
        init(width: Int, height: Int, format target: PixelFormat, options: EncodeOptions, orientation: Orientation) {
            let planar = options.tiffPlanar
            let samples = target.slotCount
            let rowBytes = planar ? target.minimumBytesPerRow(width: width) / samples : target.minimumBytesPerRow(width: width)
            params.width = UInt32(width)
            params.height = UInt32(height)
            params.bits_per_sample = UInt16(target.bitsPerComponent)
            params.samples_per_pixel = UInt16(samples)
            params.sample_format = UInt16(target.isFloat ? TIFFTag.ieeeFloat : TIFFTag.unsignedInteger)
            params.planar_config = planar ? 2 : 1
            params.row_bytes = rowBytes
            params.rows_per_strip = UInt32(max(1, min(height, 65_536 / max(rowBytes, 1))))
            params.orientation = options.writeOrientation && orientation != .up ? UInt16(orientation.exifValue) : 0
            switch target.alphaInfo {
            case .premultipliedLast: params.extra_sample_count = 1; params.extra_samples.0 = UInt16(TIFFTag.associatedAlpha)
            case .last: params.extra_sample_count = 1; params.extra_samples.0 = UInt16(TIFFTag.unassociatedAlpha)
            case .noneSkipLast: params.extra_sample_count = 1; params.extra_samples.0 = UInt16(TIFFTag.unspecifiedExtra)
            default: params.extra_sample_count = 0
            }
            switch target.colorModel {
            case .gray, .none: params.photometric = UInt16(TIFFTag.minIsBlack)
            case .rgb: params.photometric = UInt16(TIFFTag.rgb)
            case .cmyk: params.photometric = UInt16(TIFFTag.separated)
            case .indexed(let palette):
                params.photometric = UInt16(TIFFTag.palette)
                // ColorMap has 2^bits entries of 16 bits: 8-bit v becomes v × 257, so 255 → 65535.
                let count = 1 << target.bitsPerComponent
                let entries = palette.entries + Array(repeating: Palette.Entry(red: 0, green: 0, blue: 0), count: max(count - palette.count, 0))
                colorMap = (entries.prefix(count).map { UInt16($0.red) * 257 },
                            entries.prefix(count).map { UInt16($0.green) * 257 },
                            entries.prefix(count).map { UInt16($0.blue) * 257 })
            }
            switch options.tiffCompression {
            case .none: params.compression = UInt16(TIFFTag.compressionNone)
            case .lzw: params.compression = UInt16(TIFFTag.compressionLZW)
            case .deflate: params.compression = UInt16(TIFFTag.compressionAdobeDeflate)
            }
            if options.tiffCompression != .none {
                if target.isFloat {
                    params.predictor = UInt16(TIFFTag.floatingPointPredictor)
                } else if target.bitsPerComponent >= 8, colorMap.red.isEmpty {
                    params.predictor = UInt16(TIFFTag.horizontalPredictor)
                }
            }
        }

        /// Calls `body` with the parameters, their colour map and `icc` pointed to (valid during the call only).
        func withParameters<T>(icc: [UInt8], _ body: (inout imglab_tiff_encode_params) -> T) -> T {
            colorMap.red.withUnsafeBufferPointer { red in
                colorMap.green.withUnsafeBufferPointer { green in
                    colorMap.blue.withUnsafeBufferPointer { blue in
                        icc.withUnsafeBufferPointer { profile in
                            var p = params
                            if !colorMap.red.isEmpty {
                                p.colormap_red = red.baseAddress
                                p.colormap_green = green.baseAddress
                                p.colormap_blue = blue.baseAddress
                            }
                            if !icc.isEmpty {
                                p.icc_profile = profile.baseAddress
                                p.icc_profile_size = UInt32(clamping: icc.count)
                            }
                            return body(&p)
                        }
                    }
                }
            }
        }
    }

    /// The format a bitmap in `format` is written in (see the type's documentation).
    static func writtenFormat(for format: PixelFormat) -> PixelFormat {
        if case .indexed(let palette) = format.colorModel {
            return palette.hasAlpha ? .rgba8 : PixelFormat(colorModel: format.colorModel, bitsPerComponent: format.bitsPerComponent)
        }
        var model = format.colorModel
        if case .cmyk = model { model = .cmyk(inverted: false) }
        if model == .none || format.alphaInfo == .only { model = .gray }
        let alpha: AlphaInfo
        switch format.alphaInfo {
        case .none: alpha = .none
        case .noneSkipFirst, .noneSkipLast: alpha = format.bitsPerComponent == 5 ? .none : .noneSkipLast
        case .first, .last, .only: alpha = .last
        case .premultipliedFirst, .premultipliedLast: alpha = .premultipliedLast
        }
        let depth: Int
        if format.isFloat {
            depth = 32
        } else if [1, 2, 4].contains(format.bitsPerComponent) {
            depth = model == .gray && alpha == .none ? format.bitsPerComponent : 8
        } else {
            depth = format.bitsPerComponent == 16 ? 16 : 8
        }
        return PixelFormat(colorModel: model, bitsPerComponent: depth, alphaInfo: alpha,
                           byteOrder: depth == 16 ? .little16 : .default, isFloat: format.isFloat)
    }

    /// The bytes of a tightly packed bitmap (≥ 8 bits per sample) regrouped plane by plane.
    private static func planes(of bitmap: Bitmap) -> [UInt8] {
        let samples = bitmap.format.slotCount
        let sampleBytes = bitmap.format.bitsPerComponent / 8
        let pixels = bitmap.width * bitmap.height
        var out = [UInt8](repeating: 0, count: bitmap.bytes.count)
        bitmap.bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for s in 0..<samples {
                    for p in 0..<pixels {
                        let from = (p * samples + s) * sampleBytes, to = (s * pixels + p) * sampleBytes
                        for k in 0..<sampleBytes { destination[to + k] = source[from + k] }
                    }
                }
            }
        }
        return out
    }

    private static func write(_ page: Page, pixels: [UInt8], icc: [UInt8]) throws(EncodeError) -> [UInt8] {
        var message = [CChar](repeating: 0, count: Int(IMGLAB_MESSAGE_SIZE))
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let status = pixels.withUnsafeBufferPointer { px in
            page.withParameters(icc: icc) { p in imglab_tiff_encode(&p, px.baseAddress, px.count, &output, &outputSize, &message) }
        }
        guard status != 0, let output else { throw .library(.tiff, TIFFReader.text(message)) }
        defer { imglab_tiff_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
