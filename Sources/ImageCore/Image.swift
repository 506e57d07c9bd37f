/// A decoded image: pixels, how to display them, and what the file said about them.
public struct Image: Hashable, Sendable {
    /// The pixels as stored (not yet oriented). For an animation, the first composited frame.
    public var bitmap: Bitmap
    /// How the stored pixels must be transformed for display (EXIF / TIFF orientation).
    public var orientation: Orientation
    /// ICC, EXIF, gamma, scale and container facts.
    public var metadata: ImageMetadata
    /// The frames, when the file is animated (more than one frame); otherwise `nil`.
    public var animation: Animation?

    public init(bitmap: Bitmap, orientation: Orientation = .up, metadata: ImageMetadata = ImageMetadata(), animation: Animation? = nil) {
        self.bitmap = bitmap
        self.orientation = orientation
        self.metadata = metadata
        self.animation = animation
    }

    /// Stored width in pixels.
    public var width: Int { bitmap.width }
    /// Stored height in pixels.
    public var height: Int { bitmap.height }
    /// The pixel format.
    public var format: PixelFormat { bitmap.format }
    /// Width and height as displayed, after the orientation (5–8 swap them).
    public var displaySize: (width: Int, height: Int) { orientation.displaySize(width: width, height: height) }
    /// Number of frames (1 for a still image).
    public var frameCount: Int { animation?.frames.count ?? 1 }
}

extension Image {
    /// This image with `transform` applied to its bitmap and then to every animation frame's
    /// canvas, in frame order; frame timing, regions and metadata are kept. The first error
    /// `transform` throws is rethrown.
    public func mappingBitmaps<E: Error>(_ transform: (Bitmap) throws(E) -> Bitmap) throws(E) -> Image {
        var out = self
        out.bitmap = try transform(bitmap)
        if var animation {
            for k in animation.frames.indices { animation.frames[k].canvas = try transform(animation.frames[k].canvas) }
            out.animation = animation
        }
        return out
    }
}
