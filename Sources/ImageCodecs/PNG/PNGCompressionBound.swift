/// A PNG whose IDAT chunks cannot hold the pixels IHDR declares is refused as truncated before
/// any pixel buffer exists, whatever its size says (a 300-byte file declaring 16000 × 16000).
///
/// Deflate (RFC 1951) expands at most 1032-fold: its longest copy, 258 bytes, costs at least a
/// 1-bit length code and a 1-bit distance code. So `n` bytes of IDAT data inflate to at most
/// `1032 · n` bytes (plus one block's worth of slack), and an image needs at least
/// `⌈width · height · bits per pixel / 8⌉` of them (filter bytes and Adam7 passes only add).
enum PNGCompressionBound {
    /// The largest expansion of deflate, in inflated bytes per compressed byte.
    static let maxExpansion = 1032

    /// Throws ``DecodeError/truncated(_:reason:offset:)`` when the IDAT data is too short.
    static func check(_ header: PNGImageHeader, _ list: PNGChunkList) throws(DecodeError) {
        let idat = list.all("IDAT")
        let compressed = idat.reduce(0) { $0 + $1.dataLength }
        let channels = header.colorType.channelCount
        // pixels < 2⁶² and bits per pixel ≤ 64: divide by 8 before multiplying, so nothing overflows.
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        let needed = overflow ? Int.max : pixels / 8 * header.bitDepth * channels + (pixels % 8 * header.bitDepth * channels + 7) / 8
        let (most, tooMany) = compressed.multipliedReportingOverflow(by: maxExpansion)
        guard tooMany || needed > most + maxExpansion else { return }
        throw .truncated(.png, reason: "IHDR declares \(header.width)×\(header.height) at \(header.bitDepth * channels) bits a pixel, at least \(needed) bytes of pixel data; \(idat.count) IDAT chunk(s) hold \(compressed) bytes, which inflate to at most \(most + maxExpansion)",
                         offset: idat.first?.offset)
    }
}
