import ImageCore

/// JPEG decoder and encoder (placeholder until the codec lands).
public enum JPEGCodec: ImageCodec {
    public static let container = ContainerFormat.jpeg

    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        throw .unsupported(.jpeg, feature: "the JPEG codec is not built yet")
    }

    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        throw .unsupported(.jpeg, feature: "the JPEG codec is not built yet")
    }

    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("the JPEG encoder is not built yet")
    }
}
