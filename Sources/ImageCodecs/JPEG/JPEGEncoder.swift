import CImageShim
import ImageCore

/// Encoding through libjpeg-turbo.
///
/// What is written:
/// - Gray bitmaps (any depth, alpha dropped) as 1-component gray JPEG.
/// - CMYK bitmaps as 4-component CMYK with the Adobe APP14 marker (transform 0), values in
///   the Adobe inverted convention (255 − ink): a `.cmyk(inverted: false)` bitmap is inverted
///   first, so a decode gives back `.cmyk(inverted: true)` with the same ink.
/// - Everything else (RGB, indexed, 16-bit, float, with alpha) as YCbCr from 8-bit RGB made by
///   ``Bitmap/converted(to:)``. **Alpha is dropped, not composited**: JPEG has no alpha.
/// - Alpha-only masks are refused: they have no colour to write.
/// - EXIF in APP1 after JFIF APP0; ICC split over APP2 markers of at most 65519 bytes.
/// Chroma subsampling applies to 3-component files only; gray and CMYK are written 1×1.
enum JPEGEncoder {
    /// Largest EXIF block one APP1 segment holds: 65533 payload bytes less the 6-byte prefix.
    static let maxEXIFBytes = 65_533 - EXIF.jpegPrefix.count
    /// Largest ICC profile: 255 APP2 chunks of 65519 bytes.
    static let maxICCBytes = 255 * 65_519

    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        guard (1...100).contains(options.jpegQuality) else {
            throw .invalidOption("JPEG quality \(options.jpegQuality) is outside 1…100")
        }
        let bitmap = try storable(image.bitmap)
        let exif = exifPayload(image, options: options)
        if let exif, exif.count - EXIF.jpegPrefix.count > maxEXIFBytes {
            throw .invalidOption("EXIF block of \(exif.count - EXIF.jpegPrefix.count) bytes exceeds one APP1 segment (\(maxEXIFBytes) bytes)")
        }
        let icc = image.metadata.iccProfile ?? []
        guard icc.count <= maxICCBytes else {
            throw .invalidOption("ICC profile of \(icc.count) bytes exceeds 255 APP2 chunks (\(maxICCBytes) bytes)")
        }
        let (lumaH, lumaV) = lumaSampling(options.jpegSubsampling)
        let exifBytes = exif ?? []
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        var message = [CChar](repeating: 0, count: Int(IMGLAB_JPEG_MESSAGE_SIZE))
        let status = bitmap.bytes.withUnsafeBufferPointer { pixels in
            exifBytes.withUnsafeBufferPointer { exifBuffer in
                icc.withUnsafeBufferPointer { iccBuffer in
                    var params = imglab_jpeg_encode_params(
                        width: UInt32(bitmap.width), height: UInt32(bitmap.height),
                        components: Int32(bitmap.format.slotCount), quality: Int32(options.jpegQuality),
                        luma_h: lumaH, luma_v: lumaV, progressive: options.jpegProgressive ? 1 : 0,
                        exif: exifBuffer.count > 0 ? exifBuffer.baseAddress : nil, exif_size: exifBuffer.count,
                        icc: iccBuffer.count > 0 ? iccBuffer.baseAddress : nil, icc_size: iccBuffer.count)
                    return message.withUnsafeMutableBufferPointer { text in
                        imglab_jpeg_encode(&params, pixels.baseAddress, bitmap.bytesPerRow, &output, &outputSize, text.baseAddress)
                    }
                }
            }
        }
        defer { imglab_jpeg_free(output) }
        guard status == IMGLAB_JPEG_OK, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .library(.jpeg, text.isEmpty ? "libjpeg failed" : text)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// The luma sampling factors (horizontal, vertical) of `subsampling`; chroma is 1 × 1.
    static func lumaSampling(_ subsampling: ChromaSubsampling) -> (Int32, Int32) {
        switch subsampling {
        case .s444: return (1, 1)
        case .s422: return (2, 1)
        case .s420: return (2, 2)
        case .s440: return (1, 2)
        }
    }

    /// The layout libjpeg is handed for a bitmap in `format` (see ``storable(_:)``).
    static func storableFormat(for format: PixelFormat) throws(EncodeError) -> PixelFormat {
        switch format.colorModel {
        case .none: throw .unsupportedFormat(.jpeg, format, suggestion: "convert the alpha-only mask to .gray8 first")
        case .gray: return .gray8
        case .rgb, .indexed: return .rgb8
        case .cmyk: return PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8)
        }
    }

    /// The bitmap in a layout libjpeg takes: gray8, rgb8, or Adobe-inverted 8-bit CMYK.
    static func storable(_ bitmap: Bitmap) throws(EncodeError) -> Bitmap {
        let target: PixelFormat
        switch bitmap.format.colorModel {
        case .none:
            throw .unsupportedFormat(.jpeg, bitmap.format, suggestion: "convert the alpha-only mask to .gray8 first")
        case .gray: target = .gray8
        case .rgb, .indexed: target = .rgb8
        case .cmyk(let inverted):
            // Same colour model, so the conversion only changes depth and drops alpha.
            var cmyk = try convert(bitmap, to: PixelFormat(colorModel: .cmyk(inverted: inverted), bitsPerComponent: 8))
            if !inverted {
                for i in cmyk.bytes.indices { cmyk.bytes[i] = 255 - cmyk.bytes[i] }
                cmyk = Bitmap(uncheckedWidth: cmyk.width, height: cmyk.height,
                              format: PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8),
                              bytesPerRow: cmyk.bytesPerRow, bytes: cmyk.bytes)
            }
            return cmyk
        }
        return try convert(bitmap, to: target)
    }

    private static func convert(_ bitmap: Bitmap, to format: PixelFormat) throws(EncodeError) -> Bitmap {
        do { return try bitmap.converted(to: format) } catch {
            throw .unsupportedFormat(.jpeg, bitmap.format, suggestion: "convert to \(format) first (\(error))")
        }
    }

    /// The APP1 payload (`Exif\0\0` + block) to write, or `nil`.
    ///
    /// With `writeOrientation`, the block carries the image's orientation (a fresh block when
    /// the image has none and is not `.up`). Without it, a carried block's orientation is
    /// reset to 1, so the file never declares an orientation the caller chose not to write.
    static func exifPayload(_ image: Image, options: EncodeOptions) -> [UInt8]? {
        var block = image.metadata.exif
        let carriesOrientation = block.map { EXIF.orientationValue(in: $0) != nil } ?? false
        let wanted: Orientation = options.writeOrientation ? image.orientation : .up
        if wanted != .up || carriesOrientation {
            block = EXIF.replacingOrientation(in: block, with: wanted)
        }
        return block.map { EXIF.jpegPrefix + $0 }
    }
}
