import Foundation
import ImageCore

/// Where the components of one 8- or 16-bit pixel sit, as byte offsets within the pixel,
/// after Quartz's alpha placement and 32-bit byte order are taken into account.
struct ComponentLayout {
    /// Offsets of red, green, blue (all three the same for gray).
    var red: Int, green: Int, blue: Int
    /// Offset of alpha, or nil when the format has none.
    var alpha: Int?
    /// Offset of the unused padding slot (`noneSkipFirst`, `noneSkipLast`), or nil.
    var skip: Int?
    /// Bytes per pixel.
    var pixelBytes: Int
    /// Whether 16-bit components are little-endian.
    var littleEndian16: Bool

    /// The layout of `format`, or nil when it is not a plain 8/16-bit gray or RGB layout
    /// (indexed, packed, 5-bit, CMYK and float take the general path).
    init?(_ format: PixelFormat) {
        let bpc = format.bitsPerComponent
        guard bpc == 8 || bpc == 16, !format.isFloat else { return nil }
        let gray: Bool
        switch format.colorModel {
        case .gray: gray = true
        case .rgb: gray = false
        default: return nil
        }
        guard format.alphaInfo != .only else { return nil }
        let bytes = bpc / 8
        let slots = format.slotCount
        let colorBase = format.alphaInfo.hasSlot && format.alphaInfo.isFirst ? 1 : 0
        // Logical slot k is at byte k·bytes, except that a 32-bit little-endian word of four
        // 8-bit components is stored reversed (ARGB → BGRA).
        let reversed = bpc == 8 && slots == 4 && format.byteOrder == .little32
        func offset(_ slot: Int) -> Int { (reversed ? 3 - slot : slot) * bytes }
        red = offset(colorBase)
        green = gray ? red : offset(colorBase + 1)
        blue = gray ? red : offset(colorBase + 2)
        if format.alphaInfo.hasAlpha {
            alpha = offset(format.alphaInfo.isFirst ? 0 : slots - 1)
        } else if format.alphaInfo.hasSlot {
            skip = offset(format.alphaInfo.isFirst ? 0 : slots - 1)
        }
        pixelBytes = slots * bytes
        littleEndian16 = bpc == 16 && format.byteOrder == .little16
    }
}

/// Converts rows of a stored pixel format into the premultiplied float RGBA working form
/// (linear light or sRGB codes), with table lookups for 8- and 16-bit layouts and palettes;
/// other layouts go through ``Bitmap/straightRGBARow(_:)``. Agrees with ``WorkingImage``'s
/// exact conversion to within float rounding (premultiplied sources are divided by alpha and
/// decoded on ``SRGBCurveTable``).
struct InputRowConverter {
    let format: PixelFormat
    let width: Int
    let lightSpace: LightSpace
    private let layout: ComponentLayout?
    /// Colour value of each code, in the working light space (256 or 65536 entries).
    private let colorTable: [Float]
    /// Premultiplied working RGBA of each palette entry.
    private let paletteTable: [SIMD4<Float>]?

    init(format: PixelFormat, width: Int, lightSpace: LightSpace) {
        self.format = format
        self.width = width
        self.lightSpace = lightSpace
        layout = ComponentLayout(format)
        let codes = format.bitsPerComponent == 16 ? 65536 : 256
        let linear = lightSpace == .linear
        colorTable = (0..<codes).map { code in
            let v = Double(code) / Double(codes - 1)
            return Float(linear ? SRGBTransfer.toLinear(v) : v)
        }
        if case .indexed(let palette) = format.colorModel, format.bitsPerComponent == 8 {
            paletteTable = palette.entries.map { e in
                let a = Float(e.alpha) / 255
                func c(_ v: UInt8) -> Float { Float(linear ? SRGBTransfer.toLinear(Double(v) / 255) : Double(v) / 255) * a }
                return SIMD4(c(e.red), c(e.green), c(e.blue), a)
            }
        } else {
            paletteTable = nil
        }
    }

