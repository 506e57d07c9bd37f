import ImageCore

/// Candidates for samples converted between value ranges without the right scale (class
/// `value-range`): every colour value of the expected image multiplied by the ratio of the two
/// ranges, clipped to 0…1. Alpha is left alone (tools that convert the range of colour often
/// keep alpha apart, and an alpha that changes with the colour is still predicted where it is
/// 0 or 1).
///
/// - 16-bit samples clipped to 8 bits instead of scaled (`min(v, 255)` of a 16-bit code v,
///   e.g. OpenCV's `convertScaleAbs` or a saturating cast): a value e (0…1) becomes
///   `min(1, 257·e)`, white above the lowest codes.
/// - Float samples in 0…255 read as 0…1 (the reverse of the next): `min(1, 255·e)`.
/// - Float samples in 0…1 read as 0…255 (e.g. Pillow's float → 8-bit conversion): `e / 255`,
///   near black.
/// - 8-bit codes stored in 16-bit samples without scaling (the code in the low byte, `v` instead
///   of `v·257`): `e / 257`, near black.
/// - Float samples of encoded values taken as linear light (scRGB, as libvips reads a float RGB
///   TIFF) and encoded again for an integer output: `fromLinear(e)`, every mid-tone lighter.
///
/// Which are offered follows the files and, in the lab, the source (``DiagnosisContext``): the
/// 16-bit clip when 16-bit samples can have been narrowed to the actual's 8 bits
/// (``DiagnosisContext/narrowedFromSixteen``) and no float is involved; the float forms when a
/// float image is involved; the 8-bit-in-16 form when the actual file has 16-bit samples. The ×257
/// and ×255 forms differ by less than a code on 8-bit images, as do ÷255 and ÷257, so the files
/// tell them apart, not the pixels. Without a source (`imglab diff`), ÷ 255 is offered whatever
/// the files (two 8-bit outputs of a float source show no trace of it), but never with a 16-bit
/// actual, where ÷ 257 is.
enum ValueRangeCandidates {
    static let all: [Candidate] = [clippedSixteen, floatTimes255, floatOver255, eightInSixteen, floatEncodedTwice]

    /// The candidate that multiplies every colour value by `gain`, clipped to 0…1.
    static func scaled(id: String, name: String, gain: Double, applies: @escaping @Sendable (DiagnosisContext) -> Bool) -> Candidate {
        Candidate(id: id, bugClass: "value-range", name: name, references: ["D4"], applies: applies) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(min(v.x * gain, 1), min(v.y * gain, 1), min(v.z * gain, 1), v.w)
        }
    }

    static let clippedSixteen = scaled(
        id: "range.16-bit-clipped-to-8", name: "16-bit samples clipped to 8 bits instead of scaled (min(v, 255)): everything above the lowest codes turns white",
        gain: 257, applies: { $0.narrowedFromSixteen && !$0.floatSamples })

    static let floatTimes255 = scaled(
        id: "range.float-0-255-read-as-0-1", name: "float samples in 0…255 read as 0…1: every value × 255, clipped (white above the lowest codes)",
        gain: 255, applies: { $0.floatSamples })

    static let floatOver255 = scaled(
        id: "range.float-0-1-read-as-0-255", name: "float samples in 0…1 read as 0…255: every value ÷ 255 (near black)",
        gain: 1.0 / 255, applies: { c in
            c.actualFormat.bitsPerComponent >= 8 && !(c.actualFormat.bitsPerComponent == 16) && (c.source == nil || c.floatSamples)
        })

    static let eightInSixteen = scaled(
        id: "range.8-bit-in-16-bit-unscaled", name: "8-bit codes stored in 16-bit samples without scaling (v instead of v·257): every value ÷ 257 (near black)",
        gain: 1.0 / 257, applies: { $0.actualFormat.bitsPerComponent == 16 })

    static let floatEncodedTwice = Candidate(
        id: "range.float-read-as-linear-light", bugClass: "value-range",
        name: "float samples of encoded values read as linear light (scRGB) and sRGB-encoded again: every mid-tone lighter",
        references: ["D4"], applies: { $0.floatSamples }) { (n: Neighbourhood) in
        let v = n.centre
        return SIMD4(SRGBTransfer.fromLinear(min(max(v.x, 0), 1)), SRGBTransfer.fromLinear(min(max(v.y, 0), 1)),
                     SRGBTransfer.fromLinear(min(max(v.z, 0), 1)), v.w)
    }
}
