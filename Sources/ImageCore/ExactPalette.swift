extension Bitmap {
    /// The same pixels as an indexed bitmap whose palette is exactly the image's distinct
    /// 8-bit RGBA colours (in order of first appearance). No quantisation: more distinct
    /// colours than `2^bitsPerComponent` throws.
    /// - Parameter bitsPerComponent: index size, 1, 2, 4 or 8.
    public func withExactPalette(bitsPerComponent: Int = 8) throws(ConversionError) -> Bitmap {
        let allowed = 1 << bitsPerComponent
        var entries: [Palette.Entry] = []
        var seen: Set<UInt32> = []
        for y in 0..<height {
            let row = straightRGBARow(y)
            for x in 0..<width {
                func b(_ v: Double) -> UInt8 { UInt8((v * 255 + 0.5 + 1e-7).rounded(.down).clamped(0, 255)) }
                let e = Palette.Entry(red: b(row[x * 4]), green: b(row[x * 4 + 1]), blue: b(row[x * 4 + 2]), alpha: b(row[x * 4 + 3]))
                let key = UInt32(e.red) << 24 | UInt32(e.green) << 16 | UInt32(e.blue) << 8 | UInt32(e.alpha)
                if seen.insert(key).inserted {
                    entries.append(e)
                    if entries.count > allowed { throw .tooManyColors(count: entries.count, allowed: allowed) }
                }
            }
        }
        let target = PixelFormat(colorModel: .indexed(Palette(entries)), bitsPerComponent: bitsPerComponent)
        return try converted(to: target)
    }
}
