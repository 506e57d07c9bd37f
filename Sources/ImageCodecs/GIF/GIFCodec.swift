import ImageCore

/// GIF decoder and encoder (placeholder until the codec lands).
public enum GIFCodec: ImageCodec {
    public static let container = ContainerFormat.gif

    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        throw .unsupported(.gif, feature: "the GIF codec is not built yet")
    }

    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        throw .unsupported(.gif, feature: "the GIF codec is not built yet")
    }

    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("the GIF encoder is not built yet")
    }
}
