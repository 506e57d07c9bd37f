import ImageCore

/// TIFF (Tagged Image File Format) through libtiff 4.5.
///
/// Decoding reads the first page (IFD 0) and reports how many pages the file has in
/// `metadata.properties["pages"]`; ``TIFFPixelPlan`` says which pixel format each sample layout
/// is delivered in, and ``TIFFEncoder`` which formats are written as they are.
///
/// Related links: TIFF 6.0 specification (Adobe, 1992), Adobe PageMaker 6.0 TIFF Technical
/// Notes (SubIFDs, Deflate), libtiff documentation at https://libtiff.gitlab.io/libtiff/.
public enum TIFFCodec: ImageCodec {
    public static let container = ContainerFormat.tiff

    /// Reads the first IFD only: size, the pixel format ``decode(_:options:)`` delivers,
    /// orientation (tag 274) and container facts. Pages are not counted.
    /// - Throws: ``DecodeError`` when the header is unreadable, exceeds `options.limits` or uses
    ///   a sample layout imglab does not decode.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        try TIFFDecoder.header(bytes, options: options)
    }

    /// Decodes the first page with its pixels as stored (orientation not applied), ICC profile,
    /// stored bit depth and properties (compression, photometric, planar, tiled, extra samples, pages).
    /// - Throws: ``DecodeError``; limits are checked against the IFD before any pixel buffer exists.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        try TIFFDecoder.decode(bytes, options: options)
    }

    /// Encodes `image` as a single-page little-endian TIFF (see ``TIFFEncoder`` for formats and options).
    /// - Throws: ``EncodeError/library(_:_:)`` with libtiff's message when writing fails.
    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        try TIFFEncoder.encode(image, options: options)
    }
}
