/// Where an operation puts the scene in its output: everything the ``Oracle`` needs to render
/// the ideal result, in numbers.
///
/// The output is `width × height` pixels. The scene's `source` rectangle (canvas pixels,
/// fractional edges allowed) is mapped linearly onto the `content` rectangle (output pixels);
/// outside `content` the output is transparent. With a `cornerRadius` > 0 only the part of
/// `content` inside the rounded rectangle with that radius is covered (CoreGraphics'
/// `addRoundedRect` shape: quarter circles in the corners).
public struct OraclePlacement: Hashable, Sendable {
    /// Output width, pixels.
    public var width: Int
    /// Output height, pixels.
    public var height: Int
    /// The rectangle of the output the scene fills: x, y, width, height in output pixels.
    public var content: (x: Double, y: Double, width: Double, height: Double) { (contentX, contentY, contentWidth, contentHeight) }
    /// The rectangle of the canvas shown: x, y, width, height in canvas pixels.
    public var source: (x: Double, y: Double, width: Double, height: Double) { (sourceX, sourceY, sourceWidth, sourceHeight) }
    /// Corner radius of the covered shape, output pixels; 0 for a plain rectangle.
    public var cornerRadius: Double
    /// The one scale (output pixels per canvas pixel) an aspect-preserving operation intends
    /// before its sizes are rounded, or `nil` for a stretch, a crop or an identity: a resizer
    /// that applies it to both axes (``LibvipsReduce``) maps a rounded axis slightly differently.
    public var aspectScale: Double?

    var contentX: Double, contentY: Double, contentWidth: Double, contentHeight: Double
    var sourceX: Double, sourceY: Double, sourceWidth: Double, sourceHeight: Double

    /// A placement; see the type's notes for the meaning of each rectangle.
    public init(width: Int, height: Int, content: (x: Double, y: Double, width: Double, height: Double),
                source: (x: Double, y: Double, width: Double, height: Double), cornerRadius: Double = 0) {
        self.width = width
        self.height = height
        (contentX, contentY, contentWidth, contentHeight) = content
        (sourceX, sourceY, sourceWidth, sourceHeight) = source
        self.cornerRadius = cornerRadius
    }

    /// The identity: a `width × height` canvas shown whole at its own size.
    public static func identity(width: Int, height: Int) -> OraclePlacement {
        OraclePlacement(width: width, height: height, content: (0, 0, Double(width), Double(height)),
                        source: (0, 0, Double(width), Double(height)))
    }

    /// Canvas pixels per output pixel along the more reduced axis (≥ 0); 1 for the identity.
    public var reduction: Double {
        max(sourceWidth / contentWidth, sourceHeight / contentHeight)
    }

    /// Whether the output point (px, py) is covered by the content shape.
    func covers(_ px: Double, _ py: Double) -> Bool {
        let x0 = contentX, y0 = contentY, x1 = contentX + contentWidth, y1 = contentY + contentHeight
        guard px >= x0, px < x1, py >= y0, py < y1 else { return false }
        guard cornerRadius > 0 else { return true }
        let r = cornerRadius
        let cx = px < x0 + r ? x0 + r : (px > x1 - r ? x1 - r : px)
        let cy = py < y0 + r ? y0 + r : (py > y1 - r ? y1 - r : py)
        let dx = px - cx, dy = py - cy
        return dx * dx + dy * dy <= r * r
    }
}

/// An operation that cannot be applied to a canvas (empty box, crop outside the image).
public struct OracleGeometryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the numbers.
    public var reason: String
    public var description: String { "invalid geometry: \(reason)" }
}
