import Foundation
import ImageCore

/// Entry points that pick the codec by sniffing the bytes.
public enum ImageCodecs {
    /// The codec type for a container.
    public static func codec(for container: ContainerFormat) -> any ImageCodec.Type {
        switch container {
        case .png: return PNGCodec.self
        case .jpeg: return JPEGCodec.self
        case .gif: return GIFCodec.self
        case .tiff: return TIFFCodec.self
        case .bmp: return BMPCodec.self
        }
    }

    /// The container of `bytes`, or ``DecodeError/unknownFormat(signature:)``.
    public static func sniff(_ bytes: [UInt8]) throws(DecodeError) -> ContainerFormat {
        guard let format = ContainerFormat(sniffing: bytes) else {
            throw .unknownFormat(signature: Array(bytes.prefix(8)))
        }
        return format
    }

    /// Reads the header of any supported file.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageHeader {
        try codec(for: sniff(bytes)).readHeader(bytes, options: options)
    }

    /// Decodes any supported file.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> Image {
        try codec(for: sniff(bytes)).decode(bytes, options: options)
    }

    /// Reads a file, refusing one larger than `options.limits.maxBytes`, and decodes it.
    public static func decode(contentsOf path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> Image {
        try decode(readFile(path, limit: options.limits.maxBytes), options: options)
    }

    /// Reads a file into memory, refusing one larger than `limit` bytes; with `prefix`, only
    /// its first `prefix` bytes (enough for a header).
    public static func readFile(_ path: String, limit: Int = .max, prefix: Int) throws(DecodeError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { throw .io(path: path, reason: "no such file") }
        return try readPrefix(path, count: prefix)
    }

    /// Reads a whole file into memory, refusing one larger than `limit` bytes.
    public static func readFile(_ path: String, limit: Int = .max) throws(DecodeError) -> [UInt8] {
        let url = URL(fileURLWithPath: path)
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .io(path: path, reason: FileManager.default.fileExists(atPath: path) ? "cannot stat the file" : "no such file")
        }
        guard size <= limit else { throw .limitExceeded(.bytes, requested: size, allowed: limit) }
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw .io(path: path, reason: error.localizedDescription)
        }
    }

    /// Encodes `image` in `container`.
    public static func encode(_ image: Image, as container: ContainerFormat, options: EncodeOptions = EncodeOptions()) throws(EncodeError) -> [UInt8] {
        switch container {
        case .png: return try PNGCodec.encode(image, options: options)
        case .jpeg: return try JPEGCodec.encode(image, options: options)
        case .gif: return try GIFCodec.encode(image, options: options)
        case .tiff: return try TIFFCodec.encode(image, options: options)
        case .bmp: return try BMPCodec.encode(image, options: options)
        }
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename,
    /// so a reader never sees a half-written file.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .io(path: path, reason: error.localizedDescription)
        }
    }
}
