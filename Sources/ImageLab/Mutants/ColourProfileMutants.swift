import ImageCorpus
import ImageCore
import ImageCodecs

// The colour-statement mutants (B14): a source that states its colours by an ICC profile or PNG
// chunks is resized as if it did not, or converted to sRGB once too often, or converted with
// the statement kept beside the converted values.

extension Mutant {
    private static let profileHistory = "Resizers that drop or ignore the source's colour statement wash out or oversaturate wide-gamut pictures (Adobe RGB, Display P3): the profile removed with the metadata (`-strip`, kirby#2537), not copied on save (easy-thumbnails#366, #263; php-imagine#237), a forced DeviceRGB context (mac-powertoys#100); sharp's fixes kept the P3 gamut (#2862) and the profile of P3 and CMYK files (#3906) (B14, research/resizer-anchors.md)."

    /// The source's ICC profile dropped before resizing: its stored values read as sRGB.
    static let profileDropped = Mutant(
        id: "profile-dropped", topic: "colour-profile",
        title: "the source's ICC profile dropped (its stored values shown as sRGB: washed-out or oversaturated colours)",
        history: profileHistory + " Here: the decoded source's ICC profile removed, then resized by the base.",
        references: ["B14"], bugClass: "colour-profile",
        triggers: { $0.sourceColours?.hasPrefix("ICC profile") == true },
        make: { base in
            MutantResizer(name: "profile-dropped(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var plain = source
                plain.metadata.iccProfile = nil
                return try base.apply(operation, to: plain)
            }
        })

    /// PNG gAMA, cHRM and cICP ignored: the stored values read as sRGB.
    static let chunkColoursIgnored = Mutant(
        id: "chunk-colours-ignored", topic: "colour-profile",
        title: "PNG gAMA / cHRM / cICP ignored (the stored values shown as sRGB)",
        history: profileHistory + " Here: the decoded source's gAMA, cHRM and cICP facts removed, then resized by the base.",
        references: ["B14"], bugClass: "colour-profile",
        triggers: { $0.sourceColours?.hasPrefix("PNG") == true },
        make: { base in
            MutantResizer(name: "chunk-colours-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var plain = source
                (plain.metadata.gamma, plain.metadata.chromaticities, plain.metadata.codingPoints) = (nil, nil, nil)
                return try base.apply(operation, to: plain)
            }
        })

    /// The conversion to sRGB done twice: the output, already sRGB, converted again as if still in the source's space.
    static let profileAppliedTwice = Mutant(
        id: "profile-applied-twice", topic: "colour-profile",
        title: "the conversion to sRGB applied twice (colours pushed twice as far: oversaturated or shifted)",
        history: profileHistory + " The conversion is the fix, and done twice it is the colour analogue of an orientation applied twice (B17): a pipeline that converts on decode and again on encode moves every colour twice as far. Here: the source converted to sRGB, resized by the base, and the result converted again from the source's space.",
        references: ["B14"], bugClass: "colour-profile",
        triggers: { $0.sourceColours != nil && $0.sourceFormat?.colorModel == .rgb },
        make: { base in
            MutantResizer(name: "profile-applied-twice(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard let profile = SRGBRendering.statedProfile(source) else { return try base.apply(operation, to: source) }
                let output = try base.apply(operation, to: try ProfileConversion.rendered(source))
                return try ProfileConversion.rendered(ProfileConversion.stating(output, by: profile))
            }
        })

    /// Pixels converted to sRGB while the source's statement is kept beside them.
    static let profileKeptAfterConversion = Mutant(
        id: "profile-kept-after-conversion", topic: "colour-profile",
        title: "pixels converted to sRGB but the source's profile kept (tag and pixels disagree: converted again when shown)",
        history: profileHistory + " Converting the pixels while copying the metadata unchanged leaves a profile that no longer describes them, the colour analogue of a stale orientation tag (B17): every colour-managed viewer converts them again. Here: the source converted to sRGB, resized by the base, and the source's statement attached to the result.",
        references: ["B14"], bugClass: "colour-profile",
        triggers: { $0.sourceColours != nil && $0.sourceFormat?.colorModel == .rgb },
        make: { base in
            MutantResizer(name: "profile-kept-after-conversion(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                guard let profile = SRGBRendering.statedProfile(source) else { return try base.apply(operation, to: source) }
                return ProfileConversion.stating(try base.apply(operation, to: try ProfileConversion.rendered(source)), by: profile)
            }
        })
}

/// The colour arithmetic of the colour-statement mutants.
enum ProfileConversion {
    /// `image` rendered in sRGB through the colours it states (``SRGBRendering``), untagged.
    static func rendered(_ image: Image) throws(ResizerError) -> Image {
        do { return try SRGBRendering.render(image) } catch { throw .failed("cannot convert to sRGB: \(error.reason)") }
    }

    /// `image` with its colours stated by `profile` alone, the pixels unchanged.
    static func stating(_ image: Image, by profile: [UInt8]) -> Image {
        var tagged = image
        tagged.metadata = image.metadata.statingColours(by: profile)
        return tagged
    }
}
