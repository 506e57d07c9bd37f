/// Decodes image data whose LZW minimum code size is 9, 10 or 11.
///
/// giflib 5.2 refuses minimum code sizes above 8 (reporting a read failure, `dgif_lib.c`
/// `DGifSetupDecompress`), but GIF89a only bounds codes at 12 bits, and Pillow and browsers
/// decode such files (Pillow #2811). ``GIFReader`` reads everything else through giflib
/// and hands only these images here. Literal codes above 255 cannot be palette indices and
/// are stored modulo 256.
enum GIFWideCodeLZW {
    /// The sub-block chain starting at `offset`: its concatenated payload and the offset just
    /// past the zero-length terminator (or the end of the file when the chain is cut).
    static func subBlocks(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> (data: [UInt8], end: Int) {
        var data: [UInt8] = []
        var i = offset
        while i < bytes.count {
            let n = Int(bytes[i])
            i += 1
            if n == 0 { break }
            let stop = min(i + n, bytes.count)
            data.append(contentsOf: bytes[i..<stop])
            i = stop
        }
        return (data, i)
    }

    /// Up to `pixelCount` indices decoded from `data`; fewer when the data ends early or holds
    /// an invalid code (the caller decides whether a short image is an error).
    static func decode(_ data: [UInt8], minCodeSize: Int, pixelCount: Int) -> [UInt8] {
        let clear = 1 << minCodeSize, end = clear + 1
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var firstOf = [UInt8](repeating: 0, count: 4096)
        for i in 0..<min(clear, 4096) {
            suffix[i] = UInt8(truncatingIfNeeded: i)
            firstOf[i] = suffix[i]
        }
        var out: [UInt8] = []
        out.reserveCapacity(pixelCount)
        var stack: [UInt8] = []
        var width = minCodeSize + 1, next = clear + 2, previous = -1
        var bitPosition = 0
        let totalBits = data.count * 8
        while out.count < pixelCount, bitPosition + width <= totalBits {
            var code = 0
            for k in 0..<width {
                let bit = bitPosition + k
                code |= Int((data[bit >> 3] >> UInt8(bit & 7)) & 1) << k
            }
            bitPosition += width
            if code == clear { width = minCodeSize + 1; next = clear + 2; previous = -1; continue }
            if code == end { break }
            if previous < 0 {
                guard code < clear else { break }
                out.append(suffix[code])
                previous = code
                continue
            }
            guard code <= next, code < 4096 else { break }
            // KwKwK: the code being defined is the previous string plus its own first byte.
            let first = code == next ? firstOf[previous] : firstOf[code]
            if next < 4096 {
                prefix[next] = previous
                suffix[next] = first
                firstOf[next] = firstOf[previous]
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
            stack.removeAll(keepingCapacity: true)
            var c = code
            // Chains are at most 4096 long: every prefix link points to a smaller code.
            while c >= 0 && stack.count < 4096 {
                stack.append(suffix[c])
                c = c < clear ? -1 : prefix[c]
            }
            for b in stack.reversed() where out.count < pixelCount { out.append(b) }
            previous = code
        }
        return out
    }
}
