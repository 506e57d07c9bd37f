import ImageCore

/// Windows and OS/2 bitmaps, parsed and written by hand.
///
/// Spec: https://learn.microsoft.com/en-us/windows/win32/gdi/bitmap-storage ;
/// test suite and notes: https://entropymine.com/jason/bmpsuite/
///
/// Decoding validates the whole header (``BMPHeader``) and checks limits before allocating,
/// then delivers the most exact ``PixelFormat`` (``BMPDecoder``). `metadata.storedBitDepth`
/// is `biBitCount`. BI_JPEG / BI_PNG and OS/2 Huffman are ``DecodeError/unsupported(_:feature:)``.
public enum BMPCodec: ImageCodec {
    public static let container = ContainerFormat.bmp

    /// Reads the headers and the format a decode delivers (walking run-length data, without
    /// storing it, to learn whether pixels are skipped).
    /// A headerless DIB (``BMPHeaderlessDIB``) is read as the BMP it would be with its file header.
    /// - Throws: ``DecodeError/truncated(_:reason:offset:)`` for run-length data that writes less
    ///   than `options.limits.minimumRunLengthCoverage` of the image.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        let bytes = withFileHeader(bytes)
        let header = try BMPHeader(parsing: bytes, limits: options.limits)
        let layout = try BMPDecoder.layout(of: header, bytes: bytes, limits: options.limits)
        return ImageHeader(container: .bmp, width: header.width, height: header.height, format: layout.format,
                           metadata: BMPDecoder.metadata(of: header, layout: layout))
    }

    /// Decodes the bitmap (a headerless DIB as the BMP it would be with its file header).
    /// - Throws: as ``readHeader(_:options:)``, and ``DecodeError/limitExceeded(_:requested:allowed:)``.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        var limits = options.limits
        let bytes = withFileHeader(bytes)
        let header = try BMPHeader(parsing: bytes, limits: limits)
        let layout = try BMPDecoder.layout(of: header, bytes: bytes, limits: limits)
        let bitmap = try BMPDecoder.bitmap(header, layout: layout, bytes: bytes, limits: &limits)
        return Image(bitmap: bitmap, metadata: BMPDecoder.metadata(of: header, layout: layout))
    }

    /// `bytes` as they are when they start with "BM", else with the file header a headerless
    /// DIB lacks (unchanged when they are not one either: the header parser then says why).
    private static func withFileHeader(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.starts(with: "BM".utf8), let file = BMPHeaderlessDIB.withFileHeader(bytes) else { return bytes }
        return file
    }

    /// Encodes the image; see ``BMPEncoder`` for the layout each pixel format gets.
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try BMPEncoder.encode(image, options: options)
    }
}
