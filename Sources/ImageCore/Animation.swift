/// The frames of an animated image (GIF, APNG), each already composited onto the full canvas.
///
/// ``Image/bitmap`` of an animated image is the first composited frame; `frames[0]` is that
/// same frame. The per-frame rectangle, disposal and blend are kept so an encoder can write
/// the animation back the way it was built.
public struct Animation: Hashable, Sendable {
    /// How many times to play; 0 means forever (GIF NETSCAPE2.0 and APNG acTL convention).
    public var loopCount: Int
    /// The frames in display order.
    public var frames: [AnimationFrame]
    public init(loopCount: Int, frames: [AnimationFrame]) {
        self.loopCount = loopCount
        self.frames = frames
    }
}

/// One frame of an animation.
public struct AnimationFrame: Hashable, Sendable {
    /// The whole canvas after this frame was drawn (what a viewer shows).
    public var canvas: Bitmap
    /// How long the frame shows, in seconds.
    public var delay: Double
    /// The rectangle the frame's own pixels covered, in canvas pixels.
    public var region: PixelRect
    /// What happens to `region` after the frame's delay.
    public var disposal: FrameDisposal
    /// How the frame's pixels combine with the canvas.
    public var blend: FrameBlend
    public init(canvas: Bitmap, delay: Double, region: PixelRect, disposal: FrameDisposal = .none, blend: FrameBlend = .over) {
        self.canvas = canvas
        self.delay = delay
        self.region = region
        self.disposal = disposal
        self.blend = blend
    }
}

/// Frame disposal: GIF disposal methods 0–3, APNG dispose_op 0–2.
public enum FrameDisposal: String, Hashable, Sendable, CaseIterable {
    /// GIF 0: no disposal specified (treated as `.none`).
    case unspecified
    /// Leave the frame in place (GIF 1, APNG APNG_DISPOSE_OP_NONE).
    case none
    /// Clear the region to transparent (GIF 2 "restore to background", APNG DISPOSE_OP_BACKGROUND).
    case background
    /// Restore the region to what it was before the frame (GIF 3, APNG DISPOSE_OP_PREVIOUS).
    case previous
}

/// Frame blending: APNG blend_op (GIF always blends over, through its transparent index).
public enum FrameBlend: String, Hashable, Sendable, CaseIterable {
    /// Replace the region's pixels (APNG_BLEND_OP_SOURCE).
    case source
    /// Alpha-composite over the canvas (APNG_BLEND_OP_OVER).
    case over
}

/// An integer rectangle in pixels; `x`, `y` is the top-left corner.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
