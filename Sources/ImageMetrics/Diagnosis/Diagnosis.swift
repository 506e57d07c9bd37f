import Foundation
import ImageCore

/// The diagnosis of a difference: the candidate explanation that accounts for it, with the
/// evidence, or none.
///
/// *Explained fraction* of a candidate: `1 − SSE(actual − prediction) / SSE(actual − expected)`,
/// the share of the squared difference (in the visible representation: straight colour
/// composited over black and over white, so colour under α = 0 does not count, 8-bit units)
/// that the candidate removes; when the sizes differ, the baseline is the actual image's own
/// variance about its mean (R²). Fitted candidates first choose their strength λ > 0 by least
/// squares. *Confidence* = `explained × separation`, with
/// `separation = min(1, max((explained − r) / 0.25, 1.5 · (explained − r) / (1 − r)))`, `r` the
/// explained fraction of the runner-up, the best candidate of another bug class: a candidate
/// that one of another class explains almost as well is not named with confidence, unless it
/// leaves at most a third of what that rival leaves unexplained. A candidate is named when
/// explained ≥ 0.5, confidence ≥ 0.5, and it explains more than the *content-free prediction*
/// (the actual image's mean visible vector everywhere, equal sizes only) unless its residual is
/// rounding: at most 1 code value RMS per visible value over the changed pixels. A wrong name
/// costs more than no name: when the actual has lost its content (a near-black or near-white
/// image), any candidate that darkens or brightens explains most of the difference, and only one
/// that predicts the actual to its rounding is named.
///
/// The candidates offered depend on what is known of the files (``DiagnosisContext``): CMYK
/// inversion only where CMYK can be involved (never on a grey expected image, and with the
/// source known only when it or the actual is CMYK), value-range errors only where a wider range
/// can have been misread, the alpha-edge halo only where the expected image is translucent.
///
/// Two exceptions, tried in this order only when no candidate explains half of the difference
/// and the sizes are equal, each naming a bug no pixel-wise prediction from the expected image
/// can cover:
/// - sRGB averaging of detail finer than a pixel (`light.srgb-averaging`), named by its
///   ``FineDetailToneSignature`` — flat areas of the expected image whose changed pixels moved
///   by the transfer curve (encoded e → toLinear(e), 188 → 128), carrying at least half of the
///   difference; its confidence is the tone curve's explained share there × share of the
///   difference / 0.5 (capped at 1);
/// - nearest-neighbour sampling where a filter was expected (`filter.nearest`), named by its
///   ``AliasingSignature`` — the actual image has lost at least 55 % of the mixing of the
///   expected image's mixed edge pixels; its confidence is then that lost share (capped at 1).
/// In both, `explained` stays the candidate's pixel-wise explained fraction, usually small.
///
/// *Counterfactuals* (``Counterfactual``): a caller that knows the source and the operation
/// (the lab, never `imglab diff`) may add predictions of the actual image under bug hypotheses,
/// made by an independent model of the bug (the lab's: the ideal re-computed with sRGB
/// averaging, point sampling, an opaque palette or straight alpha read as premultiplied, see
/// `ImageLab.CounterfactualOracle`). Each is scored as an exact candidate, after the catalogue,
/// under the same explained-fraction, separation and confidence rules; it names its class only
/// by beating every other candidate like any of them. One that carries a control (the same
/// prediction without the bug) enters the ranking only when it separates from that control as
/// the named candidate must from its rival (``Counterfactual``).
public struct Diagnosis: Sendable, Hashable, Codable {
    /// Definition version of the explained fraction, the confidence and the candidate list
    /// (2: the runner-up is the best candidate of another class; the aliasing signature; geometry candidates;
    /// 3: the aliasing signature reads mixed edge samples only; the fine-detail tone signature;
    /// 4: counterfactual candidates from the caller;
    /// 5: value-range candidates, the alpha-edge halo, candidates offered by the files' and the
    /// source's formats, a named candidate explains more than the content-free prediction;
    /// 6: global colour transforms and geometry fitted, ranked beside the catalogue; the ranking
    /// lists only candidates explaining a tenth; a close runner-up is stated).
    public static let version = "diagnosis/6"

    /// One candidate's result.
    public struct CandidateScore: Sendable, Hashable, Codable {
        /// Candidate identifier (`channels.bgr`, `orientation.6`, …).
        public var id: String
        /// Its bug class.
        public var bugClass: String
        /// What the candidate means, in words.
        public var name: String
        /// Share of the squared difference it explains (≤ 1; negative = makes it worse).
        public var explained: Double
        /// Fitted strength λ of a candidate that gives only the direction of the error (the light
        /// space or filter of a resize); `nil` for the others, exact or fitted beforehand (their
        /// parameters are in their name).
        public var strength: Double?
    }

