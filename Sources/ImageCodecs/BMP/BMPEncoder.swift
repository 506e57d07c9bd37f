import ImageCore

/// Writes BMP files by hand.
///
/// What each input format becomes:
/// - `.indexed` with an opaque palette: a palette BMP at the same depth (1, 4 or 8 bits;
///   2-bit indices are widened to 4 bits). A palette with alpha becomes 32-bit ARGB.
/// - `.gray` of 1, 2, 4 or 8 bits: a palette BMP whose table is the gray ramp, indices = gray values.
/// - 16-bit x-555 (`bitsPerComponent` 5, `.noneSkipFirst`): 16-bit BI_RGB, words unchanged.
/// - 8-bit RGB with a padding slot (XRGB, RGBX, …): 32-bit BI_RGB, bytes B, G, R, 255.
/// - Anything with alpha: 32-bit ARGB, BITMAPV5HEADER with BI_BITFIELDS masks R 0x00FF0000,
///   G 0x0000FF00, B 0x000000FF, A 0xFF000000, straight alpha (premultiplied colour is divided).
/// - Everything else (RGB 8/16-bit, gray 16-bit, CMYK, floats): 24-bit, through
///   `Bitmap.converted(to: .rgb8)`, so 16-bit and float samples are rounded to 8 bits and CMYK
///   uses the naive formula of ``Bitmap/converted(to:)``.
/// Rows are bottom-up unless `options.bmpTopDown` (negative height). An ICC profile is
/// embedded through a BITMAPV5HEADER (`PROFILE_EMBEDDED`); otherwise BITMAPINFOHEADER is used
/// except for ARGB. BMP has no orientation field, so the orientation is baked into the pixels.
enum BMPEncoder {
    /// The stored pixel layouts the encoder writes.
    enum Target {
        case indexed(bits: Int, palette: [Palette.Entry])
        case rgb555
        case bgr24
        case xrgb32
        case argb32

        var bitCount: Int {
            switch self {
            case .indexed(let bits, _): return bits
            case .rgb555: return 16
            case .bgr24: return 24
            case .xrgb32, .argb32: return 32
            }
        }
    }