    /// Converts the `pixels` of one stored row at `source` (all `width` when nil) into
    /// `pixels.count × 4` floats at `destination`. A range of a format under 8 bits a pixel
    /// starts on a byte (its lower bound a multiple of 8).
    func convert(_ source: UnsafeRawPointer, pixels: Range<Int>? = nil, into destination: UnsafeMutablePointer<Float>) {
        let range = pixels ?? 0..<width
        let start = range.lowerBound
        if let paletteTable {
            let indices = source.assumingMemoryBound(to: UInt8.self)
            let transparent = SIMD4<Float>(0, 0, 0, 1)  // out-of-range index: opaque black, as Bitmap does
            for x in range {
                let i = Int(indices[x])
                let p = i < paletteTable.count ? paletteTable[i] : transparent
                let o = 4 * (x - start)
                destination[o] = p.x; destination[o + 1] = p.y; destination[o + 2] = p.z; destination[o + 3] = p.w
            }
            return
        }
        guard let layout else { convertGenerally(source, pixels: range, into: destination); return }
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        let linear = lightSpace == .linear
        // Only a premultiplied source is decoded on the sampled curve; the table costs 65,536 pows
        // the first time it is read (about 2 ms, a fiftieth of a thumbnail of a large JPEG).
        let curve = format.isPremultiplied && linear ? SRGBCurveTable.decoding : []
        curve.withUnsafeBufferPointer { decoding in
        colorTable.withUnsafeBufferPointer { table in
            if format.bitsPerComponent == 8 {
                let premultiplied = format.isPremultiplied
                for x in range {
                    let p = x * layout.pixelBytes
                    let alphaCode = layout.alpha.map { Int(bytes[p + $0]) } ?? 255
                    let a = Float(alphaCode) / 255
                    let o = 4 * (x - start)
                    if premultiplied {
                        // Unpremultiply, then decode on the interpolated curve (exact to Float precision).
                        func straight(_ c: UInt8) -> Float {
                            guard alphaCode > 0 else { return 0 }
                            let v = min(Float(c) / Float(alphaCode), 1)
                            return (linear ? SRGBCurveTable.value(at: v, in: decoding) : v) * a
                        }
                        destination[o] = straight(bytes[p + layout.red])
                        destination[o + 1] = straight(bytes[p + layout.green])
                        destination[o + 2] = straight(bytes[p + layout.blue])
                    } else {
                        destination[o] = table[Int(bytes[p + layout.red])] * a
                        destination[o + 1] = table[Int(bytes[p + layout.green])] * a
                        destination[o + 2] = table[Int(bytes[p + layout.blue])] * a
                    }
                    destination[o + 3] = a
                }
            } else {
                let little = layout.littleEndian16
                func code(_ at: Int) -> Int {
                    little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
                }
                let premultiplied = format.isPremultiplied
                for x in range {
                    let p = x * layout.pixelBytes
                    let alphaCode = layout.alpha.map { code(p + $0) } ?? 65535
                    let a = Float(alphaCode) / 65535
                    func value(_ c: Int) -> Float {
                        guard premultiplied else { return table[c] * a }
                        guard alphaCode > 0 else { return 0 }
                        let v = min(Float(c) / Float(alphaCode), 1)
                        return (linear ? SRGBCurveTable.value(at: v, in: decoding) : v) * a
                    }
                    let o = 4 * (x - start)
                    destination[o] = value(code(p + layout.red))
                    destination[o + 1] = value(code(p + layout.green))
                    destination[o + 2] = value(code(p + layout.blue))
                    destination[o + 3] = a
                }
            }
        }
        }
    }

