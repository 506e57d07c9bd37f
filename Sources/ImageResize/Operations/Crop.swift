import ImageCore

/// A rectangle in (possibly fractional) pixel coordinates, as CoreGraphics' `CGRect`.
public struct Rect: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The largest magnitude of a coordinate or length, in pixels (2³¹): no image reaches beyond it.
    public static let coordinateLimit: Double = 2_147_483_648

    /// Why this rectangle cannot select pixels (a coordinate or length that is NaN, infinite or
    /// beyond ±``coordinateLimit``), or `nil` when it can.
    public var problem: String? {
        for (name, v) in [("x", x), ("y", y), ("width", width), ("height", height)] where !v.isFinite || abs(v) > Rect.coordinateLimit {
            return "\(name) \(v) is not a finite number of pixels within ±\(Int(Rect.coordinateLimit))"
        }
        return nil
    }

    /// The integral rectangle by CoreGraphics' `CGRectIntegral` rule: the origin rounds down
    /// and the far edges round up, so the result contains the rectangle. Coordinates are first
    /// limited to ±``coordinateLimit`` (NaN reads as −``coordinateLimit``).
    public var integral: PixelRect {
        let limit = Rect.coordinateLimit
        let x0 = Int(x.clamped(-limit, limit).rounded(.down)), y0 = Int(y.clamped(-limit, limit).rounded(.down))
        let x1 = Int((x + width).clamped(-limit, 2 * limit).rounded(.up)), y1 = Int((y + height).clamped(-limit, 2 * limit).rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension Image {
    /// The pixels inside `rect` of the upright (oriented) image, copied exactly in the input's
    /// pixel format (no resampling).
    ///
    /// Rounding rule: a fractional rectangle is first made integral by ``Rect/integral``
    /// (`CGRectIntegral`: origin down, far edges up), then clipped to the image.
    /// - Throws: ``ResizeError/invalidGeometry(_:)`` when a number of `rect` is not finite or
    ///   beyond ``Rect/coordinateLimit``, or nothing of the image remains.
    public func cropped(to rect: Rect) throws(ResizeError) -> Image {
        if let problem = rect.problem { throw .invalidGeometry("crop \(rect): \(problem)") }
        let upright = oriented()
        let r = rect.integral
        let x0 = max(r.x, 0), y0 = max(r.y, 0)
        let x1 = min(r.x + r.width, upright.width), y1 = min(r.y + r.height, upright.height)
        guard x1 > x0, y1 > y0 else {
            throw .invalidGeometry("crop \(r) lies outside the \(upright.width)×\(upright.height) image")
        }
        func crop(_ b: Bitmap) -> Bitmap {
            let bpp = b.format.bitsPerPixel
            let w = x1 - x0, h = y1 - y0
            let stride = b.format.minimumBytesPerRow(width: w)
            var out = [UInt8](repeating: 0, count: stride * h)
            for y in 0..<h {
                let srcRow = (y0 + y) * b.bytesPerRow
                if bpp % 8 == 0 {
                    let n = bpp / 8
                    let start = srcRow + x0 * n
                    out.replaceSubrange((y * stride)..<(y * stride + w * n), with: b.bytes[start..<(start + w * n)])
                } else {
                    for x in 0..<w {
                        let sbit = (x0 + x) * bpp, dbit = x * bpp
                        let v = (Int(b.bytes[srcRow + sbit / 8]) >> (8 - bpp - sbit % 8)) & ((1 << bpp) - 1)
                        out[y * stride + dbit / 8] |= UInt8(v << (8 - bpp - dbit % 8))
                    }
                }
            }
            return Bitmap(uncheckedWidth: w, height: h, format: b.format, bytesPerRow: stride, bytes: out)
        }
        var result = upright
        result.bitmap = crop(upright.bitmap)
        if let animation = upright.animation {
            result.animation = Animation(loopCount: animation.loopCount, frames: animation.frames.map { f in
                var g = f
                g.canvas = crop(f.canvas)
                g.region = PixelRect(x: 0, y: 0, width: x1 - x0, height: y1 - y0)
                g.blend = .source
                return g
            })
        }
        return result
    }

    /// CoreGraphics' scaler: the `rect` part of the upright image resampled to exactly
    /// `width × height` (aspect ratio not kept), with fractional source edges honoured.
    public func scaledToFill(from rect: Rect, width: Int, height: Int, options: ResizeOptions = ResizeOptions()) throws(ResizeError) -> Image {
        guard width > 0, height > 0 else { throw .invalidGeometry("size \(width)×\(height) is empty") }
        if let problem = rect.problem { throw .invalidGeometry("source \(rect): \(problem)") }
        let upright = oriented()
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
              rect.x + rect.width <= Double(upright.width), rect.y + rect.height <= Double(upright.height) else {
            throw .invalidGeometry("source \(rect) is not inside the \(upright.width)×\(upright.height) image")
        }
        return try upright.resampled(width: width, height: height, source: (rect.x, rect.y, rect.width, rect.height), options: options)
    }
}
