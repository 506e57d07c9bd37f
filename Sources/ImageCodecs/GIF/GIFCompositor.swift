import ImageCore

/// Turns a ``GIFStream`` into an ``Image``: the still case as an indexed bitmap, the animated
/// case as canvases composited on the logical screen.
///
/// Rules (they decide ``PixelFormat/hasAlpha``, which must say "the file has a transparent index"):
/// - One frame, indexed when possible: the frame's table (local, else global) becomes the palette,
///   padded with opaque black up to the transparent index when that lies past the table, and the
///   transparent entry gets alpha 0. Screen pixels outside the frame take the transparent index,
///   or the background index when the frame uses the global table. A lone frame that has
///   neither and leaves part of the screen uncovered is composited like an animation.
/// - Several frames: 8-bit RGBA canvases when any frame declares a transparent index, otherwise
///   8-bit RGB. The screen starts as, and disposal 2 restores to, transparent black in the first
///   case and the global table's background colour (black without one) in the second.
///   Disposal 0 and 1 keep the frame, 3 restores the region as it was before the frame.
///   Pixels outside the screen are clipped; indices past the table draw opaque black.
enum GIFCompositor {
    /// How a decoded stream is delivered.
    enum Layout {
        /// A single indexed bitmap: palette, and the index that fills uncovered screen pixels.
        case indexed(Palette, fill: UInt8)
        /// Composited canvases, with or without alpha.
        case composited(hasAlpha: Bool)
    }

    /// Chooses the layout from the structure alone (no pixels needed), so headers agree with decodes.
    static func layout(of stream: GIFStream) throws(DecodeError) -> Layout {
        guard let first = stream.frames.first else {
            throw .malformed(.gif, reason: "the file has no image descriptor", offset: nil)
        }
        let anyTransparency = stream.frames.contains { $0.control?.transparentIndex != nil }
        guard stream.frames.count == 1 else { return .composited(hasAlpha: anyTransparency) }
        let table = try table(for: first, at: 0, in: stream)
        let covers = first.visible == PixelRect(x: 0, y: 0, width: stream.width, height: stream.height)
        var entries = table
        if let t = first.control?.transparentIndex {
            while entries.count <= t { entries.append(Palette.Entry(red: 0, green: 0, blue: 0)) }
            entries[t].alpha = 0
            return .indexed(Palette(entries), fill: UInt8(t))
        }
        if covers { return .indexed(Palette(entries), fill: 0) }
        if first.localTable == nil, stream.backgroundIndex < entries.count {
            return .indexed(Palette(entries), fill: UInt8(stream.backgroundIndex))
        }
        return .composited(hasAlpha: false)
    }

    /// The pixel format ``image(from:limits:)`` delivers for a layout.
    static func format(of layout: Layout) -> PixelFormat {
        switch layout {
        case .indexed(let palette, _): return PixelFormat(colorModel: .indexed(palette), bitsPerComponent: 8)
        case .composited(let hasAlpha): return hasAlpha ? .rgba8 : .rgb8
        }
    }

    /// The colour table of frame `index`, or a malformed error when there is none.
    static func table(for frame: GIFFrameRecord, at index: Int, in stream: GIFStream) throws(DecodeError) -> [Palette.Entry] {
        guard let table = frame.table(in: stream), !table.isEmpty else {
            throw .malformed(.gif, reason: "image \(index + 1) has no local colour table and the file has no global one", offset: nil)
        }
        return table
    }

    /// Builds the image; `limits` pays for every canvas.
    static func image(from stream: GIFStream, limits: inout DecodeLimits) throws(DecodeError) -> Image {
        let layout = try layout(of: stream)
        let w = stream.width, h = stream.height
        guard w > 0, h > 0 else { throw .malformed(.gif, reason: "logical screen is \(w)×\(h)", offset: 6) }
        switch layout {
        case .indexed(_, let fill):
            try limits.reserve(bytes: w * h)
            var bytes = [UInt8](repeating: fill, count: w * h)
            let frame = stream.frames[0]
            let v = frame.visible
            for y in 0..<v.height {
                for x in 0..<v.width { bytes[(v.y + y) * w + v.x + x] = frame.indices[y * v.width + x] }
            }
            let bitmap = Bitmap(uncheckedWidth: w, height: h, format: format(of: layout), bytesPerRow: w, bytes: bytes)
            return Image(bitmap: bitmap, metadata: metadata(of: stream))
        case .composited(let hasAlpha):
            let frames = try composite(stream, hasAlpha: hasAlpha, limits: &limits)
            var image = Image(bitmap: frames[0].canvas, metadata: metadata(of: stream))
            if frames.count > 1 {
                // No loop extension means the animation plays once.
                image.animation = Animation(loopCount: stream.loopCount ?? 1, frames: frames)
            }
            return image
        }
    }

