import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

extension DiffReport {
    /// Encoded images to embed.
    public struct Images: Sendable {
        /// The expected image as compared (displayed orientation).
        public var expected: EmbeddedImage
        /// The actual image as compared.
        public var actual: EmbeddedImage
        /// PNG of the heat map, when the sizes are equal.
        public var heatMapPNG: [UInt8]?
        /// The layer over the expected and actual images where pixels are ignored (``IgnoredOverlay``),
        /// when any are and the sizes are equal.
        public var ignoredOverlayPNG: [UInt8]?
        /// Each mask and region with the pixels it covers, and all ignored pixels (overlaps once).
        public var ignoredCoverage: (each: [IgnoredPixels.Coverage], total: Int)?

        public init(expected: EmbeddedImage, actual: EmbeddedImage, heatMapPNG: [UInt8]?) {
            self.expected = expected
            self.actual = actual
            self.heatMapPNG = heatMapPNG
        }

        /// The images to embed for two compared sides. A side's original file is embedded as is
        /// when a browser shows it exactly as compared (PNG, JPEG, GIF or BMP, orientation up,
        /// one frame); otherwise the displayed pixels are encoded as PNG (formats PNG cannot store
        /// are converted to 8- or 16-bit RGB(A), for display only). Pure: bytes in, bytes out.
        /// - Parameters:
        ///   - expectedFile, actualFile: the original file bytes, when the caller has them.
        ///   - ignored: pixels left out of the comparison, drawn hatched in the heat map and, with
        ///     `coverage` (each mask and region's pixels), over both images in every view.
        public static func make(expected: ComparedImage, actual: ComparedImage,
                                expectedFile: [UInt8]? = nil, actualFile: [UInt8]? = nil, ignored: PixelMask? = nil,
                                coverage: [IgnoredPixels.Coverage] = []) throws(EncodeError) -> Images {
            var heat: [UInt8]?
            let withAlpha = expected.image.format.hasAlpha || actual.image.format.hasAlpha
            let ev = ValueImage(expected.image, withAlpha: withAlpha), av = ValueImage(actual.image, withAlpha: withAlpha)
            if ev.width == av.width && ev.height == av.height {
                // Indexed (70 colours): a third of the bytes to filter and deflate, the same pixels.
                heat = try ImageCodecs.encode(Image(bitmap: HeatMap.indexedBitmap(expected: ev, actual: av, ignored: ignored)), as: .png)
            }
            var images = Images(expected: try EmbeddedImage.displayed(expected, file: expectedFile),
                                actual: try EmbeddedImage.displayed(actual, file: actualFile), heatMapPNG: heat)
            if let ignored, heat != nil, ignored.width == ev.width, ignored.height == ev.height {
                images.ignoredOverlayPNG = try IgnoredOverlay.png(ignored)
                images.ignoredCoverage = (coverage, ignored.count)
            }
            return images
        }
    }
}
