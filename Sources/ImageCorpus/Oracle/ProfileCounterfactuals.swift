import ImageCore
import ImageCodecs
import ImageMetrics

/// The colour-statement mistakes (colour-profile, B14) predicted from a correct sRGB output, for
/// a source that states its colours other than sRGB's (an ICC profile, PNG gAMA/cHRM/cICP):
/// - `profile.dropped`: the statement dropped or ignored, the stored values shown as sRGB — the
///   correct output's colours encoded into the source's space (Little CMS) and read as sRGB; for
///   an output that states no colours, an RGB or gray source.
/// - `profile.applied-twice` (an untagged output) or `profile.converted-tag-kept` (a tagged one):
///   the correct sRGB output read once more as if in the source's space.
/// The kernel-exact oracle makes `profile.dropped` exactly from the source instead
/// (``KernelCounterfactuals``); the box oracle's pairs take all three from here.
public enum ProfileCounterfactuals {
    /// The predictions from `correct` (frame `k`'s expected sRGB image) for `source`; empty for a
    /// source that states sRGB's colours.
    public static func predictions(correct: Image, source: Image, outputStatesColours: Bool) -> [Counterfactual] {
        guard let profile = SRGBRendering.statedProfile(source), let rgba = try? correct.bitmap.converted(to: .rgba16) else { return [] }
        var out = convertedAgain(rgba, source: source, outputStatesColours: outputStatesColours)
        let gray = source.format.colorModel == .gray
        guard !outputStatesColours, source.format.colorModel == .rgb || gray else { return out }
        let format = PixelFormat(colorModel: gray ? .gray : .rgb, bitsPerComponent: 16, alphaInfo: .last)
        if let stored = try? SRGBRendering.encode(rgba, into: profile, as: format) {
            out.insert(Counterfactual(id: "profile.dropped", bugClass: "colour-profile",
                                      name: "the source's colour statement (\(statementWords(source))) dropped or ignored: its stored values shown as sRGB",
                                      references: ["B14"], predicted: Image(bitmap: stored)), at: 0)
        }
        return out
    }

    /// How `source` states its colours, in words: its ICC profile by name, or the PNG chunk.
    static func statementWords(_ source: Image) -> String {
        let stated = StatedColours(source.metadata, gray: source.format.colorModel == .gray)
        guard stated.origin == StatedColours.iccOrigin, let profile = stated.profile else { return stated.origin }
        return ICCProfileSummary(profile).description.map { "ICC profile “\($0)”" } ?? "an unnamed ICC profile"
    }

    /// The correct output `rgba16` (sRGB values) read as stated by the source's profile and shown
    /// in sRGB again: `profile.applied-twice`, or `profile.converted-tag-kept` for an output that
    /// states colours. Empty for a CMYK source (an RGB output cannot be read as its inks).
    static func convertedAgain(_ rgba16: Bitmap, source: Image, outputStatesColours: Bool) -> [Counterfactual] {
        let gray = source.format.colorModel == .gray
        guard let profile = SRGBRendering.statedProfile(source), source.format.colorModel == .rgb || gray else { return [] }
        let values: Bitmap? = gray ? try? rgba16.converted(to: .grayAlpha16) : rgba16
        guard let values, let again = try? SRGBRendering.render(Image(bitmap: values, metadata: ImageMetadata().statingColours(by: profile)),
                                                                sixteenBit: true).bitmap.converted(to: .rgba16) else { return [] }
        let words = statementWords(source)
        return [outputStatesColours
            ? Counterfactual(id: "profile.converted-tag-kept", bugClass: "colour-profile",
                             name: "pixels converted to sRGB but the source's colour statement (\(words)) kept: converted again when shown",
                             references: ["B14"], predicted: Image(bitmap: again))
            : Counterfactual(id: "profile.applied-twice", bugClass: "colour-profile",
                             name: "the conversion from the source's colours (\(words)) to sRGB applied twice", references: ["B14"],
                             predicted: Image(bitmap: again))]
    }
}