    static let bgra = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32)
    static let bgrx = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32)
    static let rgb555 = PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst, byteOrder: .little16)

    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let bitmap = image.orientation == .up ? image.bitmap : image.orientation.apply(to: image.bitmap)
        let (target, source) = try plan(bitmap)
        return write(source, target: target, topDown: options.bmpTopDown, iccProfile: image.metadata.iccProfile)
    }

    /// Picks the stored layout and converts the bitmap to the matching in-memory format:
    /// 8-bit indices for palettes, 555 little-endian words, RGB8, BGRX or BGRA.
    static func plan(_ bitmap: Bitmap) throws(EncodeError) -> (Target, Bitmap) {
        let format = bitmap.format
        func convert(_ to: PixelFormat) throws(EncodeError) -> Bitmap {
            do { return try bitmap.converted(to: to) } catch {
                throw .unsupportedFormat(.bmp, format, suggestion: "convert to RGB or RGBA 8-bit first (\(error))")
            }
        }
        switch format.colorModel {
        case .indexed(let palette) where !palette.hasAlpha:
            let bits = format.bitsPerComponent == 2 ? 4 : format.bitsPerComponent
            return (.indexed(bits: bits, palette: palette.entries), bitmap)
        case .gray where !format.hasAlpha && format.bitsPerComponent <= 8:
            let bpc = format.bitsPerComponent
            let maximum = (1 << bpc) - 1
            let ramp = (0...maximum).map { v -> Palette.Entry in
                let g = UInt8((v * 255 * 2 + maximum) / (2 * maximum))
                return Palette.Entry(red: g, green: g, blue: g)
            }
            // The gray values are the indices: same bits, reinterpreted as an indexed bitmap.
            let indexed = Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height,
                                 format: PixelFormat(colorModel: .indexed(Palette(ramp)), bitsPerComponent: bpc),
                                 bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes)
            return (.indexed(bits: bpc == 2 ? 4 : bpc, palette: ramp), indexed)
        default:
            break
        }
        if format.hasAlpha { return (.argb32, try convert(bgra)) }
        if format.colorModel == .rgb, format.bitsPerComponent == 5 { return (.rgb555, try convert(rgb555)) }
        if format.colorModel == .rgb, format.bitsPerComponent == 8, format.alphaInfo.hasSlot { return (.xrgb32, try convert(bgrx)) }
        return (.bgr24, try convert(.rgb8))
    }

    /// Serialises the file: BITMAPFILEHEADER, DIB header, palette, rows, then the ICC profile.
    static func write(_ bitmap: Bitmap, target: Target, topDown: Bool, iccProfile: [UInt8]?) -> [UInt8] {
        let w = bitmap.width, h = bitmap.height
        let rowBytes = storedRowBytes(width: w, target: target)
        let profile = iccProfile ?? []
        var out = header(width: w, height: h, target: target, topDown: topDown, profileSize: profile.count)
        out.reserveCapacity(out.count + rowBytes * h + profile.count)
        var row = [UInt8](repeating: 0, count: rowBytes)
        for i in 0..<h {
            packRow(bitmap, y: topDown ? i : h - 1 - i, target: target, into: &row)
            out += row
        }
        out += profile
        return out
    }

    /// Bytes of one stored row of a `width`-pixel image: whole 32-bit words.
    static func storedRowBytes(width: Int, target: Target) -> Int { (width * target.bitCount + 31) / 32 * 4 }

    /// BITMAPFILEHEADER, DIB header (BITMAPV5HEADER for ARGB or an embedded profile of
    /// `profileSize` bytes, which follows the rows; BITMAPINFOHEADER otherwise) and palette.
    static func header(width w: Int, height h: Int, target: Target, topDown: Bool, profileSize: Int) -> [UInt8] {
        let bitCount = target.bitCount
        let rowBytes = storedRowBytes(width: w, target: target)
        var palette: [Palette.Entry] = []
        if case .indexed(_, let entries) = target { palette = entries }
        let isARGB: Bool = { if case .argb32 = target { return true } else { return false } }()
        let useV5 = profileSize > 0 || isARGB
        let headerSize = useV5 ? 124 : 40
        let pixelOffset = 14 + headerSize + palette.count * 4
        let imageSize = rowBytes * h
        let fileSize = pixelOffset + imageSize + profileSize

        var out: [UInt8] = []
        out.reserveCapacity(pixelOffset)
        func u16(_ v: Int) { out.append(UInt8(v & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)) }
        func u32(_ v: UInt32) { for k in 0..<4 { out.append(UInt8((v >> (8 * UInt32(k))) & 0xFF)) } }
        func i32(_ v: Int) { u32(UInt32(bitPattern: Int32(truncatingIfNeeded: v))) }

        out += Array("BM".utf8)
        u32(UInt32(truncatingIfNeeded: fileSize)); u32(0); u32(UInt32(pixelOffset))
        u32(UInt32(headerSize)); i32(w); i32(topDown ? -h : h); u16(1); u16(bitCount)
        u32(isARGB ? 3 : 0)  // BI_BITFIELDS for ARGB, BI_RGB otherwise
        u32(UInt32(truncatingIfNeeded: imageSize)); u32(2835); u32(2835)  // 72 dpi in pixels per metre
        u32(UInt32(palette.count)); u32(0)
        if useV5 {
            if isARGB { u32(0x00FF_0000); u32(0x0000_FF00); u32(0x0000_00FF); u32(0xFF00_0000) }
            else { for _ in 0..<4 { u32(0) } }
            u32(profileSize == 0 ? 0x7352_4742 : 0x4D42_4544)  // 'sRGB' or 'MBED'
            for _ in 0..<9 { u32(0) }  // CIEXYZTRIPLE endpoints (36 bytes), unused for these colour spaces
            for _ in 0..<3 { u32(0) }   // gamma red, green, blue
            u32(4)  // LCS_GM_IMAGES
            u32(profileSize == 0 ? 0 : UInt32(truncatingIfNeeded: headerSize + palette.count * 4 + imageSize))  // from the header start
            u32(UInt32(profileSize)); u32(0)
        }
        for e in palette { out += [e.blue, e.green, e.red, 0] }
        return out
    }

    /// Packs row `y` of `bitmap` (in the in-memory format ``plan(_:)`` gives `target`) into
    /// `row` (``storedRowBytes(width:target:)`` long) as stored, padding zero.
    static func packRow(_ bitmap: Bitmap, y: Int, target: Target, into row: inout [UInt8]) {
        let w = bitmap.width
        let bitCount = target.bitCount
        let rowBytes = row.count
        let src = y * bitmap.bytesPerRow
        for k in 0..<rowBytes { row[k] = 0 }
        switch target {
        case .indexed(let bits, _):
            let sourceBits = bitmap.format.bitsPerComponent
            if sourceBits == bits {
                let n = bitmap.format.minimumBytesPerRow(width: w)
                for k in 0..<n { row[k] = bitmap.bytes[src + k] }
                // Clear the bits after the last pixel so padding is zero.
                let used = w * bits % 8
                if used != 0 { row[n - 1] &= UInt8(0xFF << (8 - used) & 0xFF) }
            } else {
                for x in 0..<w {
                    let bit = x * sourceBits
                    let v = (bitmap.bytes[src + bit / 8] >> UInt8(8 - sourceBits - bit % 8)) & UInt8((1 << sourceBits) - 1)
                    row[x * bits / 8] |= v << UInt8(8 - bits - x * bits % 8)
                }
            }
        case .rgb555, .xrgb32, .argb32:
            // Already in stored byte order: 555 little-endian words, B G R X, B G R A.
            let n = w * bitCount / 8
            for k in 0..<n { row[k] = bitmap.bytes[src + k] }
        case .bgr24:
            for x in 0..<w {
                row[x * 3] = bitmap.bytes[src + x * 3 + 2]
                row[x * 3 + 1] = bitmap.bytes[src + x * 3 + 1]
                row[x * 3 + 2] = bitmap.bytes[src + x * 3]
            }
        }
    }
}
