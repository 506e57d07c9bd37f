import ImageCore
import ImageCodecs

/// What values a tagged RGB or gray source's statement shows: values computed from its stored
/// values (an average of them, a model of a resizer that works on them and keeps the
/// statement), read as its profile states and rendered in sRGB (``SRGBRendering``).
struct ProfileShown {
    var profile: [UInt8]
    var gray: Bool

    init(profile: [UInt8], gray: Bool) {
        self.profile = profile
        self.gray = gray
    }

    /// The statement of `source`, or `nil` when it states sRGB's colours or is not RGB or gray.
    init?(_ source: Image) {
        guard let profile = SRGBRendering.statedProfile(source) else { return nil }
        switch source.format.colorModel {
        case .gray: gray = true
        case .rgb: gray = false
        case .cmyk, .indexed, .none: return nil
        }
        self.profile = profile
    }

    /// `model` (premultiplied linear light of the stored values, read with the sRGB curve: its
    /// ``OracleImage/bitmap16()`` codes are the values) shown through the statement, premultiplied
    /// linear sRGB; `nil` when Little CMS refuses.
    func shown(_ model: OracleImage) -> OracleImage? {
        let codes = model.bitmap16()
        let values: Bitmap? = gray ? try? codes.converted(to: .grayAlpha16) : codes
        guard let values, let rendered = try? SRGBRendering.render(Image(bitmap: values, metadata: ImageMetadata().statingColours(by: profile)),
                                                                   sixteenBit: true) else { return nil }
        return try? OracleImage(straightSRGB: rendered.bitmap)
    }
}
