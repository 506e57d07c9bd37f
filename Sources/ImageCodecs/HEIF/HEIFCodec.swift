import CImageShim
import ImageCore

/// HEIF with HEVC-coded images (`.heic`, what iPhones write) through the system's libheif,
/// loaded when first used. See ``HEIFFamily`` for what is read and written.
public enum HEIFCodec: ImageCodec {
    public static let container = ContainerFormat.heif

    /// Reads the boxes: size, transform, alpha, bit depth, colour and EXIF.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try HEIFFamily.readHeader(bytes, options: options)
    }

    /// Decodes the primary image (``HEIFFamily/decode(_:options:)``).
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        try HEIFFamily.decode(bytes, options: options)
    }

    /// Encodes with libheif's HEVC encoder (``HEIFFamily/encode(_:as:options:)``).
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try HEIFFamily.encode(image, as: .heif, options: options)
    }
}

/// AVIF (HEIF with AV1-coded images) through the system's libheif. See ``HEIFFamily``.
public enum AVIFCodec: ImageCodec {
    public static let container = ContainerFormat.avif

    /// Reads the boxes: size, transform, alpha, bit depth, colour and EXIF.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try HEIFFamily.readHeader(bytes, options: options)
    }

    /// Decodes the primary image (``HEIFFamily/decode(_:options:)``).
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        try HEIFFamily.decode(bytes, options: options)
    }

    /// Encodes with libheif's AV1 encoder (``HEIFFamily/encode(_:as:options:)``).
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try HEIFFamily.encode(image, as: .avif, options: options)
    }
}

