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
        case .webp: return WebPCodec.self
        case .heif: return HEIFCodec.self
        case .avif: return AVIFCodec.self
        }
    }

    /// The container of `bytes`, or ``DecodeError/unknownFormat(signature:)``.
    public static func sniff(_ bytes: [UInt8]) throws(DecodeError) -> ContainerFormat {
        guard let format = ContainerFormat(sniffing: bytes) else {
            throw .unknownFormat(signature: Array(bytes.prefix(12)))
        }
        return format
    }

    /// Reads the header of any supported file.
    public static func readHeader(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageHeader {
        try codec(for: sniff(bytes)).readHeader(bytes, options: options)
    }

    /// Reads the header of the file at `path`. A PNG whose signature and IHDR are sound has its
    /// chunks walked with the pixel data skipped, so the file is never held whole; every other
    /// file is read into memory (refused beyond `options.limits.maxBytes`) and parsed by
    /// ``readHeader(_:options:)``, which names what is wrong with it.
    public static func readHeader(path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageHeader {
        // Signature (8) + IHDR's length and type (8), data (13) and CRC (4).
        let start = try readFile(path, limit: options.limits.maxBytes, prefix: 33)
        if ContainerFormat(sniffing: start) == .png, (try? PNGImageHeader(readingStartOf: start)) != nil {
            return try PNGDecoder.readHeader(path: path, start: start, options: options)
        }
        return try readHeader(try readFile(path, limit: options.limits.maxBytes), options: options)
    }

    /// Decodes any supported file. A float image holding NaN or infinite samples gets a
    /// warning in its metadata saying how many and how they are read.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> Image {
        var image = try codec(for: sniff(bytes)).decode(bytes, options: options)
        let nonFinite = image.bitmap.nonFiniteSampleCount
        if nonFinite > 0 { image.metadata.warnings.append(Bitmap.nonFiniteWarning(nonFinite)) }
        return image
    }

    /// Reads a file, refusing one larger than `options.limits.maxBytes`, and decodes it; the
    /// file's bytes count against the same budget as its pixels.
    public static func decode(contentsOf path: String, options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> Image {
        let bytes = try readFile(path, limit: options.limits.maxBytes)
        var options = options
        try options.limits.reserve(bytes: bytes.count)
        return try decode(bytes, options: options)
    }

    /// Reads a file into memory, refusing one larger than `limit` bytes; with `prefix`, only
    /// its first `prefix` bytes (enough for a header).
    public static func readFile(_ path: String, limit: Int = .max, prefix: Int) throws(DecodeError) -> [UInt8] {
        var status = stat()
        guard FileSystemName.withRepresentation(path, { stat($0, &status) }) == 0 else { throw .io(path: path, reason: "no such file") }
        return try readPrefix(path, count: prefix)
    }

    /// Reads a whole file into memory, refusing one larger than `limit` bytes.
    ///
    /// One `read` loop straight into the array's uninitialised storage: no intermediate buffer
    /// (for a 16 MB PNG that was a second copy and 4 000 more page faults).
    public static func readFile(_ path: String, limit: Int = .max) throws(DecodeError) -> [UInt8] {
        let fd = FileSystemName.withRepresentation(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            throw .io(path: path, reason: code == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(path: path, reason: "cannot stat the file") }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .io(path: path, reason: "is a directory") }
        let size = Int(status.st_size)
        guard size <= limit else { throw .limitExceeded(.bytes, requested: size, allowed: limit) }
        var readError: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while initialized < size {
                let n = read(fd, buffer.baseAddress.map { $0 + initialized }, size - initialized)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { readError = errno; break }
                if n == 0 { break }  // the file shrank since fstat
                initialized += n
            }
        }
        guard readError == 0 else { throw .io(path: path, reason: "cannot read: \(String(cString: strerror(readError)))") }
        guard bytes.count == size else { return bytes }  // the file shrank since fstat
        // Until end of file: it may have grown since fstat, or report no size (a pipe, /proc).
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .io(path: path, reason: "cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw .limitExceeded(.bytes, requested: bytes.count + n, allowed: limit) }
            bytes += block[0..<n]
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
        case .webp: return try WebPCodec.encode(image, options: options)
        case .heif: return try HEIFCodec.encode(image, options: options)
        case .avif: return try AVIFCodec.encode(image, options: options)
        }
    }

    /// Writes `bytes` to `path` atomically by ``OutputFile``'s rules: only a new path or a
    /// regular file (its permission bits kept), through a temporary file in the same folder and
    /// a rename, so a reader never sees a half-written file.
    /// - Throws: ``EncodeError/refusedTarget(path:found:)`` for a directory, FIFO, socket,
    ///   device or symbolic link at `path` (nothing is created), ``EncodeError/io(path:reason:)``.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(EncodeError) {
        try OutputFile.write(bytes, to: path)
    }
}