    /// Any other layout: exact normalised samples through ImageCore, then the working form.
    private func convertGenerally(_ source: UnsafeRawPointer, pixels: Range<Int>, into destination: UnsafeMutablePointer<Float>) {
        let count = pixels.count
        let rowBytes = format.minimumBytesPerRow(width: count)
        let first = source + pixels.lowerBound * format.bitsPerPixel / 8
        let row = Bitmap(uncheckedWidth: count, height: 1, format: format, bytesPerRow: rowBytes,
                         bytes: Array(UnsafeRawBufferPointer(start: first, count: rowBytes)))
        let rgba = row.straightRGBARow(0)
        let linear = lightSpace == .linear
        for x in 0..<count {
            let a = rgba[4 * x + 3]
            for c in 0..<3 {
                let v = rgba[4 * x + c]
                destination[4 * x + c] = Float((linear ? SRGBTransfer.toLinear(v) : v) * a)
            }
            destination[4 * x + 3] = Float(a)
        }
    }
}

/// Converts premultiplied float RGBA rows of the working form into a stored pixel format:
/// colour divided by alpha, clamped (NaN reads as 0), encoded to sRGB when linear, rounded half up. 8-bit
/// layouts encode through ``SRGBCurveTable`` (exact to Float precision); 16-bit layouts
/// compute in Double; others go through ``Bitmap/converted(to:)``.
struct OutputRowConverter {
    let format: PixelFormat
    let width: Int
    let lightSpace: LightSpace
    private let layout: ComponentLayout?

    init(format: PixelFormat, width: Int, lightSpace: LightSpace) {
        self.format = format
        self.width = width
        self.lightSpace = lightSpace
        layout = ComponentLayout(format)
    }

    /// Writes `width` pixels from `source` (premultiplied RGBA floats) into the row at `destination`.
    func convert(_ source: UnsafePointer<Float>, into destination: UnsafeMutableRawPointer) {
        guard let layout else { convertGenerally(source, into: destination); return }
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        let premultiplied = format.isPremultiplied
        let gray = format.colorModel == .gray
        let linear = lightSpace == .linear
        if format.bitsPerComponent == 8 && linear && !gray && !premultiplied {
            convertStraightRGB8(source, into: bytes, layout)
            return
        }
        if format.bitsPerComponent == 8 {
            SRGBCurveTable.encoding.withUnsafeBufferPointer { table in
                // The stored-space value 0…1 of a working colour `c` over alpha `a`.
                func encoded(_ c: Float, _ a: Float) -> Float {
                    let straight = a > 0 ? (c / a).clamped(0, 1) : 0
                    return linear ? SRGBCurveTable.value(at: straight, in: table) : straight
                }
                for x in 0..<width {
                    let o = 4 * x, p = x * layout.pixelBytes
                    let a = source[o + 3].clamped(0, 1)
                    let alphaCode = Int(a * 255 + 0.5)
                    var er = encoded(source[o], a), eg = encoded(source[o + 1], a), eb = encoded(source[o + 2], a)
                    func code(_ e: Float) -> UInt8 { UInt8((e * 255 + 0.5).clamped(0, 255)) }
                    var r = code(er), g = code(eg), b = code(eb)
                    if gray {
                        // Luma of the encoded values, as Bitmap.converted(to:) computes it.
                        let y = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                        r = UInt8((y + 0.5 + 1e-7).rounded(.down).clamped(0, 255)); g = r; b = r
                    }
                    if premultiplied {
                        // One rounding, from the exact premultiplied value: round(encoded · α · 255).
                        if gray { er = 0.299 * er + 0.587 * eg + 0.114 * eb; eg = er; eb = er }
                        func pre(_ e: Float) -> UInt8 { UInt8((e * a * 255 + 0.5).clamped(0, 255)) }
                        r = pre(er); g = pre(eg); b = pre(eb)
                    }
                    bytes[p + layout.red] = r
                    if !gray { bytes[p + layout.green] = g; bytes[p + layout.blue] = b }
                    if let ao = layout.alpha { bytes[p + ao] = UInt8(alphaCode) }
                    // A skipped component is written as fully set. (Its offset once assumed four
                    // RGB slots, and wrote past the row of a gray format with padding.)
                    else if let skip = layout.skip { bytes[p + skip] = 255 }
                }
            }
            return
        }
        // 16-bit: exact encoding.
        for x in 0..<width {
            let o = 4 * x, p = x * layout.pixelBytes
            let a = Double(source[o + 3].clamped(0, 1))
            let alphaCode = Int(a * 65535 + 0.5)
            func code(_ c: Float) -> Int {
                let straight = a > 0 ? (Double(c) / a).clamped(0, 1) : 0
                let e = linear ? SRGBTransfer.fromLinear(straight) : straight
                return Int((e * 65535 + 0.5 + 1e-7).rounded(.down))
            }
            func encoded(_ c: Float) -> Double {
                let straight = a > 0 ? (Double(c) / a).clamped(0, 1) : 0
                return linear ? SRGBTransfer.fromLinear(straight) : straight
            }
            var r = code(source[o]), g = code(source[o + 1]), b = code(source[o + 2])
            if gray {
                let y = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                r = Int((y + 0.5 + 1e-7).rounded(.down)); g = r; b = r
            }
            if premultiplied {
                // One rounding, from the exact premultiplied value: round(encoded · α · 65535).
                var er = encoded(source[o]), eg = encoded(source[o + 1]), eb = encoded(source[o + 2])
                if gray { er = 0.299 * er + 0.587 * eg + 0.114 * eb; eg = er; eb = er }
                func pre(_ e: Double) -> Int { Int((e * a * 65535 + 0.5).clamped(0, 65535)) }
                r = pre(er); g = pre(eg); b = pre(eb)
            }
            func put(_ v: Int, _ at: Int) {
                if layout.littleEndian16 { bytes[at] = UInt8(v & 0xFF); bytes[at + 1] = UInt8(v >> 8) }
                else { bytes[at] = UInt8(v >> 8); bytes[at + 1] = UInt8(v & 0xFF) }
            }
            put(r, p + layout.red)
            if !gray { put(g, p + layout.green); put(b, p + layout.blue) }
            if let ao = layout.alpha { put(alphaCode, p + ao) }
            else if let skip = layout.skip { put(65535, p + skip) }
        }
    }

