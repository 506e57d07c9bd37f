import ImageCore

/// JPEG (ITU T.81 | ISO/IEC 10918-1) through libjpeg-turbo, with JFIF, EXIF and ICC markers.
///
/// Related links: ITU T.81 (https://www.w3.org/Graphics/JPEG/itu-t81.pdf), JFIF 1.02
/// (ITU T.871), Adobe Technical Note 5116 (APP14, CMYK/YCCK), ICC.1:2010 Annex B.4 (ICC in
/// APP2), CIPA DC-008 (EXIF in APP1).
///
/// Decoding delivers pixels as stored: gray 8-bit, RGB 8-bit (YCbCr converted by libjpeg
/// with its default "fancy" upsampling and integer IDCT), or 8-bit CMYK, Adobe-inverted when
/// the APP14 marker is present. Baseline, extended, progressive and arithmetic-coded files
/// decode; lossless, hierarchical, JPEG-LS, 12-bit and DNL files throw `.unsupported`.
/// `metadata.storedBitDepth` is the SOF precision; `metadata.properties` holds `jpeg.*` facts
/// (process, coding, colour space, sampling, Adobe transform, scale, repaired warnings).
public enum JPEGCodec: ImageCodec {
    public static let container = ContainerFormat.jpeg

    /// Reads size, format, orientation and metadata without decoding pixels; the sizes of the
    /// 1/2, 1/4 and 1/8 decodes are listed in `metadata.properties["jpeg.scaledSizes"]`.
    /// - Throws: `.unsupported` for processes imglab does not decode, `.malformed` /
    ///   `.truncated` when libjpeg cannot read the header.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let parsed = try JPEGDecoder.readHeader(bytes)
        guard let format = parsed.header.deliveredFormat else {
            throw .unsupported(.jpeg, feature: "\(parsed.header.componentCount)-component JPEG without a known colour space")
        }
        var metadata = JPEGDecoder.imageMetadata(parsed)
        metadata.properties["jpeg.scaledSizes"] = JPEGHeader.scaleDenominators.dropFirst().map { d in
            let size = parsed.header.outputSize(scaleDenominator: d)
            return "1/\(d): \(size.width)×\(size.height)"
        }.joined(separator: ", ")
        return ImageHeader(container: .jpeg, width: parsed.header.width, height: parsed.header.height, format: format,
                           orientation: parsed.metadata.orientation, metadata: metadata)
    }

    /// The JPEG-specific header: components, process, sampling, Adobe transform, and the
    /// sizes a scaled decode delivers (``JPEGHeader/outputSize(scaleDenominator:)``).
    public static func readJPEGHeader(_ bytes: [UInt8]) throws(DecodeError) -> JPEGHeader {
        try JPEGDecoder.readHeader(bytes).header
    }

    /// Decodes the image, at 1/`options.jpegScaleDenominator` (1, 2, 4, 8) in the DCT domain;
    /// the output is ⌈width / d⌉ × ⌈height / d⌉.
    /// - Throws: `.limitExceeded` before allocating when the declared size, the output size or
    ///   the estimated memory exceeds `options.limits`; `.malformed` / `.truncated` with the byte
    ///   offset libjpeg had reached; `.unsupported` as for ``readHeader(_:options:)``.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        try JPEGDecoder.decode(bytes, options: options)
    }

    /// Encodes with `options.jpegQuality`, `jpegSubsampling` and `jpegProgressive`; see
    /// ``JPEGEncoder`` for how each pixel format is stored (alpha is dropped).
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try JPEGEncoder.encode(image, options: options)
    }
}
