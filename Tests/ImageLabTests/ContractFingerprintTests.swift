import Foundation
import Testing
@testable import ImageLab

/// The contract fingerprint, checked on resizers whose design is known: the built-in resizer
/// (Lanczos 3 in linear light, premultiplied, widened, renormalised edges, centre-aligned,
/// rounded, orientation applied, 16 bits kept, sizes half up) and the mutants of the catalogue,
/// each of which departs from it in the one way its catalogue entry says.
@Suite("Contract fingerprint")
struct ContractFingerprintTests {
    static func fingerprint(_ spec: String) throws -> ContractFingerprint {
        ContractFingerprint.infer(try ResizerChoice.adapter(spec))
    }

    @Test("the built-in resizer's fingerprint is its design, every finding correct or a design of its own")
    func builtin() throws {
        let f = try Self.fingerprint("builtin")
        let expected: [String: String] = ["kernel": "lanczos3", "light space": "linear light", "edges": "renormalize",
                                          "antialiasing": "the kernel widens when shrinking", "pixel centres": "at i + ½ (centre-aligned)",
                                          "output rounding": "rounded", "channel order": "RGB", "alpha": "premultiplied while resampling",
                                          "orientation": "applied", "16-bit samples": "kept", "size rounding": "half up",
                                          "precision": "no loss between passes", "animation": "every frame resized",
                                          "value range": "clamped", "calls": "every call answered"]
        for (aspect, value) in expected {
            #expect(f.finding(aspect)?.value == value, "\(aspect): \(f.finding(aspect).map { "\($0.value) (\($0.evidence))" } ?? "none")")
        }
        #expect(f.findings.allSatisfy { $0.kind == .correct || $0.aspect == "kernel" }, "\(f.findings.filter { $0.kind != .correct })")
        #expect(f.failures.isEmpty)
        #expect(f.inferredPolicy.kernel == .lanczos3 && f.inferredPolicy.lightSpace == .linear && f.inferredPolicy.rounding == .builtin)
    }

    /// Each mutant and what its catalogue entry says it does to the contract.
    static let departures: [(mutant: String, aspect: String, value: String)] = [
        ("srgb-averaging", "light space", "sRGB-encoded values (fine detail darkens)"),
        ("power-gamma", "light space", "linear light through a pure power 2.2 curve, not the sRGB curve"),
        // It point-samples only when shrinking; an enlargement is the base resizer's (SamplingMutants).
        ("nearest-neighbour", "kernel", "nearest to shrink, lanczos3 to enlarge"),
        ("fixed-support", "antialiasing", "none: a fixed support aliases"),
        ("wrap-edges", "edges", "wrap"),
        ("half-pixel", "pixel centres", "at i (shifted by half a pixel)"),
        ("half-pixel-x", "pixel centres", "at i across, i + ½ down (shifted across)"),
        ("truncation", "output rounding", "truncated (values low by up to a code)"),
        ("swap-rb", "channel order", "red and blue swapped"),
        ("straight-resampling", "alpha", "straight colour averaged (halo)"),
        ("alpha-dropped-hidden", "alpha", "dropped: flattened"),
        ("alpha-over-black", "alpha", "dropped: flattened"),
        ("orientation-ignored", "orientation", "ignored (the stored pixels squeezed into the displayed size)"),
        ("orientation-twice", "orientation", "applied twice (and squeezed)"),
        ("16bit-low-byte", "16-bit samples", "the picture is lost"),
        ("8bit-intermediate", "16-bit samples", "an 8-bit intermediate (256 levels in 16 bits)"),
        ("size-overshoot", "size rounding", "none of half up, to even, down or up"),
        ("overshoot-wrap", "value range", "overshoot wraps around (white next to an edge turns black, black turns white)"),
        ("context-from-source", "calls", "fails on 22 of 22 calibration images"),
        // Tags 2 and 4 mirrored the wrong way, 5 and 7 each drawn as the other (OrientationMutants).
        ("mirror-mixup", "orientation", "wrong for some tags: tag 2 drawn as tag 4 (resize), tag 4 drawn as tag 2 (resize), "
            + "tag 5 drawn as tag 7 (resize), tag 5 drawn as tag 7 (orient), tag 7 drawn as tag 5 (resize), tag 7 drawn as tag 5 (orient)"),
        ("transpose-transverse", "orientation", "wrong for some tags: tag 5 drawn as tag 7 (resize), tag 5 drawn as tag 7 (orient), "
            + "tag 7 drawn as tag 5 (resize), tag 7 drawn as tag 5 (orient)"),
        // Only its orient operation keeps the stored 12 × 8 canvas for the tags that swap width and height.
        ("transpose-no-swap", "orientation", "wrong for some tags: tag 5 sized wrong (orient: 12×8 returned, not the displayed 8×12), "
            + "tag 6 sized wrong (orient: 12×8 returned, not the displayed 8×12), tag 7 sized wrong (orient: 12×8 returned, not the "
            + "displayed 8×12), tag 8 sized wrong (orient: 12×8 returned, not the displayed 8×12)"),
    ]

