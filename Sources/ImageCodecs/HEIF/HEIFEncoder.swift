import CImageShim
import ImageCore

/// Writes HEIF (HEVC) and AVIF (AV1) files with libheif's encoders (x265 and libaom on Debian).
///
/// Samples: 8-bit RGB or RGBA for images of 8 bits or fewer; deeper images at
/// `options.heifBitDepth` (HEIF 10 or 12, 10 by default; AVIF 12), each 16-bit value scaled by
/// (2^bits − 1) / 65535 and rounded. Premultiplied alpha is written as it is, with a `prem` reference; straight alpha
/// as straight. Lossless by default (4:4:4, the identity matrix: the decoded samples equal the
/// ones given); lossy (4:2:0 unless `options.heifLossyChroma`, BT.601 matrix) at `options.heifQuality`.
///
/// The orientation, when not up and `options.writeOrientation`, is written as `irot`/`imir`
/// properties (HEIF's own), and an EXIF block the image carries is written with its orientation
/// made to agree; otherwise the pixels are turned upright. The ICC profile goes into a `colr`
/// box, else `nclx` states sRGB. An animated image written as AVIF becomes an image sequence (``AVIFSequenceWriter``);
/// a 10-bit AVIF still is written by libavif (``AVIFStillWriter``), which libheif 1.15 cannot.
enum HEIFEncoder {
    static func encode(_ image: Image, as container: ContainerFormat, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let (available, reason) = HEIFFamily.availability
        guard available else { throw .library(container, reason) }
        guard HEIFFamily.hasCodec(for: container, encoder: true) else {
            throw .library(container, "the installed libheif has no \(HEIFFamily.coding(container)) encoder")
        }
        if let quality = options.heifQuality, !(0...100).contains(quality) {
            throw .invalidOption("\(container.rawValue.uppercased()) quality \(quality) is outside 0…100")
        }
        let chroma: Int32 = switch options.heifLossyChroma {
        case .s420: 420
        case .s422: 422
        case .s444: 444
        case .s440: throw .invalidOption("HEIF/AVIF cannot code chroma 4:4:0; use 4:2:0, 4:2:2 or 4:4:4")
        }
        let deep = image.bitmap.format.bitsPerComponent > 8
        let bits = deep ? storedBitDepth(container, options) : 8
        guard [8, 10, 12].contains(bits) else { throw .invalidOption("HEIF/AVIF bit depth \(bits) is not 8, 10 or 12") }
        if container == .avif, let animation = image.animation, animation.frames.count > 1 {
            return try AVIFSequenceWriter.encode(image, frames: animation.frames, bits: bits, options: options)
        }
        var orientation = image.orientation
        var bitmap = image.bitmap
        if orientation != .up && !options.writeOrientation {
            bitmap = orientation.apply(to: bitmap)
            orientation = .up
        }
        let format = bitmap.format
        let premultiplied = format.alphaInfo == .premultipliedLast || format.alphaInfo == .premultipliedFirst
        let target = PixelFormat(colorModel: .rgb, bitsPerComponent: deep ? 16 : 8,
                                 alphaInfo: !format.hasAlpha ? .none : premultiplied ? .premultipliedLast : .last)
        let source: Bitmap
        do { source = format == target ? bitmap : try bitmap.converted(to: target) } catch {
            throw .unsupportedFormat(container, format, suggestion: "convert to RGB or RGBA first (\(error))")
        }
        let samples = deep ? littleEndian(source, bits: bits) : source.bytes
        let rowBytes = deep ? source.width * target.slotCount * 2 : source.bytesPerRow
        let exif = options.heifExifOrientation.map { EXIF.replacingOrientation(in: image.metadata.exif, with: $0) }
            ?? (orientation == .up || image.metadata.exif == nil ? image.metadata.exif
                : EXIF.replacingOrientation(in: image.metadata.exif, with: orientation))
        if container == .avif && bits == 10 {
            // libaom 3.6 under libheif 1.15 fails or aborts (an assertion) on every 10-bit AV1 picture; libavif's
            // path to the same libaom does not.
            let file = try AVIFStillWriter.encode(samples, width: source.width, height: source.height, rowBytes: rowBytes,
                                                  channels: target.slotCount, bits: bits, premultiplied: premultiplied,
                                                  chroma: chroma, exif: exif, icc: image.metadata.iccProfile, options: options)
            return try HEIFTransformWriter.adding(orientation, to: file, container: container)
        }
        let encoding = imglab_heif_encoding(av1: container == .avif ? 1 : 0, lossless: options.heifQuality == nil ? 1 : 0,
                                            quality: Int32(options.heifQuality ?? 100), bits: Int32(bits),
                                            premultiplied: premultiplied ? 1 : 0, lossy_chroma: chroma)
        var output: UnsafeMutablePointer<UInt8>?
        var why = [CChar](repeating: 0, count: 512)
        let size = samples.withUnsafeBufferPointer { pixels in
            (exif ?? []).withUnsafeBufferPointer { exifBytes in
                (image.metadata.iccProfile ?? []).withUnsafeBufferPointer { icc in
                    imglab_heif_encode(pixels.baseAddress, Int32(source.width), Int32(source.height), Int32(rowBytes),
                                       Int32(target.slotCount), encoding, exifBytes.baseAddress, exifBytes.count, icc.baseAddress,
                                       icc.count, &output, &why, why.count)
                }
            }
        }
        guard size > 0, let output else {
            let text = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .library(container, "libheif could not encode the \(source.width)×\(source.height) image: \(text)")
        }
        let file = Array(UnsafeBufferPointer(start: output, count: size))
        imglab_heif_free(output)
        return try HEIFTransformWriter.adding(orientation, to: file, container: container)
    }

    /// The bits per sample a deeper-than-8-bit image is written with.
    static func storedBitDepth(_ container: ContainerFormat, _ options: EncodeOptions) -> Int {
        options.heifBitDepth ?? (container == .avif ? 12 : 10)
    }

    /// 16-bit big-endian samples as `bits`-deep values in 16-bit little-endian words, packed rows.
    static func littleEndian(_ bitmap: Bitmap, bits: Int) -> [UInt8] {
        let maximum = (1 << bits) - 1, perRow = bitmap.width * bitmap.format.slotCount
        var out = [UInt8](repeating: 0, count: perRow * bitmap.height * 2)
        for y in 0..<bitmap.height {
            let row = y * bitmap.bytesPerRow
            for i in 0..<perRow {
                let value = Int(bitmap.bytes[row + 2 * i]) << 8 | Int(bitmap.bytes[row + 2 * i + 1])
                let scaled = (value * maximum + 32767) / 65535
                out[(y * perRow + i) * 2] = UInt8(scaled & 0xFF)
                out[(y * perRow + i) * 2 + 1] = UInt8(scaled >> 8)
            }
        }
        return out
    }
}
