/// Unpacking and packing rows of any ``PixelFormat`` to and from normalised `Double` samples.
///
/// A sample row holds, per pixel, the colour components of ``SampleModel`` in logical order
/// followed by alpha, all in 0…1 (floats may exceed that range). Alpha is 1 where the format
/// has none. Whether colour is premultiplied is tracked beside the row.
/// This is the one place that knows bit packing, word byte order and alpha placement.

/// The colour space of a sample row.
package enum SampleModel: Equatable, Sendable {
    case gray, rgb, cmyk(inverted: Bool), alphaOnly

    package var colorCount: Int {
        switch self {
        case .gray: return 1
        case .rgb: return 3
        case .cmyk: return 4
        case .alphaOnly: return 0
        }
    }
    /// Samples per pixel in a row: colour plus alpha.
    package var stride: Int { colorCount + 1 }

    package init(_ format: PixelFormat) {
        if format.alphaInfo == .only { self = .alphaOnly; return }
        switch format.colorModel {
        case .none: self = .alphaOnly
        case .gray: self = .gray
        case .rgb, .indexed: self = .rgb
        case .cmyk(let inv): self = .cmyk(inverted: inv)
        }
    }
}

extension PixelFormat {
    /// Whether multi-byte words must be byte-swapped to read them big-endian (logical order).
    var wordSwap: Int {
        switch byteOrder {
        case .default: return isFloat ? 4 : 0   // floats default to host (little-endian) order
        case .little16: return 2
        case .little32: return 4
        case .big16, .big32: return 0
        }
    }
}

extension Bitmap {
    /// Reads row `y` as normalised samples of `SampleModel(format)`; colour stays as stored
    /// (premultiplied if the format is). Indexed pixels are expanded through the palette;
    /// an index past the end of the palette reads as opaque black. A float sample is read
    /// through ``BinaryFloatingPoint/finiteSample`` (NaN → 0, +∞ → 1, −∞ → 0).
    package func unpackRow(_ y: Int, into out: inout [Double]) {
        let model = SampleModel(format)
        let stride = model.stride
        if out.count != width * stride { out = [Double](repeating: 0, count: width * stride) }
        let bpc = format.bitsPerComponent
        let rowStart = y * bytesPerRow
        let alphaInfo = format.alphaInfo
        let slots = format.slotCount
        let colorCount = format.colorComponentCount
        let alphaSlot: Int? = alphaInfo.hasSlot ? (alphaInfo.isFirst ? 0 : colorCount) : (alphaInfo == .only ? 0 : nil)
        let alphaIsReal = alphaInfo.hasAlpha
        let colorBase = alphaInfo.hasSlot && alphaInfo.isFirst ? 1 : 0
        let maxValue = Double(format.maxComponentValue)

        bytes.withUnsafeBufferPointer { buf in
            // Reads slot `s` of pixel `x` as an unnormalised value.
            func raw(_ x: Int, _ s: Int) -> Double {
                switch bpc {
                case 1, 2, 4:
                    let bit = x * bpc
                    let byte = buf[rowStart + bit / 8]
                    return Double((Int(byte) >> (8 - bpc - bit % 8)) & ((1 << bpc) - 1))
                case 8:
                    var i = x * slots + s
                    if format.wordSwap == 4 { i = (i & ~3) | (3 - (i & 3)) }
                    return Double(buf[rowStart + i])
                case 16:
                    let i = rowStart + (x * slots + s) * 2
                    return format.wordSwap == 2
                        ? Double(UInt16(buf[i]) | UInt16(buf[i + 1]) << 8)
                        : Double(UInt16(buf[i]) << 8 | UInt16(buf[i + 1]))
                case 32:
                    let i = rowStart + (x * slots + s) * 4
                    let b0 = UInt32(buf[i]), b1 = UInt32(buf[i + 1]), b2 = UInt32(buf[i + 2]), b3 = UInt32(buf[i + 3])
                    let bits = format.wordSwap == 4 ? (b0 | b1 << 8 | b2 << 16 | b3 << 24) : (b0 << 24 | b1 << 16 | b2 << 8 | b3)
                    return Double(Float(bitPattern: bits).finiteSample)
                default: // 5: x/a-RRRRRGGGGGBBBBB in one 16-bit word
                    let i = rowStart + x * 2
                    let word = format.wordSwap == 2 ? Int(buf[i]) | Int(buf[i + 1]) << 8 : Int(buf[i]) << 8 | Int(buf[i + 1])
                    switch s {
                    case 0: return Double(word >> 15) * 31  // 1-bit alpha, scaled to the 5-bit range
                    case 1: return Double((word >> 10) & 31)
                    case 2: return Double((word >> 5) & 31)
                    default: return Double(word & 31)
                    }
                }
            }
            let fiveBitSlotOffset = bpc == 5 ? 1 : 0  // the 555 word always has its spare bit first
            for x in 0..<width {
                let o = x * stride
                if case .indexed(let palette) = format.colorModel {
                    let index = Int(raw(x, 0))
                    let e = index < palette.count ? palette.entries[index] : Palette.Entry(red: 0, green: 0, blue: 0)
                    out[o] = Double(e.red) / 255; out[o + 1] = Double(e.green) / 255
                    out[o + 2] = Double(e.blue) / 255; out[o + 3] = Double(e.alpha) / 255
                    continue
                }
                for c in 0..<colorCount {
                    let s = bpc == 5 ? c + fiveBitSlotOffset : colorBase + c
                    out[o + c] = raw(x, s) / maxValue
                }
                if alphaIsReal, let slot = alphaSlot {
                    out[o + model.colorCount] = raw(x, slot) / maxValue
                } else {
                    out[o + model.colorCount] = 1
                }
            }
        }
    }

