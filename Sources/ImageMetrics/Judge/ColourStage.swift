import ImageCore
import ImageCodecs

/// How a comparison treats the colours files state with ICC profiles.
public enum ColourMode: String, Sendable, Hashable, CaseIterable {
    /// Colours compared: when the two images state their colours differently (their profiles
    /// differ), both are converted to sRGB through their profiles first (``SRGBRendering``), so a
    /// file and its exact sRGB rendering match. Images that state the same colours are compared
    /// as stored.
    case managed
    /// Stored values compared, whatever the profiles say.
    case raw
}

/// What the colour stage did with a pair: each side's profile in words, whether they differ and
/// which sides were converted, for the screen, the JSON and the report.
public struct ColourHandling: Sendable, Hashable {
    /// The mode the pair was compared in.
    public var mode: ColourMode
    /// Each side's colours in words: "Adobe RGB (1998) (ICC profile)", "untagged (read as sRGB)",
    /// "sRGB IEC61966-2.1 (sRGB-equivalent ICC profile)", "a broken ICC profile (why): read as sRGB".
    public var expected: String, actual: String
    /// Whether the two images state their colours differently.
    public var profilesDiffer: Bool
    /// The sides whose pixels were converted to sRGB ("expected", "actual").
    public var converted: [String]
    /// Profiles that could not be used (broken, or Little CMS refused them); those sides were read as sRGB.
    public var warnings: [String]

    /// One line: what was compared, and how.
    public var summary: String {
        var line: String
        switch (mode, profilesDiffer) {
        case (_, false): line = "both images state the same colours (expected \(expected); actual \(actual)): stored values compared"
        case (.managed, true):
            line = "the profiles differ (expected \(expected); actual \(actual)): "
                + (converted.isEmpty ? "stored values compared" : "\(converted.joined(separator: " and ")) converted to sRGB, colours compared")
        case (.raw, true):
            line = "the profiles differ (expected \(expected); actual \(actual)): stored values compared (--colour raw)"
        }
        if !warnings.isEmpty { line += "; " + warnings.joined(separator: "; ") }
        return line
    }

    /// Whether the line is worth showing: a profile that is not plain sRGB on either side, or a warning.
    public var isNotable: Bool { profilesDiffer || !warnings.isEmpty || expected != ColourStage.untagged || actual != ColourStage.untagged }
}

/// The colour stage of the judge route (``FileComparison/judge(_:_:by:ignoring:colour:)``):
/// reads each side's profile, converts both to sRGB when they state their colours differently
/// (``ColourMode/managed``), and offers the diagnosis the profile mistakes the two files' own
/// tags make possible, as counterfactuals of class `colour-profile` (B14):
/// - the expected image's profile dropped (its stored values read as sRGB);
/// - a profile attached to values that were not converted into it (expected untagged, or the
///   actual carries another profile than the expected);
/// - the conversion applied twice (pixels converted to sRGB and tagged again, or converted
///   again by a reader);
/// - pixels converted to sRGB while the profile was kept (both sides carry the same profile).
public struct ColourStage: Sendable {
    /// The mode.
    public var mode: ColourMode

    public init(mode: ColourMode = .managed) { self.mode = mode }

    /// The words for an image without a profile.
    static let untagged = StatedColours.untaggedOrigin
    /// The prefix of the profile mistakes' candidate ids (`profile.dropped`, …).
    static let mistakePrefix = "profile."