    /// The named bug class (`diagnosis.class` in JSON), or `nil`.
    public var bugClass: String?
    /// The named candidate's identifier.
    public var candidate: String?
    /// Its description.
    public var name: String?
    /// DESIGN.md / anchor ids it reproduces.
    public var references: [String]
    /// 0…1, see the type's documentation; 0 when nothing is named.
    public var confidence: Double
    /// The named candidate's explained fraction.
    public var explained: Double?
    /// One sentence for the terminal and the report.
    public var summary: String
    /// The named candidate, then the best others, best first (at most 5), each explaining at
    /// least ``Diagnosis/listedShare`` of the difference: the catalogue's candidates, the
    /// counterfactuals and, where they were fitted, the global colour transforms and geometry.
    public var ranking: [CandidateScore]
    /// How many pixels the scores were computed on (a deterministic sample on large images).
    public var sampledPixels: Int
    /// Definition version.
    public var version: String = Diagnosis.version
    /// The fitted parameters of the named candidate, when it has any: `gain.red`, `offset.red`
    /// (8-bit codes), `black`, `white` (0…1), `saturation`, `gamma`, `dx`, `dy` (pixels),
    /// `scale.x`, `scale.y`; absent otherwise.
    public var parameters: [String: Double]? = nil
    /// When no class is named and the difference is plain noise (``NoiseSignature``): its
    /// standard deviation in 8-bit codes per value; absent otherwise.
    public var noise: Double? = nil
    /// The best candidate of another class when it explains nearly as much as the named one
    /// (within ``Diagnosis/closeRunnerUp``): its identifier; absent otherwise.
    public var runnerUp: String? = nil
    /// When no class is named and the actual image is a lossy re-encoding: what it is, e.g.
    /// `JPEG, quality about 75` (the quality from the file's quantisation tables, ``JPEGQuality``)
    /// or `JPEG-like, quality about 60` (from its pixels' block grid, ``BlockGridSignature``).
    /// Re-encoding is never a bug class; absent otherwise.
    public var reEncoding: String? = nil

    enum CodingKeys: String, CodingKey {
        case bugClass = "class", candidate, name, references, confidence, explained, summary, ranking, sampledPixels, version, parameters,
             reEncoding, runnerUp, noise
    }

    /// What the summary of an unexplained difference ends with, until
    /// ``noteUnexplained(expected:actual:expectedMetadata:actualMetadata:)`` says which it is.
    static let unexplainedGuess = ": it may be a change of content, noise or lossy re-encoding"

    /// Smallest share of the difference a candidate must explain to be listed in ``ranking``.
    public static let listedShare = 0.1
    /// How close (explained fractions) a runner-up of another class must come to the named
    /// candidate to be stated beside it.
    public static let closeRunnerUp = 0.2

    /// The ranking as listed: `named` first when there is one, then the others explaining at
    /// least ``listedShare``, best first, at most five.
    static func listed(_ scores: [CandidateScore], named: CandidateScore? = nil) -> [CandidateScore] {
        let others = scores.filter { $0.id != named?.id && $0.explained >= listedShare }
            .enumerated().sorted { $0.element.explained != $1.element.explained ? $0.element.explained > $1.element.explained : $0.offset < $1.offset }
            .map(\.element)
        return Array(((named.map { [$0] } ?? []) + others).prefix(5))
    }

    /// States the runner-up `rival` (the best candidate of another class) when it comes within
    /// ``closeRunnerUp`` of the named candidate's explained fraction.
    mutating func noteRunnerUp(_ rival: CandidateScore?) {
        guard bugClass != nil, let rival, let explained, rival.explained >= explained - Self.closeRunnerUp, rival.explained > 0 else { return }
        runnerUp = rival.id
        summary += "; runner-up: \(rival.id) (\(rival.bugClass)) explains " + String(format: "%.0f%%", rival.explained * 100)
    }

    /// States what an unnamed difference is when it is not a bug: the actual file is a JPEG (and
    /// the expected one not a JPEG of that quality), or its pixels carry a JPEG block grid the
    /// expected image lacks (a JPEG saved again losslessly, ``BlockGridSignature``) — the loss of
    /// lossy re-encoding, at the quality found; else the difference is plain noise
    /// (``NoiseSignature``). Each is stated first in the summary; none names a class.
    mutating func noteUnexplained(expected: ValueImage, actual: ValueImage, expectedMetadata: ImageMetadata, actualMetadata: ImageMetadata) {
        guard bugClass == nil else { return }
        let said = summary
        summary = summary.replacingOccurrences(of: Self.unexplainedGuess, with: "")
        defer { if reEncoding == nil && noise == nil { summary = said } }
        if let quality = actualMetadata.properties["jpeg.quality"] {
            guard expectedMetadata.properties["jpeg.quality"] != quality else { return }
            let number = quality.prefix { $0.isNumber }
            reEncoding = "JPEG, quality about \(number)"
            // The chroma subsampling the file declares is part of the loss (4:2:0 halves colour detail both ways).
            let chroma = actualMetadata.properties["jpeg.subsampling"].map { ", chroma \($0)" } ?? ""
            summary = "re-encoded (JPEG, quality about \(number)\(chroma), from its quantisation tables): the loss of lossy re-encoding, "
                + "not a bug class; " + summary
            return
        }
        guard expected.width == actual.width, expected.height == actual.height, expected.channels == actual.channels else { return }
        if let quality = BlockGridSignature(actual).quality, BlockGridSignature(expected).quality != quality {
            reEncoding = "JPEG-like, quality about \(quality)"
            summary = "re-encoded (JPEG-like, quality about \(quality), from the quantisation steps of its 8×8 block grid): the loss of "
                + "lossy re-encoding, not a bug class; " + summary
            return
        }
        let signature = NoiseSignature(expected: expected, actual: actual)
        guard signature.isNoise else { return }
        noise = signature.sigma
        summary = String(format: "noise (σ %.1f codes, uncorrelated between neighbours, as strong on flat areas as on edges): not a "
                         + "bug class; ", signature.sigma) + summary
    }

    /// One line: `class (confidence 0.98): summary` when a class is named, else the summary.
    public var sentence: String {
        bugClass.map { "\($0) (confidence \(String(format: "%.2f", confidence))): \(summary)" } ?? summary
    }

    /// A diagnosis that names nothing.
    static func none(_ summary: String, ranking: [CandidateScore] = [], sampled: Int = 0) -> Diagnosis {
        Diagnosis(bugClass: nil, candidate: nil, name: nil, references: [], confidence: 0, explained: nil,
                  summary: summary, ranking: ranking, sampledPixels: sampled)
    }
}
