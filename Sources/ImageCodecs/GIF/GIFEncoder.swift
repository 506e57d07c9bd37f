import ImageCore

/// Builds the ``GIFStream`` for an image; ``GIFWriter`` writes it.
///
/// - Indexed bitmaps are written with their own palette and indices (1/2/4-bit indices are
///   widened to bytes; the table is padded to a power of two). Other formats go through
///   ``Bitmap/withExactPalette(bitsPerComponent:)``: 256 distinct colours at most, no quantiser.
/// - Transparency: palette entries with alpha 0 become the one transparent index (pixels of
///   further alpha-0 entries are remapped to the first). Partial alpha cannot be stored: error.
/// - Orientation is baked into the pixels (GIF has no orientation field).
/// - Animations: every canvas is checked for on/off alpha, then the frames are replayed with
///   the decoder's rules (``GIFCompositor``). When each canvas is exactly what drawing its
///   `region` over the previous, disposed canvas gives, frames are written as their regions
///   with their disposals; otherwise every frame is written whole with disposal 2, which
///   reproduces the canvases exactly but not the original regions. Delays are rounded to
///   hundredths of a second. Loop count 1 ("play once") writes no loop extension; any other
///   count (0 = forever) writes NETSCAPE2.0 with it. One global table is used when all frames
///   share at most 256 colours, otherwise one local table per frame.
enum GIFEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(EncodeError) -> [UInt8] {
        let upright = image.orientation == .up ? image : image.oriented()
        var stream: GIFStream
        if let animation = upright.animation, animation.frames.count > 1 {
            stream = try animatedStream(animation, width: upright.width, height: upright.height)
        } else {
            stream = try stillStream(upright.bitmap)
        }
        stream.iccProfile = upright.metadata.iccProfile
        return try GIFWriter.write(stream, interlaced: options.interlaced)
    }

    // MARK: Still images

    static func stillStream(_ bitmap: Bitmap) throws(EncodeError) -> GIFStream {
        var (entries, indices) = try paletteAndIndices(bitmap)
        if let partial = entries.firstIndex(where: { $0.alpha != 0 && $0.alpha != 255 }) {
            throw .unsupportedFormat(.gif, bitmap.format, suggestion:
                "palette entry \(partial) has alpha \(entries[partial].alpha); GIF transparency is on or off, so encode as PNG")
        }
        var transparent: Int?
        if let t = entries.firstIndex(where: { $0.alpha == 0 }) {
            transparent = t
            let others = Set(entries.indices.filter { entries[$0].alpha == 0 && $0 != t })
            if !others.isEmpty {
                for i in indices.indices where others.contains(Int(indices[i])) { indices[i] = UInt8(t) }
            }
        }
        // Indices past the palette display as opaque black in the pixel model; the table must hold them.
        let largest = Int(indices.max() ?? 0)
        while entries.count <= largest { entries.append(Palette.Entry(red: 0, green: 0, blue: 0)) }
        let table = entries.map { Palette.Entry(red: $0.red, green: $0.green, blue: $0.blue) }
        let full = PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        let control = transparent.map { GIFGraphicsControl(disposal: 0, delayCentiseconds: 0, transparentIndex: $0) }
        let frame = GIFFrameRecord(rect: full, visible: full, interlaced: false, localTable: nil, localTableBits: nil,
                                   control: control, indices: indices)
        return GIFStream(width: bitmap.width, height: bitmap.height, globalTable: table,
                         globalTableBits: GIFWriter.tableBits(count: table.count), backgroundIndex: transparent ?? 0,
                         loopCount: nil, frames: [frame], iccProfile: nil, comments: [], version: "89a", stopReason: nil)
    }

    /// The palette (with alpha) and one index byte per pixel, row-major.
    static func paletteAndIndices(_ bitmap: Bitmap) throws(EncodeError) -> ([Palette.Entry], [UInt8]) {
        var source = bitmap
        if case .indexed = bitmap.format.colorModel {} else {
            do {
                source = try bitmap.withExactPalette()
            } catch {
                throw .unsupportedFormat(.gif, bitmap.format, suggestion:
                    "GIF holds at most 256 colours (\(error)); imglab has no quantiser, so reduce the colours first or encode as PNG")
            }
        }
        guard case .indexed(let palette) = source.format.colorModel else {
            throw .unsupportedFormat(.gif, bitmap.format, suggestion: "encode as PNG")
        }
        let bpc = source.format.bitsPerComponent
        var indices = [UInt8](repeating: 0, count: source.width * source.height)
        for y in 0..<source.height {
            let row = y * source.bytesPerRow
            for x in 0..<source.width {
                let bit = x * bpc
                let byte = source.bytes[row + bit / 8]
                indices[y * source.width + x] = bpc == 8 ? byte : (byte >> UInt8(8 - bpc - bit % 8)) & UInt8((1 << bpc) - 1)
            }
        }
        return (palette.entries, indices)
    }

    // MARK: Animations

    static func animatedStream(_ animation: Animation, width w: Int, height h: Int) throws(EncodeError) -> GIFStream {
        let frames = animation.frames
        var canvases: [[UInt8]] = []
        var anyTransparentPixel = false
        for (k, frame) in frames.enumerated() {
            let c = frame.canvas
            guard c.width == w, c.height == h else {
                throw .invalidOption("animation frame \(k + 1) is \(c.width)×\(c.height), the image is \(w)×\(h)")
            }
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                let row = c.straightRGBARow(y)
                for i in 0..<(w * 4) {
                    rgba[y * w * 4 + i] = UInt8((row[i] * 255 + 0.5).rounded(.down).clamped(0, 255))
                }
            }
            for p in 0..<(w * h) {
                let a = rgba[p * 4 + 3]
                if a == 0 { anyTransparentPixel = true }
                else if a != 255 {
                    throw .unsupportedFormat(.gif, c.format, suggestion:
                        "frame \(k + 1) pixel (\(p % w), \(p / w)) has alpha \(a); GIF transparency is on or off, so encode as PNG")
                }
            }
            canvases.append(rgba)
        }
        // Declaring a transparent index keeps an alpha format an alpha format after decoding.
        var declareTransparency = anyTransparentPixel || frames[0].canvas.format.hasAlpha
        var colours: [UInt32] = []
        var seen: Set<UInt32> = []
        for canvas in canvases {
            for p in 0..<(w * h) where canvas[p * 4 + 3] != 0 {
                let key = rgbKey(canvas, p)
                if seen.insert(key).inserted { colours.append(key) }
            }
        }
        if !anyTransparentPixel && colours.count == 256 { declareTransparency = false }
        let useGlobal = colours.count + (declareTransparency ? 1 : 0) <= 256
        var globalTable: [Palette.Entry]?
        var globalLookup: [UInt32: Int] = [:]
        if useGlobal {
            var table = colours.map(entry)
            if declareTransparency { table.append(Palette.Entry(red: 0, green: 0, blue: 0)) }
            for (i, key) in colours.enumerated() { globalLookup[key] = i }
            globalTable = table
        }
        let transparentIndex = useGlobal && declareTransparency ? colours.count : nil
        // What the decoder fills the screen with and restores disposal 2 to.
        let fill: [UInt8] = declareTransparency ? [0, 0, 0, 0]
            : (globalTable?.first.map { [$0.red, $0.green, $0.blue, 255] } ?? [0, 0, 0, 255])
        let keepRegions = replays(canvases, frames: frames, width: w, height: h, fill: fill)
        var records: [GIFFrameRecord] = []
        for (k, frame) in frames.enumerated() {
            let full = PixelRect(x: 0, y: 0, width: w, height: h)
            let rect = keepRegions ? GIFFrameRecord.clip(frame.region, width: w, height: h) : full
            let disposal = keepRegions ? GIFGraphicsControl.method(for: frame.disposal) : 2
            var lookup = globalLookup
            var localTable: [Palette.Entry]?
            var frameTransparent = transparentIndex
            if !useGlobal {
                var keys: [UInt32] = []
                lookup = [:]
                for y in rect.y..<(rect.y + rect.height) {
                    for x in rect.x..<(rect.x + rect.width) where canvases[k][(y * w + x) * 4 + 3] != 0 {
                        let key = rgbKey(canvases[k], y * w + x)
                        if lookup[key] == nil { lookup[key] = keys.count; keys.append(key) }
                    }
                }
                let slots = keys.count + (declareTransparency ? 1 : 0)
                guard slots <= 256 else {
                    throw .unsupportedFormat(.gif, frame.canvas.format, suggestion:
                        "frame \(k + 1) has \(keys.count) colours and GIF holds at most 256 per frame; reduce the colours first or encode as PNG")
                }
                localTable = keys.map(entry)
                if declareTransparency {
                    frameTransparent = keys.count
                    localTable?.append(Palette.Entry(red: 0, green: 0, blue: 0))
                }
            }
            var indices = [UInt8](repeating: 0, count: rect.width * rect.height)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let p = (rect.y + y) * w + rect.x + x
                    if canvases[k][p * 4 + 3] == 0 {
                        indices[y * rect.width + x] = UInt8(truncatingIfNeeded: frameTransparent ?? 0)
                    } else {
                        indices[y * rect.width + x] = UInt8(truncatingIfNeeded: lookup[rgbKey(canvases[k], p)] ?? 0)
                    }
                }
            }
            let delay = Int((frame.delay * 100).rounded())
            let control = GIFGraphicsControl(disposal: disposal, delayCentiseconds: min(max(delay, 0), 0xFFFF),
                                             transparentIndex: frameTransparent)
            records.append(GIFFrameRecord(rect: rect, visible: rect, interlaced: false, localTable: localTable,
                                          localTableBits: nil, control: control, indices: indices))
        }
        let loop = animation.loopCount == 1 ? nil : min(max(animation.loopCount, 0), 0xFFFF)
        return GIFStream(width: w, height: h, globalTable: globalTable,
                         globalTableBits: globalTable.map { GIFWriter.tableBits(count: $0.count) }, backgroundIndex: 0,
                         loopCount: loop, frames: records, iccProfile: nil, comments: [], version: "89a", stopReason: nil)
    }

    /// Whether drawing each frame's region over the previous, disposed canvas (the decoder's
    /// rules, with `fill` as the screen's initial and disposal-2 colour) gives every canvas exactly.
    static func replays(_ canvases: [[UInt8]], frames: [AnimationFrame], width w: Int, height h: Int, fill: [UInt8]) -> Bool {
        var shown = [UInt8](repeating: 0, count: w * h * 4)
        for p in 0..<(w * h) { for c in 0..<4 { shown[p * 4 + c] = fill[c] } }
        for (k, frame) in frames.enumerated() {
            let r = GIFFrameRecord.clip(frame.region, width: w, height: h)
            guard r.width > 0, r.height > 0 else { return false }
            let canvas = canvases[k]
            for y in 0..<h {
                for x in 0..<w {
                    let p = (y * w + x) * 4
                    let inside = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
                    if inside {
                        // An over-blended GIF frame can leave a pixel transparent only where it already was.
                        if canvas[p + 3] == 0 && shown[p + 3] != 0 { return false }
                    } else if canvas[p + 3] != shown[p + 3] || (canvas[p + 3] != 0 && canvas[p..<(p + 3)] != shown[p..<(p + 3)]) {
                        return false
                    }
                }
            }
            var next = canvas
            switch frame.disposal {
            case .background:
                for y in r.y..<(r.y + r.height) {
                    for x in r.x..<(r.x + r.width) { for c in 0..<4 { next[(y * w + x) * 4 + c] = fill[c] } }
                }
            case .previous:
                for y in r.y..<(r.y + r.height) {
                    for x in r.x..<(r.x + r.width) { for c in 0..<4 { next[(y * w + x) * 4 + c] = shown[(y * w + x) * 4 + c] } }
                }
            case .none, .unspecified:
                break
            }
            shown = next
        }
        return true
    }

    static func rgbKey(_ rgba: [UInt8], _ pixel: Int) -> UInt32 {
        UInt32(rgba[pixel * 4]) << 16 | UInt32(rgba[pixel * 4 + 1]) << 8 | UInt32(rgba[pixel * 4 + 2])
    }

    static func entry(_ key: UInt32) -> Palette.Entry {
        Palette.Entry(red: UInt8(key >> 16), green: UInt8((key >> 8) & 0xFF), blue: UInt8(key & 0xFF))
    }
}
