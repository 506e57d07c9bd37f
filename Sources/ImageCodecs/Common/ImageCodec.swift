import ImageCore

/// A container's decoder and encoder. Each container has one conforming type
/// (`PNGCodec`, `JPEGCodec`, …); ``ImageCodecs`` picks one by sniffing.
///
/// Call order: ``readHeader(_:options:)`` to learn size and format without touching pixels,
/// or ``decode(_:options:)`` for the whole image. Both check limits before allocating.
public protocol ImageCodec: Sendable {
    /// The container this codec reads and writes.
    static var container: ContainerFormat { get }
    /// Reads the header only.
    static func readHeader(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> ImageHeader
    /// Decodes the image (all frames when animated and `options.decodeAllFrames`).
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws(DecodeError) -> Image
}