    /// The mutants whose departure lies where no calibration image reaches: a pixel format or
    /// container the calibration does not write (their trigger in the catalogue), an operation it
    /// does not call, or a file name. Their fingerprint is the built-in design; a run names their
    /// defect on the corpus pairs they trigger on (the kill matrix, `imglab selftest`).
    static let outsideCalibration: [(mutant: String, reach: String)] = [
        ("argb-as-rgba", "32-bit BMP/TIFF sources with the alpha or skip byte first"),
        ("straight-as-premultiplied", "sources whose alpha is stored straight but read as associated (TIFF ExtraSamples)"),
        ("premultiplied-as-straight", "outputs written premultiplied (associated-alpha TIFF)"),
        ("premultiplied-8bit", "8-bit premultiplied intermediates: colour at α of a few codes, which the α-weighted fit does not see"),
        ("black-border", "the transparentBorder and rounded-corner operations"),
        ("crop-off-centre", "aspectFill crops"),
        ("retina-scale-ignored", "@2x sources (a scale in the file name)"),
        ("depth-shift", "1-, 2-, 4- and 5-bit sources"),
        ("palette-trns-ignored", "palette sources with tRNS transparency"),
        ("float-as-255", "floating-point TIFF sources"),
        ("adobe-cmyk-plain", "Adobe-inverted CMYK JPEGs"),
        ("profile-dropped", "sources tagged with an ICC profile other than sRGB's"),
        ("chunk-colours-ignored", "PNG sources whose gAMA, cHRM or cICP state colours other than sRGB's"),
        ("profile-applied-twice", "RGB sources that state colours other than sRGB's"),
        ("profile-kept-after-conversion", "RGB sources that state colours other than sRGB's"),
        ("embedded-thumbnail-returned", "JPEG sources whose EXIF block embeds a thumbnail"),
        ("embedded-thumbnail-unoriented", "JPEG sources whose EXIF block embeds a thumbnail, oriented other than 1"),
        ("heif-transform-ignored", "HEIF and AVIF sources with irot/imir"),
        ("heif-transform-twice", "HEIF and AVIF sources with irot/imir and an EXIF orientation"),
        ("heif-prem-ignored", "HEIF and AVIF sources with premultiplied alpha (a prem reference)"),
    ]

    @Test("every catalogued mutant is either shown by its fingerprint or listed with the inputs that reach it")
    func everyMutantClassified() {
        let shown = Set(Self.departures.map(\.mutant)), outside = Set(Self.outsideCalibration.map(\.mutant))
        #expect(shown.isDisjoint(with: outside))
        #expect(shown.union(outside) == Set(MutantCatalogue.all.map(\.id)), "unclassified: \(Set(MutantCatalogue.all.map(\.id)).subtracting(shown.union(outside)))")
    }

    @Test("a mutant whose departure no calibration image reaches shows the built-in design: Lanczos 3, linear light, premultiplied alpha, rounded output, orientation applied, clamped values",
          arguments: outsideCalibration.indices)
    func outsideCalibrationShowsTheBuiltinDesign(_ i: Int) throws {
        let f = try Self.fingerprint("mutant:" + Self.outsideCalibration[i].mutant)
        let expected = ["kernel": "lanczos3", "light space": "linear light", "alpha": "premultiplied while resampling",
                        "output rounding": "rounded", "orientation": "applied", "value range": "clamped", "size rounding": "half up"]
        for (aspect, value) in expected {
            #expect(f.finding(aspect)?.value == value, "\(Self.outsideCalibration[i].mutant) \(aspect): \(f.finding(aspect).map(\.value) ?? "none")")
        }
        #expect(!f.findings.contains { $0.kind == .defect }, "\(f.findings.filter { $0.kind == .defect })")
    }

    @Test("each mutant's fingerprint shows its departure from the built-in design", arguments: departures.indices)
    func mutant(_ i: Int) throws {
        let d = Self.departures[i]
        let f = try Self.fingerprint("mutant:" + d.mutant)
        let found = f.finding(d.aspect)
        #expect(found?.value == d.value, "\(d.mutant) \(d.aspect): \(found.map { "\($0.value) (\($0.evidence))" } ?? "none"); all: \(f.findings.map { "\($0.aspect)=\($0.value)" })")
    }
}

