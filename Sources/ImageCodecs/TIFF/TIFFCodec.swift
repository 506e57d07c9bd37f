import ImageCore

/// TIFF decoder and encoder (placeholder until the codec lands).
public enum TIFFCodec: ImageCodec {
    public static let container = ContainerFormat.tiff

    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        throw .unsupported(.tiff, feature: "the TIFF codec is not built yet")
    }

    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        throw .unsupported(.tiff, feature: "the TIFF codec is not built yet")
    }

    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("the TIFF encoder is not built yet")
    }
}
