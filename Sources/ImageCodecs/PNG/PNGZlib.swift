import CImageShim

/// zlib streams inside PNG ancillary chunks (iCCP, zTXt, compressed iTXt) and the iCCP the
/// encoder writes. Pixel data (IDAT, fdAT) is inflated by libdeflate (``PNGInflatedRows``) or
/// libpng, not here.
enum PNGZlib {
    /// The outcome of inflating one stream.
    enum Inflated: Sendable {
        /// The whole stream, inflated.
        case data([UInt8])
        /// zlib rejected the stream; the string is its reason.
        case corrupt(String)
        /// The stream inflates to more than the allowed size.
        case tooLarge(allowed: Int)
    }

    /// Inflates one complete zlib stream, refusing to produce more than `maxOutput` bytes.
    static func inflate(_ input: ArraySlice<UInt8>, maxOutput: Int) -> Inflated {
        let source = Array(input)
        guard !source.isEmpty else { return .corrupt("empty stream") }
        var capacity = min(max(source.count * 4, 1024), maxOutput)
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var length = uLongf(capacity)
            let status = output.withUnsafeMutableBufferPointer { out in
                source.withUnsafeBufferPointer { src in
                    uncompress(out.baseAddress, &length, src.baseAddress, uLong(src.count))
                }
            }
            switch status {
            case Z_OK:
                return .data(Array(output.prefix(Int(length))))
            case Z_BUF_ERROR:
                // The output buffer was full: grow it, up to the cap.
                guard capacity < maxOutput else { return .tooLarge(allowed: maxOutput) }
                capacity = capacity > maxOutput / 2 ? maxOutput : capacity * 2
            case Z_MEM_ERROR:
                return .corrupt("zlib ran out of memory")
            default:
                return .corrupt("zlib data error (incomplete or invalid stream)")
            }
        }
    }

    /// Deflates `input` as one zlib stream at the default compression level.
    static func deflate(_ input: [UInt8]) -> [UInt8]? {
        var capacity = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { src in
                compress2(out.baseAddress, &capacity, src.baseAddress, uLong(src.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(capacity)))
    }
}
