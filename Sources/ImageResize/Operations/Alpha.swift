import ImageCore

extension Image {
    /// Whether the pixels carry alpha (an alpha component, or a palette with transparent entries).
    public var hasAlpha: Bool { format.hasAlpha }

    /// The same pixels with an alpha channel, exactly (no resampling): the format becomes
    /// ``OutputFormat/result(for:needsAlpha:)`` with alpha, every pixel opaque unless it already
    /// had alpha. Orientation is kept; an image that already has alpha is returned unchanged.
    public func addingAlpha() throws(ResizeError) -> Image {
        guard !format.alphaInfo.hasAlpha else { return self }
        let target = OutputFormat.result(for: format, needsAlpha: true)
        do throws(ConversionError) {
            return try mappingBitmaps { b throws(ConversionError) in try b.converted(to: target) }
        } catch { throw .conversion(error) }
    }

    /// The upright image with a transparent border `width` pixels wide on every side: the output
    /// is `(w + 2·width) × (h + 2·width)` in an alpha format; the border is transparent, never black.
    /// A CMYK image with a profile is converted to sRGB through it first (``ProfileLightStage``).
    public func transparentBorder(width: Int) throws(ResizeError) -> Image {
        guard width >= 0 else { throw .invalidGeometry("border width \(width) is negative") }
        guard width <= OutputLimits.maxDimension else { throw .invalidGeometry("border width \(width) is beyond the output limit (\(OutputLimits.summary))") }
        let display = displaySize
        try OutputLimits.check(width: display.width + 2 * width, height: display.height + 2 * width)
        var inks = oriented()
        // CMYK has no alpha format: its inks are converted to sRGB through its profile first, as a resize does
        // (adding alpha to the stored inks would keep a CMYK profile on RGB values).
        if let stage = ProfileLightStage(inks, mode: .srgb), stage.convertsInks { inks = try stage.after(try stage.before(inks)) }
        let upright = try inks.addingAlpha()
        guard width > 0 else { return upright }
        func pad(_ b: Bitmap) -> Bitmap {
            let w = b.width + 2 * width, h = b.height + 2 * width
            let stride = b.format.minimumBytesPerRow(width: w)
            let n = b.format.bitsPerPixel / 8
            var out = [UInt8](repeating: 0, count: stride * h)
            for y in 0..<b.height {
                let dst = (y + width) * stride + width * n
                out.replaceSubrange(dst..<(dst + b.width * n), with: b.bytes[(y * b.bytesPerRow)..<(y * b.bytesPerRow + b.width * n)])
            }
            return Bitmap(uncheckedWidth: w, height: h, format: b.format, bytesPerRow: stride, bytes: out)
        }
        var out = upright
        out.bitmap = pad(upright.bitmap)
        if var animation = upright.animation {
            for i in animation.frames.indices {
                animation.frames[i].canvas = pad(animation.frames[i].canvas)
                animation.frames[i].region = PixelRect(x: 0, y: 0, width: out.width, height: out.height)
                animation.frames[i].blend = .source
            }
            out.animation = animation
        }
        return out
    }
}
