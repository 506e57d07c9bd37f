import ImageCore

/// What a file's header says, read without decoding pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The container.
    public var container: ContainerFormat
    /// Stored width in pixels.
    public var width: Int
    /// Stored height in pixels.
    public var height: Int
    /// The pixel format a full decode delivers.
    public var format: PixelFormat
    /// The orientation, `.up` when the file declares none.
    public var orientation: Orientation
    /// Number of frames (1 for a still image); GIF counts image descriptors, APNG uses acTL.
    public var frameCount: Int
    /// Container facts for `imglab info` (interlace, compression, JPEG process…).
    public var metadata: ImageMetadata
    /// An animation's loop count and frame delays, read from the file's structure
    /// (GIF graphic control extensions, APNG acTL and fcTL); `nil` for a still image.
    public var timing: AnimationTiming?

    public init(container: ContainerFormat, width: Int, height: Int, format: PixelFormat,
                orientation: Orientation = .up, frameCount: Int = 1, metadata: ImageMetadata = ImageMetadata()) {
        self.container = container
        self.width = width
        self.height = height
        self.format = format
        self.orientation = orientation
        self.frameCount = frameCount
        self.metadata = metadata
    }
}

/// When an animation's frames are shown, as its file declares it.
public struct AnimationTiming: Sendable, Hashable {
    /// How many times it plays; 0 = forever.
    public var loopCount: Int
    /// Each frame's delay, in seconds.
    public var delays: [Double]

    public init(loopCount: Int, delays: [Double]) {
        self.loopCount = loopCount
        self.delays = delays
    }
}
