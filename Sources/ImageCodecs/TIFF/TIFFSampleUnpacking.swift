import ImageCore

/// Turning decoded TIFF samples (a ``TIFFRaster``) into the plan's ``Bitmap``.
///
/// When the stored layout already is the delivered format (``TIFFPixelPlan/isVerbatim(_:)``) the
/// bytes are kept and only MinIsWhite gray is inverted in place. Otherwise each delivered slot
/// is read from its stored sample (any plane, any depth 1…32 or float) and written in the
/// delivered depth: integers expand by `round(v·(2^t−1)/(2^b−1))`, signed integers of up to 16
/// bits first have their sign bit flipped (v + 2^(b−1)), palette indices are copied, half floats
/// widen exactly, doubles round to floats, and integers wider than 16 bits become floats in
/// 0…1. The hosts imglab runs on are little-endian, so libtiff's host-order 16-, 24-, 32- and
/// 64-bit samples are little-endian as they stand.
extension TIFFPixelPlan {
    /// The bitmap of `raster`; takes its bytes when they can be delivered as they are.
    func bitmap(from raster: inout TIFFRaster, _ d: TIFFDirectory, limits: inout DecodeLimits) throws(DecodeError) -> Bitmap {
        if isVerbatim(d) {
            var bytes: [UInt8] = []
            swap(&bytes, &raster.bytes)
            invertAndClearPadding(&bytes, rowBytes: raster.rowBytes, d)
            return Bitmap(uncheckedWidth: d.width, height: d.height, format: format, bytesPerRow: raster.rowBytes, bytes: bytes)
        }
        let outRow = format.minimumBytesPerRow(width: d.width)
        guard let outBytes = TIFFRaster.product(outRow, d.height) else {
            throw .limitExceeded(.bytes, requested: .max, allowed: limits.maxBytes)
        }
        try limits.reserve(bytes: outBytes)
        var out = [UInt8](repeating: 0, count: outBytes)
        unpack(raster, d, into: &out, rowBytes: outRow)
        return Bitmap(uncheckedWidth: d.width, height: d.height, format: format, bytesPerRow: outRow, bytes: out)
    }

