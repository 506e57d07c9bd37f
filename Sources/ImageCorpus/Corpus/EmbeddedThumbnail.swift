import ImageCore
import ImageCodecs

/// The EXIF thumbnail a corpus JPEG embeds (IFD1; B28, an embedded thumbnail returned instead of
/// the image): a small JPEG that does not show what the image shows, so a reader that hands it
/// back (ImageIO's `kCGImageSourceCreateThumbnailFromImageIfAbsent`) is seen.
public enum EmbeddedThumbnailKind: String, Hashable, Sendable, CaseIterable {
    /// Another picture (an editor changed the image and left the camera's thumbnail): the
    /// colour patches, or the landscape under a patches case, at a third of the size.
    case stale
    /// The same picture at an eighth of the size (a camera's 160 × 120 under 4000 × 3000 is a
    /// twenty-fifth): a result scaled up from it is blurred.
    case tiny
    /// The same picture at half the size, stored upright while the image is stored rotated
    /// under its EXIF orientation: a reader that applies IFD0's orientation to it turns it.
    case rotated

    /// The thumbnail's displayed size for a `width × height` image.
    func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let divisor: Int
        switch self {
        case .stale: divisor = 3
        case .tiny: divisor = 8
        case .rotated: divisor = 2
        }
        return (max(1, width / divisor), max(1, height / divisor))
    }

    /// The manifest's words for the thumbnail of case `c`.
    func words(for c: CorpusCase) -> String {
        let s = size(width: c.width, height: c.height)
        switch self {
        case .stale: return "EXIF IFD1 thumbnail \(s.width)×\(s.height) of another picture (stale)"
        case .tiny: return "EXIF IFD1 thumbnail \(s.width)×\(s.height) of the picture (tiny)"
        case .rotated: return "EXIF IFD1 thumbnail \(s.width)×\(s.height) of the picture stored upright, the image under orientation \(c.orientation.exifValue)"
        }
    }

    /// The JPEG bytes of the thumbnail of case `c`: the picture (or another) rendered at the
    /// thumbnail's size by the oracle (an area average), stored in the orientation of the
    /// image's own pixels (``rotated``: upright), quality 90, 4:4:4.
    func jpeg(for c: CorpusCase) throws(CorpusGenerationError) -> [UInt8] {
        let s = size(width: c.width, height: c.height)
        var pictured = c
        if self == .stale { pictured.scene = c.scene == .colorPatches ? .landscape : .colorPatches }
        do {
            let placement = try OracleGeometry.placement(of: .resize(width: s.width, height: s.height, mode: .scaleToFill),
                                                         width: c.width, height: c.height)
            let upright = try Oracle.render(canvasWidth: c.width, canvasHeight: c.height, placement: placement, scene: pictured.content())
                .straightFloatBitmap().converted(to: .rgb8)
            let stored = self == .rotated ? upright : c.orientation.inverse.apply(to: upright)
            return try ImageCodecs.encode(Image(bitmap: stored), as: .jpeg,
                                          options: EncodeOptions(jpegQuality: 90, jpegSubsampling: .s444))
        } catch {
            throw CorpusGenerationError(caseID: c.id, reason: "cannot make the embedded thumbnail: \(error)")
        }
    }
}