    /// The 8-bit path for straight RGB from linear light (the common thumbnail and resize output):
    /// the same codes as the general 8-bit path, read from ``SRGBEightBitCodes`` (no curve
    /// interpolation), and no division for an opaque pixel (c / 1 is c).
    private func convertStraightRGB8(_ source: UnsafePointer<Float>, into bytes: UnsafeMutablePointer<UInt8>,
                                     _ layout: ComponentLayout) {
        SRGBEightBitCodes.shared.withTables { threshold, start in
            let codes = SRGBEightBitCodes.shared
            for x in 0..<width {
                let o = 4 * x, p = x * layout.pixelBytes
                let a = source[o + 3].clamped(0, 1)
                @inline(__always) func code(_ c: Float) -> UInt8 {
                    let straight = a == 1 ? c.clamped(0, 1) : a > 0 ? (c / a).clamped(0, 1) : 0
                    return codes.code(straight, threshold, start)
                }
                bytes[p + layout.red] = code(source[o])
                bytes[p + layout.green] = code(source[o + 1])
                bytes[p + layout.blue] = code(source[o + 2])
                if let ao = layout.alpha { bytes[p + ao] = UInt8(Int(a * 255 + 0.5)) }
                else if let skip = layout.skip { bytes[p + skip] = 255 }
            }
        }
    }

    private func convertGenerally(_ source: UnsafePointer<Float>, into destination: UnsafeMutableRawPointer) {
        var working = WorkingImage(width: width, height: 1, lightSpace: lightSpace)
        for i in 0..<(width * 4) { working.pixels[i] = source[i] }
        // The target format was validated when the operation chose it; conversion into an
        // indexed target can still miss the palette, which the caller checks beforehand.
        guard let row = try? working.bitmap(format: format) else { return }
        let rowBytes = format.minimumBytesPerRow(width: width)
        row.bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: rowBytes) }
    }
}