    /// In-place MinIsWhite inversion (for integers `max − v` is flipping every bit) and zeroed
    /// padding bits after the last packed pixel of each row, so equal pixels give equal bytes.
    private func invertAndClearPadding(_ bytes: inout [UInt8], rowBytes: Int, _ d: TIFFDirectory) {
        let bits = d.bitsPerSample
        let paddingBits = rowBytes * 8 - d.width * d.samplesPerPixel * bits
        let bytesPerSample = max(bits / 8, 1)
        let pixelBytes = d.samplesPerPixel * bytesPerSample
        bytes.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<d.height {
                let start = y * rowBytes
                if bits < 8 {
                    if invertsGray { for i in start..<(start + rowBytes) { buffer[i] ^= 0xFF } }
                    if paddingBits > 0 { buffer[start + rowBytes - 1] &= UInt8(truncatingIfNeeded: 0xFF << paddingBits) }
                } else if invertsGray {
                    for x in 0..<d.width {
                        for k in 0..<bytesPerSample { buffer[start + x * pixelBytes + k] ^= 0xFF }
                    }
                }
            }
        }
    }

    /// The general path: every delivered slot from its stored sample.
    private func unpack(_ raster: TIFFRaster, _ d: TIFFDirectory, into out: inout [UInt8], rowBytes outRow: Int) {
        let bits = d.bitsPerSample
        let samplesPerPixel = d.samplesPerPixel
        let planar = raster.planeCount > 1
        let planeBytes = raster.planeBytes, rowBytes = raster.rowBytes
        let sourceMax = bits >= 32 ? 0 : (1 << bits) - 1
        let depth = format.bitsPerComponent
        let targetMax = depth >= 32 ? 0 : (1 << depth) - 1
        let slots = format.slotCount
        let isFloat = format.isFloat
        let kind = sampleKind
        let isHalf = kind == .float && bits == 16
        let signBit: UInt32 = kind == .signed && bits <= 32 ? 1 << UInt32(bits - 1) : 0  // 64-bit: mapped in `sample`
        // Integers wider than 16 bits, delivered as floats: v / (2^b − 1) after the sign offset.
        let wideScale = 1 / (bits >= 64 ? 1 : Double((UInt64(1) << UInt64(bits)) - 1))
        let isIndexed: Bool
        if case .indexed = format.colorModel { isIndexed = true } else { isIndexed = false }

        raster.bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                /// Stored sample `s` of pixel (x, y), as an unsigned integer or a float's bits.
                func sample(_ x: Int, _ y: Int, _ s: Int) -> UInt32 {
                    let index = planar ? x : x * samplesPerPixel + s
                    let rowStart = (planar ? s * planeBytes : 0) + y * rowBytes
                    switch bits {
                    case 8: return UInt32(source[rowStart + index])
                    case 16: return UInt32(source.loadUnaligned(fromByteOffset: rowStart + index * 2, as: UInt16.self))
                    case 24:
                        let o = rowStart + index * 3
                        return UInt32(source[o]) | UInt32(source[o + 1]) << 8 | UInt32(source[o + 2]) << 16
                    case 32: return source.loadUnaligned(fromByteOffset: rowStart + index * 4, as: UInt32.self)
                    case 64:  // already mapped to a single: its bits
                        let word = source.loadUnaligned(fromByteOffset: rowStart + index * 8, as: UInt64.self)
                        switch kind {
                        case .float: return Float(Double(bitPattern: word)).bitPattern
                        case .unsigned: return Float(Double(word) / 18_446_744_073_709_551_615).bitPattern
                        case .signed: return Float((Double(Int64(bitPattern: word)) + 9_223_372_036_854_775_808) / 18_446_744_073_709_551_615).bitPattern
                        }
                    default:
                        // Packed most significant bit first; a sample of ≤ 31 bits spans ≤ 5 bytes.
                        let bit = index * bits
                        let first = rowStart + bit >> 3, shift = bit & 7
                        let span = (shift + bits + 7) >> 3
                        var word: UInt64 = 0
                        for k in 0..<span { word = word << 8 | UInt64(source[first + k]) }
                        return UInt32(truncatingIfNeeded: (word >> UInt64(span * 8 - shift - bits)) & UInt64(sourceMax))
                    }
                }
                /// An integer sample in the delivered depth: inverted first if asked, then expanded.
                func integer(_ raw: UInt32, inverted: Bool, from sourceMax: Int, to targetMax: Int) -> Int {
                    let v = inverted ? sourceMax - Int(raw) : Int(raw)
                    return sourceMax == targetMax ? v : (v * targetMax * 2 + sourceMax) / (2 * sourceMax)
                }
                func float(_ raw: UInt32, inverted: Bool) -> UInt32 {
                    let f = isHalf ? Self.float(fromHalf: UInt16(truncatingIfNeeded: raw)) : Float(bitPattern: raw)
                    return (inverted ? 1 - f : f).bitPattern
                }
                /// A stored sample as the delivered slot's value: signed ones offset to unsigned,
                /// wide integers as float bits in 0…1, floats as float bits.
                func value(_ raw: UInt32, inverted: Bool) -> UInt32 {
                    if kind == .float || bits == 64 { return float(raw, inverted: inverted) }
                    let offset = raw ^ signBit  // −2^(b−1)…2^(b−1)−1 → 0…2^b−1
                    if isFloat {
                        let f = Float(Double(offset) * wideScale)
                        return (inverted ? 1 - f : f).bitPattern
                    }
                    return UInt32(integer(offset, inverted: inverted, from: sourceMax, to: targetMax))
                }
                func put(_ x: Int, _ y: Int, _ slot: Int, _ value: UInt32) {
                    let rowStart = y * outRow
                    switch depth {
                    case 8:
                        destination[rowStart + x * slots + slot] = UInt8(truncatingIfNeeded: value)
                    case 16:
                        let o = rowStart + (x * slots + slot) * 2
                        destination[o] = UInt8(truncatingIfNeeded: value)
                        destination[o + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    case 32:
                        destination.storeBytes(of: value, toByteOffset: rowStart + (x * slots + slot) * 4, as: UInt32.self)
                    default: // 1, 2, 4 bits: one slot per pixel, packed most significant bit first
                        let bit = x * depth
                        destination[rowStart + bit >> 3] |= UInt8(truncatingIfNeeded: value << UInt32(8 - depth - bit & 7))
                    }
                }

                for y in 0..<d.height {
                    for x in 0..<d.width {
                        if let palette = expandingPalette {
                            let index = Int(sample(x, y, 0))
                            let entry = index < palette.count ? palette.entries[index] : Palette.Entry(red: 0, green: 0, blue: 0)
                            put(x, y, 0, UInt32(entry.red)); put(x, y, 1, UInt32(entry.green)); put(x, y, 2, UInt32(entry.blue))
                            if let e = extraSampleIndex {
                                put(x, y, 3, UInt32(integer(sample(x, y, e), inverted: false, from: sourceMax, to: 255)))
                            }
                            continue
                        }
                        for c in 0..<colorSampleCount {
                            let raw = sample(x, y, c)
                            put(x, y, c, isIndexed ? raw : value(raw, inverted: invertsGray))
                        }
                        if let e = extraSampleIndex {
                            put(x, y, colorSampleCount, value(sample(x, y, e), inverted: false))
                        }
                    }
                }
            }
        }
    }

    /// An IEEE 754 half-precision value as a single-precision one (exact: every half is a float).
    static func float(fromHalf h: UInt16) -> Float {
        let sign = UInt32(h & 0x8000) << 16
        let exponent = UInt32(h >> 10 & 0x1F), mantissa = UInt32(h & 0x3FF)
        switch exponent {
        case 0:  // zero or subnormal: mantissa · 2^−24
            let magnitude = Float(mantissa) * 0x1p-24
            return Float(bitPattern: sign | magnitude.bitPattern)
        case 31: // infinity or NaN, payload kept
            return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13)
        default:
            return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
        }
    }
}
