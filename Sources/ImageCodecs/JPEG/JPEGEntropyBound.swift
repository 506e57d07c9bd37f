/// A Huffman-coded JPEG whose file cannot hold the MCUs its SOF declares is refused as
/// truncated before any pixel buffer exists (a 634-byte file declaring 16000 × 16000).
///
/// Every scan codes each data unit's DC (or, in a progressive file's first scans, its DC
/// approximation) with a Huffman code of at least one bit (ITU T.81 C: code lengths 1…16), and
/// the first scan covers every MCU, so a complete file holds at least one bit per MCU:
/// `⌈width / (8 · Hmax)⌉ · ⌈height / (8 · Vmax)⌉` bits. Arithmetic-coded files (SOF9–11) can
/// code below one bit and are not bounded.
enum JPEGEntropyBound {
    /// Throws ``DecodeError/truncated(_:reason:offset:)`` when `fileBytes` cannot hold one bit per MCU.
    static func check(_ header: JPEGHeader, fileBytes: Int) throws(DecodeError) {
        guard !header.isArithmeticCoded else { return }
        let hMax = max(header.sampling.map(\.horizontal).max() ?? 1, 1), vMax = max(header.sampling.map(\.vertical).max() ?? 1, 1)
        let columns = (header.width + 8 * hMax - 1) / (8 * hMax), rows = (header.height + 8 * vMax - 1) / (8 * vMax)
        let (mcus, overflow) = columns.multipliedReportingOverflow(by: rows)
        let needed = overflow ? Int.max : (mcus + 7) / 8
        guard needed > fileBytes else { return }
        throw .truncated(.jpeg, reason: "SOF declares \(header.width)×\(header.height), \(mcus) MCUs of at least one bit each (\(needed) bytes); the file has \(fileBytes) bytes",
                         offset: nil)
    }
}
