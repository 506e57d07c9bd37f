import Foundation
import ImageCore
import ImageCodecs

/// What the diff shows about one side: name, container, sizes, pixel format in Quartz terms
/// and the metadata that bug reports turn on (colour type, bit depth, ICC, orientation,
/// frames).
public struct ImageSummary: Sendable, Hashable, Codable {
    /// The file name or label given by the caller (shown escaped in HTML).
    public var name: String
    /// `png`, `jpeg`, … or `nil` when unknown.
    public var container: String?
    /// Stored size.
    public var width: Int, height: Int
    /// Displayed size (after orientation).
    public var displayWidth: Int, displayHeight: Int
    /// The pixel format in Quartz terms (as `imglab info` prints it).
    public var format: FileInfo.Format
    /// Bit depth the file header declares, when different facts were recorded.
    public var storedBitDepth: Int?
    /// Orientation 1…8 in EXIF's numbering (read from EXIF, PNG eXIf or HEIF irot/imir) and its name.
    public var orientation: Int
    public var orientationName: String
    /// ICC profile summary, or `nil` when the file has none.
    public var icc: ICCProfileSummary?
    /// PNG gAMA / sRGB facts.
    public var gamma: Double?
    public var sRGBIntent: Int?
    /// Points-to-pixels scale.
    public var scale: Double
    /// Frames (1 for a still image) and loop count.
    public var frames: Int
    public var loopCount: Int?

    public init(name: String, container: ContainerFormat?, image: Image) {
        self.name = name
        self.container = container?.rawValue
        width = image.width; height = image.height
        let d = image.displaySize
        displayWidth = d.width; displayHeight = d.height
        format = FileInfo.Format(image.format)
        storedBitDepth = image.metadata.storedBitDepth
        orientation = image.orientation.exifValue
        orientationName = image.orientation.description
        icc = image.metadata.iccProfile.map(ICCProfileSummary.init)
        gamma = image.metadata.gamma
        sRGBIntent = image.metadata.sRGBIntent
        scale = image.metadata.scale
        frames = image.frameCount
        loopCount = image.animation?.loopCount
    }

    /// Field name and value, in display order, for the metadata comparison.
    public var facts: [(String, String)] {
        [
            ("container", container?.uppercased() ?? "unknown"),
            ("stored size", "\(width)×\(height)"),
            ("displayed size", "\(displayWidth)×\(displayHeight)"),
            ("pixel format", format.summary),
            ("colour model", format.colorModel + (format.paletteEntries.map { ", \($0) palette entries, \(format.transparentPaletteEntries ?? 0) transparent" } ?? "")),
            ("bits per component", "\(format.bitsPerComponent)" + (storedBitDepth.map { $0 != format.bitsPerComponent ? " (file declares \($0))" : "" } ?? "")),
            ("bits per pixel", "\(format.bitsPerPixel)"),
            ("alpha", format.alphaInfo),
            ("byte order", format.byteOrder),
            ("ICC profile", icc.map { "\($0.size) bytes" + ($0.description.map { ", \"\($0)\"" } ?? "") } ?? "none"),
            ("gamma", gamma.map { String(format: "%.5f", $0) } ?? "none"),
            ("sRGB chunk", sRGBIntent.map { "intent \($0)" } ?? "none"),
            // Named "orientation", not "EXIF orientation": a HEIF states it by irot/imir (the value is in EXIF's numbering).
            ("orientation", "\(orientation) (\(orientationName))"),
            ("scale", scale == scale.rounded() ? "\(Int(scale))×" : "\(scale)×"),
            ("frames", "\(frames)" + (loopCount.map { $0 == 0 ? ", loops forever" : ", plays \($0)×" } ?? "")),
        ]
    }
}

/// One metadata field that differs between the two images.
public struct MetadataDifference: Sendable, Hashable, Codable {
    public var field: String
    public var expected: String
    public var actual: String

    /// The fields of `a` and `b` whose values differ, in display order.
    public static func between(_ a: ImageSummary, _ b: ImageSummary) -> [MetadataDifference] {
        zip(a.facts, b.facts).compactMap { x, y in
            x.1 == y.1 ? nil : MetadataDifference(field: x.0, expected: x.1, actual: y.1)
        }
    }
}
