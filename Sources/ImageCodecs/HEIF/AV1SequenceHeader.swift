import ImageCore

/// The largest frame an AV1 bitstream declares (its sequence header's max_frame_width and
/// max_frame_height; AV1 specification §5.5.1): what dav1d allocates for, whatever the HEIF
/// boxes say, so the decoder checks it against the limits first.
enum AV1SequenceHeader {
    /// The declared largest frame of the first sequence header among `data`'s OBUs (each with
    /// its size field, as AVIF stores them), or `nil` when there is none or it cannot be read.
    static func maxFrameSize(in data: [UInt8]) -> (width: Int, height: Int)? {
        var at = 0
        while at < data.count {
            let header = data[at]
            let type = Int(header >> 3 & 15), hasExtension = header & 4 != 0, hasSize = header & 2 != 0
            at += hasExtension ? 2 : 1
            guard hasSize, let (size, used) = leb128(data, at) else { return nil }
            at += used
            guard size <= data.count - at else { return nil }
            if type == 1 { return sequenceHeader(Array(data[at..<at + size])) }
            at += size
        }
        return nil
    }

    private static func leb128(_ data: [UInt8], _ start: Int) -> (Int, Int)? {
        var value = 0
        for i in 0..<8 where start + i < data.count {
            value |= Int(data[start + i] & 0x7F) << (7 * i)
            if data[start + i] & 0x80 == 0 { return (value, i + 1) }
        }
        return nil
    }

    private static func sequenceHeader(_ payload: [UInt8]) -> (width: Int, height: Int)? {
        var bits = BitReader(payload)
        func f(_ n: Int) -> Int? { bits.read(n) }
        guard f(3) != nil, f(1) != nil, let reduced = f(1) else { return nil }
        if reduced == 1 {
            guard f(5) != nil else { return nil }
        } else {
            guard let timing = f(1) else { return nil }
            var decoderModel = 0, delayLength = 0
            if timing == 1 {
                guard f(32) != nil, f(32) != nil, let equal = f(1) else { return nil }
                if equal == 1 { guard bits.uvlc() != nil else { return nil } }
                guard let model = f(1) else { return nil }
                decoderModel = model
                if model == 1 {
                    guard let length = f(5), f(32) != nil, f(5) != nil, f(5) != nil else { return nil }
                    delayLength = length + 1
                }
            }
            guard let displayDelay = f(1), let points = f(5) else { return nil }
            for _ in 0...points {
                guard f(12) != nil, let level = f(5) else { return nil }
                if level > 7 { guard f(1) != nil else { return nil } }
                if decoderModel == 1 {
                    guard let present = f(1) else { return nil }
                    if present == 1 { guard f(delayLength) != nil, f(delayLength) != nil, f(1) != nil else { return nil } }
                }
                if displayDelay == 1 {
                    guard let present = f(1) else { return nil }
                    if present == 1 { guard f(4) != nil else { return nil } }
                }
            }
        }
        guard let widthBits = f(4), let heightBits = f(4), let width = f(widthBits + 1), let height = f(heightBits + 1) else {
            return nil
        }
        return (width + 1, height + 1)
    }

    /// Most-significant-bit-first reads.
    private struct BitReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func read(_ n: Int) -> Int? {
            guard n >= 0, n <= 32, position + n <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<n {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - position & 7) & 1)
                position += 1
            }
            return value
        }

        /// uvlc(): leading zeros, then that many bits.
        mutating func uvlc() -> Int? {
            var zeros = 0
            while true {
                guard let bit = read(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                if zeros >= 32 { return nil }
            }
            guard let rest = read(zeros) else { return nil }
            return rest + (1 << zeros) - 1
        }
    }
}
