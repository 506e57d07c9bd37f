import ImageCore

/// PNG decoder and encoder (placeholder until the codec lands).
public enum PNGCodec: ImageCodec {
    public static let container = ContainerFormat.png

    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        throw .unsupported(.png, feature: "the PNG codec is not built yet")
    }

    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        throw .unsupported(.png, feature: "the PNG codec is not built yet")
    }

    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("the PNG encoder is not built yet")
    }
}
