import ImageCore
enum PNGEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        throw .invalidOption("todo")
    }
}
