import ImageCore

/// Antialiased coverage of a rounded rectangle: the fraction of each pixel's area inside it,
/// integrated column by column (4096 columns per pixel, each column's covered length exact), so
/// edge pixels are within 1/65536 of their true area (16-bit outputs round it exactly).
struct RoundedRectCoverage {
    let x0: Double, y0: Double, x1: Double, y1: Double, radius: Double
    /// Columns integrated per pixel.
    static let columns = 4096

    /// The fraction of pixel (x, y) (the square [x, x+1) × [y, y+1)) inside the shape.
    func coverage(x: Int, y: Int) -> Float {
        let fx = Double(x), fy = Double(y), r = radius
        // Pixels wholly inside the straight parts need no integration.
        if fx >= x0 + r, fx + 1 <= x1 - r, fy >= y0, fy + 1 <= y1 { return 1 }
        if fy >= y0 + r, fy + 1 <= y1 - r, fx >= x0, fx + 1 <= x1 { return 1 }
        var covered = 0.0
        let n = Self.columns
        for k in 0..<n {
            let px = fx + (Double(k) + 0.5) / Double(n)
            guard px >= x0, px <= x1 else { continue }
            // The shape's column at px: inset from the top and bottom by the corner arc.
            let d = max(x0 + r - px, px - (x1 - r), 0)
            let inset = d > 0 ? r - max(r * r - d * d, 0).squareRoot() : 0
            covered += max(0, min(fy + 1, y1 - inset) - max(fy, y0 + inset))
        }
        return Float(covered / Double(n))
    }
}

extension Image {
    /// The upright image with antialiased rounded corners of `radius` pixels, after adding a
    /// transparent border of `border` pixels (the `roundedCornerImage:borderSize:` contract).
    /// Outside the rounded rectangle pixels are transparent — never black; edge pixels keep
    /// their colour and get alpha equal to their coverage.
    public func roundedCorners(radius: Double, border: Int = 0, options: ResizeOptions = ResizeOptions()) throws(ResizeError) -> Image {
        guard radius >= 0, radius.isFinite else { throw .invalidGeometry("corner radius \(radius) is not a non-negative number") }
        let bordered = try transparentBorder(width: border)
        let w = bordered.width, h = bordered.height
        let shape = RoundedRectCoverage(x0: Double(border), y0: Double(border), x1: Double(w - border), y1: Double(h - border),
                                        radius: min(radius, Double(min(w, h) - 2 * border) / 2))
        var mask = [Float](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { mask[y * w + x] = shape.coverage(x: x, y: y) } }
        let format = options.deliveredFormat(natural: bordered.format)
        func apply(_ b: Bitmap) throws(ResizeError) -> Bitmap {
            var working = WorkingImage(b, lightSpace: options.lightSpace)
            for i in 0..<(w * h) where mask[i] < 1 {
                for c in 0..<4 { working.pixels[i * 4 + c] *= mask[i] }
            }
            do { return try working.bitmap(format: format) } catch { throw .conversion(error) }
        }
        return try bordered.mappingBitmaps(apply)
    }

    /// A square thumbnail (the `thumbnailImage:transparentBorder:cornerRadius:interpolationQuality:`
    /// contract): the upright image aspect-filled to `size × size` (longer side cropped, centred),
    /// then, when asked, a transparent border of `border` pixels and rounded corners of
    /// `cornerRadius`. The output is `(size + 2·border)` pixels square.
    public func squareThumbnail(size: Int, border: Int = 0, cornerRadius: Double = 0,
                                options: ResizeOptions = ResizeOptions()) throws(ResizeError) -> Image {
        guard border > 0 || cornerRadius > 0 else {
            return try resized(width: size, height: size, contentMode: .aspectFill(), options: options)
        }
        let steps = cornerSteps(options)
        let square = try resized(width: size, height: size, contentMode: .aspectFill(), options: steps.exact)
        return try square.roundedCorners(radius: cornerRadius, border: border, options: steps.finish)
    }

    /// The options of a resize whose result gets a border or rounded corners next, so that the
    /// whole rounds once: the resize stays in float (`exact`), and the corners (`finish`) take
    /// the format a bordered result of the delivered format has (with alpha).
    func cornerSteps(_ options: ResizeOptions) -> (exact: ResizeOptions, finish: ResizeOptions) {
        let resultFormat = options.deliveredFormat(natural: OutputFormat.result(for: format))
        let bordered = resultFormat.alphaInfo.hasAlpha ? resultFormat : OutputFormat.result(for: resultFormat, needsAlpha: true)
        var exact = options, finish = options
        exact.outputFormat = .rgbaFloat
        finish.outputFormat = options.deliveredFormat(natural: bordered)
        return (exact, finish)
    }
}
