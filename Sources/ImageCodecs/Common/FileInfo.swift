import ImageCore

/// Everything `imglab info` reports about one file, as a value that encodes to JSON.
///
/// Sizes are in pixels, delays in seconds. Pixel-format fields use Quartz's vocabulary so a
/// reader can compare them with `CGImageGetBitmapInfo` output and bug reports.
public struct FileInfo: Sendable, Hashable, Codable {
    /// The Quartz description of a pixel format.
    public struct Format: Sendable, Hashable, Codable {
        public var summary: String
        public var colorModel: String
        public var bitsPerComponent: Int
        public var bitsPerPixel: Int
        /// Components per pixel, alpha and padding included.
        public var components: Int
        public var alphaInfo: String
        public var byteOrder: String
        public var floatComponents: Bool
        public var premultiplied: Bool
        public var paletteEntries: Int?
        public var transparentPaletteEntries: Int?

        public init(_ f: PixelFormat) {
            summary = f.description
            colorModel = f.colorModel.quartzName
            bitsPerComponent = f.bitsPerComponent
            bitsPerPixel = f.bitsPerPixel
            components = f.slotCount
            alphaInfo = f.alphaInfo.quartzName
            byteOrder = f.byteOrder.quartzName
            floatComponents = f.isFloat
            premultiplied = f.isPremultiplied
            if case .indexed(let p) = f.colorModel {
                paletteEntries = p.count
                transparentPaletteEntries = p.entries.filter { $0.alpha != 255 }.count
            }
        }
    }

    /// The bitmap-context verdict (see ``BitmapContextSupport``).
    public struct ContextVerdict: Sendable, Hashable, Codable {
        public var iOS: Bool
        public var macOS: Bool
        public var reason: String?
        public var drawIntoOnIOS: Format
        public var drawIntoOnMacOS: Format
    }

    public var path: String
    public var container: String
    public var width: Int
    public var height: Int
    public var displayWidth: Int
    public var displayHeight: Int
    /// EXIF orientation value 1…8.
    public var orientation: Int
    public var orientationName: String
    public var orientationSource: String?
    public var hasAlpha: Bool
    public var bitsPerComponent: Int
    public var storedBitDepth: Int?
    public var format: Format
    public var icc: ICCProfileSummary?
    /// The thumbnail the EXIF block embeds (IFD1), when there is one.
    public var embeddedThumbnail: EmbeddedThumbnailInfo?
    /// How the file states its colours (``StatedColours``) and what imglab does with them:
    /// `PNG cICP 12/13/0/1: not sRGB, converted through it when compared or resized`.
    public var colours: String
    public var gamma: Double?
    public var sRGBIntent: Int?
    public var frames: Int
    public var loopCount: Int?
    public var delays: [Double]?
    public var properties: [String: String]
    public var bitmapContext: ContextVerdict
    /// Set when the header could be read but the pixels could not be decoded.
    public var decodeError: String?
    /// Broken ancillary data the decoder dropped while decoding the pixels
    /// (``ImageCore/ImageMetadata/warnings``); empty for a clean file.
    public var warnings: [String]

    /// Describes a decoded image.
    public init(path: String, container: ContainerFormat, image: Image) {
        self.init(path: path, container: container, width: image.width, height: image.height, format: image.format,
                  orientation: image.orientation, metadata: image.metadata, frames: image.frameCount)
        if let thumbnail = image.metadata.exif.flatMap(EXIFThumbnail.reading) {
            embeddedThumbnail = EmbeddedThumbnailInfo(thumbnail, comparedWith: image)
        }
        if let animation = image.animation {
            loopCount = animation.loopCount
            delays = animation.frames.map(\.delay)
        }
    }

    /// Describes a file from its header only (when the pixels failed to decode).
    public init(path: String, header: ImageHeader, decodeError: DecodeError?) {
        self.init(path: path, container: header.container, width: header.width, height: header.height,
                  format: header.format, orientation: header.orientation, metadata: header.metadata,
                  frames: header.frameCount)
        self.decodeError = decodeError?.description
        if let timing = header.timing {
            loopCount = timing.loopCount
            delays = timing.delays
        }
    }

    private init(path: String, container: ContainerFormat, width: Int, height: Int, format: PixelFormat,
                 orientation: Orientation, metadata: ImageMetadata, frames: Int) {
        self.path = path
        self.container = container.rawValue
        self.width = width
        self.height = height
        let display = orientation.displaySize(width: width, height: height)
        displayWidth = display.width
        displayHeight = display.height
        self.orientation = orientation.exifValue
        orientationName = orientation.description
        orientationSource = metadata.orientationSource?.rawValue
        hasAlpha = format.hasAlpha
        bitsPerComponent = format.bitsPerComponent
        storedBitDepth = metadata.storedBitDepth
        self.format = Format(format)
        icc = metadata.iccProfile.map(ICCProfileSummary.init)
        embeddedThumbnail = metadata.exif.flatMap(EXIFThumbnail.reading).map(EmbeddedThumbnailInfo.init)
        let stated = StatedColours(metadata, gray: format.colorModel == .gray)
        let converted = SRGBRendering.statedProfile(metadata, gray: format.colorModel == .gray) != nil
        let verdict = converted ? ": not sRGB, converted through it when compared or resized"
            : stated.profile.map { ICCProfileSummary($0).problem == nil ? ": sRGB-equivalent" : ": unusable, read as sRGB" } ?? ""
        colours = ([stated.origin + verdict] + stated.notes).joined(separator: "; ")
        gamma = metadata.gamma
        sRGBIntent = metadata.sRGBIntent
        self.frames = frames
        properties = metadata.properties
        warnings = metadata.warnings
        let v = BitmapContextSupport.verdict(for: format)
        bitmapContext = ContextVerdict(iOS: v.iOS, macOS: v.macOS, reason: v.reason,
                                       drawIntoOnIOS: Format(v.iOSTarget), drawIntoOnMacOS: Format(v.macOSTarget))
    }

    /// Reads and describes a file from its header alone (no pixel is decoded, so a file that
    /// declares a huge image costs no more than its bytes); with `decodingPixels`, decodes it
    /// whole within `options.limits` and reports the decoded image, or the header and why the
    /// pixels could not be decoded.
    /// - Throws: ``DecodeError`` when not even the header can be read.
    public static func inspect(path: String, options: DecodeOptions = DecodeOptions(), decodingPixels: Bool = false) throws(DecodeError) -> FileInfo {
        guard decodingPixels else { return FileInfo(path: path, header: try ImageCodecs.readHeader(path: path, options: options), decodeError: nil) }
        let bytes = try ImageCodecs.readFile(path, limit: options.limits.maxBytes)
        let container = try ImageCodecs.sniff(bytes)
        do {
            let image = try ImageCodecs.decode(bytes, options: options)
            return FileInfo(path: path, container: container, image: image)
        } catch {
            let header = try ImageCodecs.readHeader(bytes, options: options)
            return FileInfo(path: path, header: header, decodeError: error)
        }
    }
}
