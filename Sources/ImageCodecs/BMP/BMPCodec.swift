import ImageCore

/// BMP decoder and encoder (placeholder until the codec lands).
public enum BMPCodec: ImageCodec {
    public static let container = ContainerFormat.bmp

    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader {
        throw .unsupported(.bmp, feature: "the BMP codec is not built yet")
    }

    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image {
        throw .unsupported(.bmp, feature: "the BMP codec is not built yet")
    }

    public static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("the BMP encoder is not built yet")
    }
}
