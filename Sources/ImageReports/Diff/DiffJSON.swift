import ImageCore
import Foundation
import ImageMetrics

/// The `imglab diff --json` object: the comparison's fields (every metric with its unit and
/// definition version, the alpha views, the metadata differences, `diagnosis.class`) plus
/// `gate` (the gate's outcome, when evaluated), `gateError` (a gate metric with no value) and
/// `canaries` (`passed` and `failures`, when they ran), `colour` (the colour stage: `mode`, each
/// side's profile in words, `profilesDiffer`, the sides `converted` to sRGB, `warnings`) and
/// `imglab` (version and commit). Keys sorted, pretty-printed; infinities
/// and NaN as the strings `inf`, `-inf`, `nan`.
public enum DiffJSON {
    /// The JSON text of a judgement (`{}` only if Foundation cannot encode it).
    public static func text(_ judgement: Judgement) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(judgement.comparison),
              var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return "{}" }
        if let gate = judgement.gate, let g = try? encoder.encode(gate), let o = try? JSONSerialization.jsonObject(with: g) { object["gate"] = o }
        if case .gateUnusable(let error) = judgement.verdict { object["gateError"] = error.description }
        if let resized = judgement.resized { object["resized"] = resized }
        if let a = judgement.alignment {
            func region(_ r: IgnoredPixels.Region) -> [Int] { [r.x, r.y, r.width, r.height] }
            var aligned: [String: Any] = ["kind": a.kind.rawValue, "dx": a.dx, "dy": a.dy, "scale": a.scale, "name": a.name,
                                          "meanError": a.meanError, "expectedRegion": region(a.expectedRegion),
                                          "actualRegion": region(a.actualRegion)]
            if let o = judgement.overlap {
                aligned["overlapMetrics"] = o.metrics.compactMapValues(\.value).mapValues { $0.isFinite ? $0 as Any : "\($0)" as Any }
            }
            object["alignment"] = aligned
        }
        object["imglab"] = ImglabBuild.identity
        if let colour = judgement.colour {
            object["colour"] = ["mode": colour.mode.rawValue, "expected": colour.expected, "actual": colour.actual,
                                "profilesDiffer": colour.profilesDiffer, "converted": colour.converted, "warnings": colour.warnings,
                                "summary": colour.summary] as [String: Any]
        }
        if let canaries = judgement.canaryFailures {
            object["canaries"] = ["passed": canaries.isEmpty, "failures": canaries.map(\.description)] as [String: Any]
        }
        guard let out = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: out, as: UTF8.self)
    }
}