/// HEIF and AVIF: the header read by imglab (``HEIFStructure``), the pixels by libheif.
///
/// **Orientation** is the primary item's `irot` and `imir` properties (HEIF's own transform; MIAF
/// and browsers apply it and ignore an EXIF orientation, which is reported but not used): the
/// image holds the stored pixels and that orientation, as a JPEG holds its EXIF one. libheif
/// decodes the coded picture with its transforms ignored (libheif 1.15 turns some quarter-turned
/// pictures wrong: grids, AV1 4:4:4) and imglab crops it to the clean aperture; where libheif
/// cannot ignore them (an alpha image with a clean aperture or a turn), it applies them and
/// imglab turns the picture back to the stored pixels.
///
/// **Pixels**: 8-bit RGB, or RGBA when an alpha auxiliary image belongs to the primary image;
/// deeper files (10 or 12 bits) as 16-bit, each value scaled by 65535 / (2^bits − 1) and
/// rounded. Alpha is straight, or premultiplied (``PixelFormat/rgba8Premultiplied`` and its
/// 16-bit twin) when the file has a `prem` reference: libheif hands the samples over as stored.
///
/// **Colour**: a `colr` ICC profile is ``ImageMetadata/iccProfile``; `nclx` code points naming
/// primaries and a transfer (not sRGB's, not unspecified) become ``ImageMetadata/codingPoints``
/// (matrix 0, full range: libheif has already made RGB of the YCbCr).
public enum HEIFFamily {
    /// Whether libheif could be loaded, and if not why (with the package to install).
    public static var availability: (available: Bool, reason: String) {
        var why = [CChar](repeating: 0, count: 512)
        let available = imglab_heif_available(&why, why.count) == 1
        return (available, available ? "" : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Whether the loaded libheif can decode (or, with `encoder`, encode) `container`'s coding.
    public static func hasCodec(for container: ContainerFormat, encoder: Bool) -> Bool {
        imglab_heif_has_codec(container == .avif ? 1 : 0, encoder ? 1 : 0) == 1
    }

    /// Reads the header of a HEIF or AVIF file.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let s = try HEIFStructure(bytes)
        var header = ImageHeader(container: s.container, width: s.width, height: s.height, format: format(s),
                                 orientation: s.orientation, frameCount: 1, metadata: metadata(s))
        if let track = readableSequence(s) {
            header.frameCount = track.frameCount
            header.timing = AnimationTiming(loopCount: track.loopCount, delays: track.delays)
        }
        return header
    }

    /// The picture track imglab decodes: an AVIF's (libavif), when it has more than one frame. An HEVC sequence's
    /// frames are not read (its still item is).
    static func readableSequence(_ s: HEIFStructure) -> ImageSequenceTrack? {
        guard s.container == .avif, let track = s.sequence, track.frameCount > 1 else { return nil }
        return track
    }

    /// Decodes the primary image: sizes and bytes checked against the limits before libheif
    /// allocates (it holds the coded planes and the RGB picture at once: three images' worth
    /// is reserved), then cropped to the clean aperture.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        let s = try HEIFStructure(bytes)
        var limits = options.limits
        try limits.check(width: s.width, height: s.height)
        let (available, reason) = availability
        guard available else { throw .unsupported(s.container, feature: "decoding: \(reason)") }
        guard hasCodec(for: s.container, encoder: false) else {
            throw .unsupported(s.container, feature: "decoding: the installed libheif has no \(coding(s.container)) decoder")
        }
        let format = format(s)
        if options.decodeAllFrames, let track = readableSequence(s) {
            try limits.check(frames: track.frameCount)
            let frameBytes = s.codedWidth * s.codedHeight * 4 * (s.bitDepth > 8 ? 2 : 1)
            let (total, overflow) = frameBytes.multipliedReportingOverflow(by: track.frameCount + 2)
            try limits.reserve(bytes: overflow ? .max : total)
            let frames = try AVIFSequenceReader.frames(bytes, s, track: track, count: track.frameCount, format: format,
                                                       limits: limits)
            guard let first = frames.first else { throw .malformed(.avif, reason: "the sequence has no frame", offset: nil) }
            return Image(bitmap: first.canvas, orientation: s.orientation, metadata: metadata(s),
                         animation: Animation(loopCount: track.loopCount, frames: frames))
        }
        try limits.check(width: s.decodedArea.width, height: s.decodedArea.height)
        try limits.reserve(bytes: s.decodedArea.width * format.bitsPerPixel / 8 * s.decodedArea.height * 3)
        // The coded picture, cropped here; where libheif 1.15 cannot ignore the transforms, the
        // displayed picture, turned back here.
        var transformed = false
        // libheif 1.15 mishandles the alpha of a transformed picture (it drops a quarter-turned one's, or fails):
        // imglab decodes that alpha image on its own.
        var picture = if let alphaItem = s.alphaItem, s.hasTransform || s.hasCleanAperture {
            decodedPictureWithSeparateAlpha(bytes, s, alphaItem: alphaItem, limits: limits)
        } else {
            decodedPicture(bytes, s, limits: limits, transformed: false)
        }
        if picture.picture == nil, s.hasTransform || s.hasCleanAperture {
            transformed = true
            picture = decodedPicture(bytes, s, limits: limits, transformed: true)
        }
        guard let decoded = picture.picture else {
            throw .malformed(s.container, reason: "libheif cannot decode the image: \(picture.why)", offset: nil)
        }
        defer { imglab_heif_picture_free(decoded) }
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        var samples: UnsafePointer<UInt8>?
        imglab_heif_picture_layout(decoded, &width, &height, &stride, &samples)
        let bytesPerPixel = format.bitsPerPixel / 8
        let shown = s.orientation.displaySize(width: s.width, height: s.height)
        let crop = transformed ? PixelRect(x: 0, y: 0, width: shown.width, height: shown.height) : s.cleanAperture
        let expected = transformed ? shown : (width: s.codedWidth, height: s.codedHeight)
        // The alpha decoded on its own (a picture of three channels, the alpha plane beside it).
        var alphaWidth: Int32 = 0, alphaHeight: Int32 = 0, alphaStride: Int32 = 0
        var alphaSamples: UnsafePointer<UInt8>?
        let separateAlpha = imglab_heif_picture_alpha_layout(decoded, &alphaWidth, &alphaHeight, &alphaStride, &alphaSamples) == 1
        let colourBytesPerPixel = separateAlpha ? bytesPerPixel / 4 * 3 : bytesPerPixel
        guard let samples, Int(width) == expected.width, Int(height) == expected.height,
              Int(stride) >= Int(width) * colourBytesPerPixel else {
            throw .malformed(s.container, reason: "libheif delivered \(width)×\(height), the boxes state \(expected.width)×\(expected.height)",
                             offset: nil)
        }
        if separateAlpha {
            guard alphaSamples != nil, alphaWidth == width, alphaHeight == height else {
                throw .malformed(s.container, reason: "the alpha image is \(alphaWidth)×\(alphaHeight), the picture \(width)×\(height)",
                                 offset: nil)
            }
        }
        let outRow = crop.width * bytesPerPixel
        // Three channels and the alpha plane beside them, merged; else the interleaved rows copied.
        var pixels = if separateAlpha, let alphaSamples {
            merged(colour: samples, stride: Int(stride), alpha: alphaSamples, alphaStride: Int(alphaStride), crop: crop,
                   bitDepth: s.bitDepth)
        } else {
            [UInt8](repeating: 0, count: outRow * crop.height)
        }
        let high = s.bitDepth > 8, channels = format.slotCount, maximum = (1 << s.bitDepth) - 1
        let levels = s.decodesAsGray && !(s.nclx?.fullRange ?? false) ? fullRangeLevels(bitDepth: s.bitDepth) : nil
        if !separateAlpha { pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<crop.height {
                let row = samples + (crop.y + y) * Int(stride) + crop.x * bytesPerPixel, target = y * outRow
                guard high else {
                    if let levels {
                        for i in 0..<outRow { out[target + i] = UInt8(levels[Int(row[i])]) }
                    } else {
                        for i in 0..<outRow { out[target + i] = row[i] }
                    }
                    continue
                }
                for i in 0..<crop.width * channels {
                    let raw = min(Int(row[2 * i]) | Int(row[2 * i + 1]) << 8, maximum)
                    let stored = levels?[raw] ?? raw
                    let value = (stored * 65535 + maximum / 2) / maximum
                    out[target + 2 * i] = UInt8(value >> 8)
                    out[target + 2 * i + 1] = UInt8(value & 0xFF)
                }
            }
        } }
        let bitmap = Bitmap(uncheckedWidth: crop.width, height: crop.height, format: format, bytesPerRow: outRow, bytes: pixels)
        return Image(bitmap: transformed ? s.orientation.inverse.apply(to: bitmap) : bitmap, orientation: s.orientation,
                     metadata: metadata(s))
    }

    /// Limited-range luma (16…235 at 8 bits, scaled by 2^(bits − 8) above: ITU-T H.273's video range) to full range,
    /// for every stored value: v → round((v − 16k) · (2^bits − 1) / (219k)), k = 2^(bits − 8), clipped. Applied to
    /// a gray picture whose `nclx` does not state full range (HEVC's and AV1's default).
    static func fullRangeLevels(bitDepth: Int) -> [Int] {
        let k = 1 << (bitDepth - 8), maximum = (1 << bitDepth) - 1
        return (0...maximum).map { v in
            let scaled = (v - 16 * k) * maximum
            return scaled <= 0 ? 0 : min(maximum, (scaled + 219 * k / 2) / (219 * k))
        }
    }

    /// RGB rows and an alpha plane (each 8-bit, or 16-bit little-endian holding `bitDepth`-bit values) as the
    /// cropped RGBA rows of the still path: deep samples scaled to 16 bits (round(s · 65535 / (2^bits − 1)),
    /// big-endian).
    static func merged(colour: UnsafePointer<UInt8>, stride: Int, alpha: UnsafePointer<UInt8>, alphaStride: Int,
                       crop: PixelRect, bitDepth: Int) -> [UInt8] {
        let high = bitDepth > 8, sampleBytes = high ? 2 : 1, maximum = (1 << bitDepth) - 1
        let outRow = crop.width * 4 * sampleBytes
        var pixels = [UInt8](repeating: 0, count: outRow * crop.height)
        func sample(_ row: UnsafePointer<UInt8>, _ index: Int) -> Int {
            high ? min(Int(row[2 * index]) | Int(row[2 * index + 1]) << 8, maximum) : Int(row[index])
        }
        for y in 0..<crop.height {
            let colourRow = colour + (crop.y + y) * stride, alphaRow = alpha + (crop.y + y) * alphaStride
            for x in 0..<crop.width {
                for c in 0..<4 {
                    let stored = c < 3 ? sample(colourRow, (crop.x + x) * 3 + c) : sample(alphaRow, crop.x + x)
                    let i = y * outRow + (x * 4 + c) * sampleBytes
                    if high {
                        let value = (stored * 65535 + maximum / 2) / maximum
                        (pixels[i], pixels[i + 1]) = (UInt8(value >> 8), UInt8(value & 0xFF))
                    } else {
                        pixels[i] = UInt8(stored)
                    }
                }
            }
        }
        return pixels
    }

    /// libheif's decode of the coded picture and, on its own, of its alpha image, or why it failed.
    private static func decodedPictureWithSeparateAlpha(_ bytes: [UInt8], _ s: HEIFStructure, alphaItem: Int,
                                                        limits: DecodeLimits) -> (picture: OpaquePointer?, why: String) {
        var why = [CChar](repeating: 0, count: 512)
        let picture = bytes.withUnsafeBufferPointer { input in
            imglab_heif_decode_separate_alpha(input.baseAddress, input.count, Int32(clamping: limits.maxDimension),
                                              s.bitDepth > 8 ? 1 : 0, UInt32(clamping: alphaItem), &why, why.count)
        }
        return (picture, String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// libheif's decode of the primary image, its transforms ignored or applied, or why it failed.
    private static func decodedPicture(_ bytes: [UInt8], _ s: HEIFStructure, limits: DecodeLimits,
                                       transformed: Bool) -> (picture: OpaquePointer?, why: String) {
        var why = [CChar](repeating: 0, count: 512)
        let picture = bytes.withUnsafeBufferPointer { input in
            imglab_heif_decode(input.baseAddress, input.count, Int32(clamping: limits.maxDimension), s.hasAlpha ? 1 : 0,
                               s.bitDepth > 8 ? 1 : 0, s.decodesAsGray ? 1 : 0, transformed ? 1 : 0, &why, why.count)
        }
        return (picture, String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Encodes the image (its first frame) with libheif's HEVC (`.heif`) or AV1 (`.avif`)
    /// encoder (``HEIFEncoder``).
    public static func encode(_ image: Image, as container: ContainerFormat, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try HEIFEncoder.encode(image, as: container, options: options)
    }

    /// A 16-bit bitmap as the encoder stores it and the decoder delivers it: each value rounded
    /// to the depth `options` writes `container` at and expanded back (v → round(round(v · m / 65535)
    /// · 65535 / m), m = 2^bits − 1). Other bitmaps unchanged.
    public static func storedSamples(_ bitmap: Bitmap, as container: ContainerFormat, options: EncodeOptions) -> Bitmap {
        guard bitmap.format.bitsPerComponent == 16, !bitmap.format.isFloat else { return bitmap }
        let m = (1 << HEIFEncoder.storedBitDepth(container, options)) - 1
        var bytes = bitmap.bytes
        for y in 0..<bitmap.height {
            let row = y * bitmap.bytesPerRow
            for i in stride(from: row, to: row + bitmap.width * bitmap.format.bitsPerPixel / 8, by: 2) {
                let stored = ((Int(bytes[i]) << 8 | Int(bytes[i + 1])) * m + 32_767) / 65_535
                let value = (stored * 65_535 + m / 2) / m
                (bytes[i], bytes[i + 1]) = (UInt8(value >> 8), UInt8(value & 0xFF))
            }
        }
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, format: bitmap.format, bytesPerRow: bitmap.bytesPerRow,
                      bytes: bytes)
    }

    static func coding(_ container: ContainerFormat) -> String { container == .avif ? "AV1" : "HEVC" }

    static func format(_ s: HEIFStructure) -> PixelFormat {
        PixelFormat(colorModel: s.decodesAsGray ? .gray : .rgb, bitsPerComponent: s.bitDepth > 8 ? 16 : 8,
                    alphaInfo: !s.hasAlpha ? .none : s.premultipliedAlpha ? .premultipliedLast : .last)
    }

    static func metadata(_ s: HEIFStructure) -> ImageMetadata {
        var metadata = ImageMetadata(iccProfile: s.iccProfile, exif: s.exif)
        metadata.storedBitDepth = s.bitDepth
        metadata.properties["coding"] = "\(coding(s.container)) (\(s.primaryItemType) item), brand \(s.majorBrand)"
        if s.hasTransform { metadata.orientationSource = .heifTransform }
        if let stated = s.exif.flatMap({ EXIF.orientation(in: $0) }) {
            metadata.orientationSource = .heifTransform  // the rule: the transform states it, even when absent (up)
            metadata.properties["EXIF orientation"] = "\(stated.exifValue), not used: HEIF's irot/imir state the orientation"
                + (stated == s.orientation ? " (they agree)" : " (they disagree)")
        }
        if let track = s.sequence {
            metadata.properties["frames"] = "\(track.frameCount) in a picture track, loop count \(track.loopCount)"
                + (readableSequence(s) == nil && track.frameCount > 1 ? " (an HEVC sequence: its still item is read)" : "")
        }
        if s.hasAlpha { metadata.properties["alpha"] = "auxiliary image, " + (s.premultipliedAlpha ? "premultiplied (prem)" : "straight") }
        if s.hasCleanAperture { metadata.properties["clean aperture"] = "\(s.width)×\(s.height) (clap), cropped to it" }
        if let n = s.nclx {
            metadata.properties["nclx"] = "\(n.primaries)/\(n.transfer)/\(n.matrix)/\(n.fullRange ? 1 : 0)"
            let unspecified = n.primaries == 2 || n.transfer == 2, sRGB = n.primaries == 1 && n.transfer == 13
            if s.iccProfile == nil, !unspecified, !sRGB, let p = UInt8(exactly: n.primaries), let t = UInt8(exactly: n.transfer) {
                metadata.codingPoints = [p, t, 0, 1]
            }
        }
        return metadata
    }
}
