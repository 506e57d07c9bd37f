import ImageCore

/// Antialiased coverage of a rounded rectangle, measured on a 16 × 16 grid of sample points
/// per pixel (exact to 1/256 of a pixel's area).
struct RoundedRectCoverage {
    let x0: Double, y0: Double, x1: Double, y1: Double, radius: Double

    /// Whether the point lies inside the rounded rectangle.
    func contains(_ px: Double, _ py: Double) -> Bool {
        guard px >= x0, px <= x1, py >= y0, py <= y1 else { return false }
        let cx = px < x0 + radius ? x0 + radius : (px > x1 - radius ? x1 - radius : px)
        let cy = py < y0 + radius ? y0 + radius : (py > y1 - radius ? y1 - radius : py)
        let dx = px - cx, dy = py - cy
        return dx * dx + dy * dy <= radius * radius
    }

    /// The fraction of pixel (x, y) (the square [x, x+1) × [y, y+1)) inside the shape.
    func coverage(x: Int, y: Int) -> Float {
        // Pixels wholly inside the straight parts need no sampling.
        let fx = Double(x), fy = Double(y)
        if fx >= x0 + radius, fx + 1 <= x1 - radius, fy >= y0, fy + 1 <= y1 { return 1 }
        if fy >= y0 + radius, fy + 1 <= y1 - radius, fx >= x0, fx + 1 <= x1 { return 1 }
        var inside = 0
        for sy in 0..<16 {
            for sx in 0..<16 where contains(fx + (Double(sx) + 0.5) / 16, fy + (Double(sy) + 0.5) / 16) { inside += 1 }
        }
        return Float(inside) / 256
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
        let square = try resized(width: size, height: size, contentMode: .aspectFill(), options: options)
        guard border > 0 || cornerRadius > 0 else { return square }
        return try square.roundedCorners(radius: cornerRadius, border: border, options: options)
    }
}