    /// Writes normalised samples of `SampleModel(format)` into row `y`, rounding half up and
    /// clamping to the component range (NaN writes code 0; a float format stores ±∞ and NaN
    /// as ``BinaryFloatingPoint/finiteSample`` reads them). Indexed formats need exact palette matches: pixels
    /// without one make this throw.
    package mutating func packRow(_ y: Int, from samples: [Double]) throws(ConversionError) {
        let format = self.format
        let model = SampleModel(format)
        let stride = model.stride
        let bpc = format.bitsPerComponent
        let rowStart = y * bytesPerRow
        let alphaInfo = format.alphaInfo
        let slots = format.slotCount
        let colorCount = format.colorComponentCount
        let colorBase = alphaInfo.hasSlot && alphaInfo.isFirst ? 1 : 0
        let alphaSlot: Int? = alphaInfo.hasSlot ? (alphaInfo.isFirst ? 0 : colorCount) : (alphaInfo == .only ? 0 : nil)
        let maxValue = Double(format.maxComponentValue)
        let width = self.width
        var lookup: [UInt32: Int] = [:]
        if case .indexed(let palette) = format.colorModel {
            for (i, e) in palette.entries.enumerated().reversed() {
                lookup[UInt32(e.red) << 24 | UInt32(e.green) << 16 | UInt32(e.blue) << 8 | UInt32(e.alpha)] = i
            }
        }
        var failure: ConversionError?
        bytes.withUnsafeMutableBufferPointer { buf in
            func quantised(_ v: Double) -> Int {
                let q = (v * maxValue + 0.5 + 1e-7).rounded(.down)
                return Int(q.clamped(0, maxValue))
            }
            func put(_ x: Int, _ s: Int, _ v: Double) {
                switch bpc {
                case 1, 2, 4:
                    let bit = x * bpc
                    let shift = 8 - bpc - bit % 8
                    let mask = UInt8(((1 << bpc) - 1) << shift)
                    let i = rowStart + bit / 8
                    buf[i] = (buf[i] & ~mask) | (UInt8(quantised(v) << shift) & mask)
                case 8:
                    var i = x * slots + s
                    if format.wordSwap == 4 { i = (i & ~3) | (3 - (i & 3)) }
                    buf[rowStart + i] = UInt8(quantised(v))
                case 16:
                    let i = rowStart + (x * slots + s) * 2
                    let q = UInt16(quantised(v))
                    if format.wordSwap == 2 { buf[i] = UInt8(q & 0xFF); buf[i + 1] = UInt8(q >> 8) }
                    else { buf[i] = UInt8(q >> 8); buf[i + 1] = UInt8(q & 0xFF) }
                case 32:
                    let i = rowStart + (x * slots + s) * 4
                    let bits = Float(v.finiteSample).bitPattern
                    if format.wordSwap == 4 {
                        buf[i] = UInt8(bits & 0xFF); buf[i + 1] = UInt8((bits >> 8) & 0xFF)
                        buf[i + 2] = UInt8((bits >> 16) & 0xFF); buf[i + 3] = UInt8(bits >> 24)
                    } else {
                        buf[i] = UInt8(bits >> 24); buf[i + 1] = UInt8((bits >> 16) & 0xFF)
                        buf[i + 2] = UInt8((bits >> 8) & 0xFF); buf[i + 3] = UInt8(bits & 0xFF)
                    }
                default: // 5-bit 555: slot 0 is the spare/alpha bit
                    let i = rowStart + x * 2
                    var word = format.wordSwap == 2 ? Int(buf[i]) | Int(buf[i + 1]) << 8 : Int(buf[i]) << 8 | Int(buf[i + 1])
                    if s == 0 {
                        word = (word & 0x7FFF) | ((quantised(v) >= 16 ? 1 : 0) << 15)
                    } else {
                        let shift = (3 - s) * 5
                        word = (word & ~(31 << shift)) | (quantised(v) << shift)
                    }
                    if format.wordSwap == 2 { buf[i] = UInt8(word & 0xFF); buf[i + 1] = UInt8(word >> 8) }
                    else { buf[i] = UInt8(word >> 8); buf[i + 1] = UInt8(word & 0xFF) }
                }
            }
            for x in 0..<width {
                let o = x * stride
                if case .indexed = format.colorModel {
                    func byte(_ v: Double) -> UInt32 { UInt32((v * 255 + 0.5 + 1e-7).rounded(.down).clamped(0, 255)) }
                    let key = byte(samples[o]) << 24 | byte(samples[o + 1]) << 16 | byte(samples[o + 2]) << 8 | byte(samples[o + 3])
                    guard let index = lookup[key] else {
                        if failure == nil { failure = .colorNotInPalette(x: x, y: y) }
                        continue
                    }
                    put(x, 0, Double(index) / maxValue)
                    continue
                }
                for c in 0..<colorCount {
                    put(x, bpc == 5 ? c + 1 : colorBase + c, samples[o + c])
                }
                if let slot = alphaSlot {
                    // A skipped slot is written as fully set, the way Quartz fills X in XRGB.
                    put(x, bpc == 5 ? 0 : slot, alphaInfo.hasAlpha ? samples[o + model.colorCount] : 1)
                }
            }
        }
        if let failure { throw failure }
    }
}

/// A conversion that cannot be carried out exactly.
public enum ConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target is indexed and the pixel at (x, y) has a colour the palette lacks.
    case colorNotInPalette(x: Int, y: Int)
    /// The target format is not a valid layout.
    case invalidFormat(PixelFormatError)
    /// More distinct colours than a palette of the target depth can hold.
    case tooManyColors(count: Int, allowed: Int)

    public var description: String {
        switch self {
        case .colorNotInPalette(let x, let y): return "pixel (\(x), \(y)) has a colour that is not in the target palette"
        case .invalidFormat(let e): return e.description
        case .tooManyColors(let n, let allowed): return "\(n) distinct colours do not fit a palette of \(allowed)"
        }
    }
}