    /// The pair to compare, what was done, and the profile counterfactuals (built only when the
    /// diagnosis asks for them).
    public func prepare(_ expected: ComparedImage, _ actual: ComparedImage)
        -> (expected: ComparedImage, actual: ComparedImage, handling: ColourHandling, counterfactuals: @Sendable () -> [Counterfactual]) {
        var timer = StageTimer()
        defer { timer.mark("colour stage (profiles)") }
        var warnings: [String] = []
        func described(_ image: Image, _ side: String) -> String {
            let stated = StatedColours(image.metadata, gray: image.format.colorModel == .gray)
            warnings += stated.notes.map { "the \(side) image's \($0)" }
            guard stated.origin == StatedColours.iccOrigin, let profile = stated.profile else {
                guard stated.profile != nil else { return stated.origin }
                return stated.origin + (SRGBRendering.statedProfile(image) == nil ? " (sRGB-equivalent)" : "")
            }
            let summary = ICCProfileSummary(profile)
            let name = summary.description.map { "“\($0)”" } ?? "an unnamed profile"
            if let problem = summary.problem {
                warnings.append("the \(side) image's ICC profile is unusable (\(problem)): read as sRGB")
                return "a broken ICC profile (read as sRGB)"
            }
            return summary.isSRGBEquivalent == true ? "\(name) (sRGB-equivalent ICC profile)" : "\(name) (ICC profile)"
        }
        let expectedWords = described(expected.image, "expected"), actualWords = described(actual.image, "actual")
        let expectedProfile = SRGBRendering.statedProfile(expected.image), actualProfile = SRGBRendering.statedProfile(actual.image)
        let differ = expectedProfile != actualProfile
        var handling = ColourHandling(mode: mode, expected: expectedWords, actual: actualWords, profilesDiffer: differ,
                                      converted: [], warnings: [])
        var compared = (expected, actual)
        if mode == .managed && differ {
            for (side, index) in [("expected", 0), ("actual", 1)] {
                let original = index == 0 ? expected : actual
                guard SRGBRendering.needsConversion(original.image) else { continue }
                do {
                    let rendered = try SRGBRendering.render(original.image)
                    let replaced = ComparedImage(image: rendered, name: original.name, container: original.container)
                    if index == 0 { compared.0 = replaced } else { compared.1 = replaced }
                    handling.converted.append(side)
                } catch {
                    warnings.append("the \(side) image's profile could not be applied (\(error.reason)): read as sRGB")
                }
            }
        }
        handling.warnings = warnings
        let mode = self.mode
        let expectedImage = expected.image, actualImage = actual.image
        let counterfactuals: @Sendable () -> [Counterfactual] = {
            Self.profileMistakes(expected: expectedImage, actual: actualImage, expectedProfile: expectedProfile,
                                 actualProfile: actualProfile, mode: mode)
        }
        return (compared.0, compared.1, handling, counterfactuals)
    }

    /// The profile mistakes the two images' tags make possible, each predicting the actual
    /// image as it is compared (converted to sRGB in ``ColourMode/managed`` mode when the
    /// profiles differ, as stored otherwise).
    static func profileMistakes(expected: Image, actual: Image, expectedProfile: [UInt8]?, actualProfile: [UInt8]?,
                                mode: ColourMode) -> [Counterfactual] {
        func name(_ profile: [UInt8]) -> String {
            if let stated = [expected, actual].lazy.map({ StatedColours($0.metadata, gray: $0.format.colorModel == .gray) })
                .first(where: { $0.profile == profile }), stated.origin != StatedColours.iccOrigin {
                return stated.origin
            }
            return ICCProfileSummary(profile).description.map { "“\($0)”" } ?? "an unnamed ICC profile"
        }
        func stored(_ image: Image) -> Image { tagged(image, nil) }
        func tagged(_ image: Image, _ profile: [UInt8]?) -> Image {
            var copy = image
            copy.metadata = image.metadata.statingColours(by: profile)
            return copy
        }
        /// How the comparison sees an image the actual file would be: converted when the
        /// profiles differ in managed mode.
        let converts = mode == .managed && expectedProfile != actualProfile
        func seen(_ image: Image) -> Image? {
            guard converts else { return image }
            return try? SRGBRendering.render(image)
        }
        var out: [Counterfactual] = []
        func offer(_ id: String, _ words: String, _ predicted: Image?) {
            guard let predicted else { return }
            out.append(Counterfactual(id: mistakePrefix + id, bugClass: "colour-profile", name: words, references: ["B14"],
                                      predicted: stored(predicted)))
        }
        switch (expectedProfile, actualProfile) {
        case (let e?, nil):
            offer("dropped", "the expected image's colour statement (\(name(e))) dropped: its stored values read as sRGB", stored(expected))
            if let once = try? SRGBRendering.render(expected) {
                offer("applied-twice", "the conversion from \(name(e)) to sRGB applied twice", try? SRGBRendering.render(tagged(once, e)))
            }
        case (nil, let a?):
            offer("attached-unconverted", "a profile (\(name(a))) attached to sRGB values without converting them", seen(tagged(expected, a)))
        case (let e?, let a?) where e != a:
            offer("replaced-unconverted", "the profile \(name(e)) replaced by \(name(a)) without converting the values",
                  seen(tagged(expected, a)))
        case (let e?, _?):
            if let converted = try? SRGBRendering.render(expected) {
                offer("converted-tag-kept", "pixels converted to sRGB but the profile \(name(e)) kept: the conversion is applied again when displayed",
                      converted)
            }
        default:
            break
        }
        return out
    }
}
