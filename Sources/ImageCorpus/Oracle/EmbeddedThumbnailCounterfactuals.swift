import ImageCore
import ImageCodecs
import ImageMetrics

/// The embedded-thumbnail trap (embedded-thumbnail, B28) predicted from the source's own EXIF
/// block: the thumbnail IFD1 embeds, decoded and resampled to the output's size by the
/// ``KernelOracle`` (Lanczos 3, linear light), as a reader that returns it instead of the image
/// and scales it to the size asked for would output:
/// - `thumbnail.embedded`: the thumbnail turned by the image's orientation (IFD0's);
/// - `thumbnail.embedded-unoriented`: the thumbnail as stored, for a source whose orientation is
///   not 1.
/// A stale thumbnail shows another picture, a tiny one a blurred one: the predictions say which
/// by their pixels, whatever the thumbnail holds.
public enum EmbeddedThumbnailCounterfactuals {
    /// The predictions for an output of `width × height` pixels from `source`; empty when the
    /// source embeds no readable thumbnail.
    public static func predictions(source: Image, width: Int, height: Int) -> [Counterfactual] {
        guard let block = source.metadata.exif, let embedded = EXIFThumbnail.reading(block),
              let decoded = try? ImageCodecs.decode(embedded.jpeg) else { return [] }
        var ways: [(id: String, name: String, image: Image)] = []
        var oriented = decoded
        oriented.orientation = source.orientation
        ways.append(("thumbnail.embedded",
                     "the EXIF thumbnail (\(decoded.width)×\(decoded.height)) returned instead of the image, scaled to the size asked for", oriented))
        if source.orientation != .up {
            ways.append(("thumbnail.embedded-unoriented",
                         "the EXIF thumbnail (\(decoded.width)×\(decoded.height)) returned without the image's orientation, scaled to the size asked for",
                         decoded))
        }
        return ways.compactMap { way in
            let shown = way.image.displaySize
            guard let placement = try? OracleGeometry.placement(of: .resize(width: width, height: height, mode: .scaleToFill),
                                                                width: shown.width, height: shown.height),
                  let model = try? KernelOracle.render(source: way.image, placement: placement, kernel: .lanczos3) else { return nil }
            return Counterfactual(id: way.id, bugClass: "embedded-thumbnail", name: way.name, references: ["B28"],
                                  predicted: Image(bitmap: model.bitmap16()))
        }
    }
}