    /// Draws every frame in turn, applying each frame's disposal before the next.
    static func composite(_ stream: GIFStream, hasAlpha: Bool, limits: inout DecodeLimits) throws(DecodeError) -> [AnimationFrame] {
        let w = stream.width, h = stream.height
        let channels = hasAlpha ? 4 : 3
        let format: PixelFormat = hasAlpha ? .rgba8 : .rgb8
        var background: [UInt8] = [0, 0, 0, 0]
        if !hasAlpha {
            if let table = stream.globalTable, stream.backgroundIndex < table.count {
                let e = table[stream.backgroundIndex]
                background = [e.red, e.green, e.blue]
            } else {
                background = [0, 0, 0]
            }
        }
        try limits.reserve(bytes: w * h * channels)
        var canvas = [UInt8](repeating: 0, count: w * h * channels)
        for i in 0..<(w * h) { for c in 0..<channels { canvas[i * channels + c] = background[c] } }
        var out: [AnimationFrame] = []
        for (index, frame) in stream.frames.enumerated() {
            let table = try table(for: frame, at: index, in: stream)
            let v = frame.visible
            let transparent = frame.control?.transparentIndex
            let disposal = frame.control?.frameDisposal ?? .unspecified
            var saved: [UInt8] = []
            if disposal == .previous {
                saved.reserveCapacity(v.width * v.height * channels)
                for y in 0..<v.height {
                    let start = ((v.y + y) * w + v.x) * channels
                    saved.append(contentsOf: canvas[start..<(start + v.width * channels)])
                }
            }
            for y in 0..<v.height {
                for x in 0..<v.width {
                    let index = Int(frame.indices[y * v.width + x])
                    if index == transparent { continue }
                    let e = index < table.count ? table[index] : Palette.Entry(red: 0, green: 0, blue: 0)
                    let o = ((v.y + y) * w + v.x + x) * channels
                    canvas[o] = e.red; canvas[o + 1] = e.green; canvas[o + 2] = e.blue
                    if hasAlpha { canvas[o + 3] = 255 }
                }
            }
            try limits.reserve(bytes: w * h * channels)
            let bitmap = Bitmap(uncheckedWidth: w, height: h, format: format, bytesPerRow: w * channels, bytes: canvas)
            out.append(AnimationFrame(canvas: bitmap, delay: Double(frame.control?.delayCentiseconds ?? 0) / 100,
                                      region: v, disposal: disposal, blend: .over))
            switch disposal {
            case .background:
                for y in 0..<v.height {
                    for x in 0..<v.width {
                        let o = ((v.y + y) * w + v.x + x) * channels
                        for c in 0..<channels { canvas[o + c] = background[c] }
                    }
                }
            case .previous:
                for y in 0..<v.height {
                    let start = ((v.y + y) * w + v.x) * channels
                    let row = y * v.width * channels
                    for k in 0..<(v.width * channels) { canvas[start + k] = saved[row + k] }
                }
            case .none, .unspecified:
                break
            }
        }
        return out
    }

    /// What the stream says besides pixels.
    static func metadata(of stream: GIFStream) -> ImageMetadata {
        var properties: [String: String] = ["gif.version": "GIF" + stream.version,
                                            "frames": String(stream.frames.count)]
        if stream.frames.first?.interlaced == true { properties["interlace"] = "interlaced rows" }
        if let loop = stream.loopCount { properties["gif.loopCount"] = loop == 0 ? "0 (forever)" : String(loop) }
        if let bits = stream.globalTableBits { properties["gif.globalTable"] = "\(1 << bits) entries" }
        properties["gif.backgroundIndex"] = String(stream.backgroundIndex)
        if let t = stream.frames.first?.control?.transparentIndex { properties["gif.transparentIndex"] = String(t) }
        if let comment = stream.comments.first { properties["comment"] = comment }
        if let reason = stream.stopReason { properties["gif.stoppedEarly"] = reason }
        return ImageMetadata(iccProfile: stream.iccProfile, storedBitDepth: stream.globalTableBits, properties: properties)
    }
}
