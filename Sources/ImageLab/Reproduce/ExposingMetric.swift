import ImageCorpus
import Foundation
import ImageMetrics

/// The number that exposes a bug on one pair, as `imglab reproduce` shows it: the colour cast
/// (pink tint, channel swap), one metric of ``MetricCatalog``, the output size (retina scale,
/// size rounding, transposed orientation) or the resizer's own error text (a bitmap context
/// Quartz rejects).
///
/// Encoded in JSON as one string: `colour-cast`, `output-size`, `error`, or the metric's name.
public enum ExposingMetric: Sendable, Hashable, Codable {
    /// The mean CIELAB shift, actual − expected: Δa*, Δb*, their hue angle and direction.
    case colourCast
    /// One metric by ``MetricCatalog`` name, e.g. `alpha.max`.
    case metric(String)
    /// The displayed output size against the expected one.
    case outputSize
    /// The message of a resizer that threw.
    case errorText

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "colour-cast": self = .colourCast
        case "output-size": self = .outputSize
        case "error": self = .errorText
        default: self = .metric(text)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(key)
    }

    /// The JSON form: `colour-cast`, `output-size`, `error` or the metric's name.
    public var key: String {
        switch self {
        case .colourCast: return "colour-cast"
        case .metric(let name): return name
        case .outputSize: return "output-size"
        case .errorText: return "error"
        }
    }

    /// The label in the terminal and the report.
    public var label: String {
        switch self {
        case .colourCast: return "colour cast"
        case .metric(let name): return name
        case .outputSize: return "output size"
        case .errorText: return "error"
        }
    }
}

/// The value of an ``ExposingMetric`` on one output, compared with its oracle.
public struct ExposedValue: Sendable, Hashable, Codable {
    /// Which metric.
    public var metric: ExposingMetric
    /// The value, when the metric is a number (for ``ExposingMetric/colourCast``, the chroma
    /// shift √(Δa*² + Δb*²) in CIELAB units).
    public var value: Double?
    /// Its unit (``MetricCatalog``'s, `ΔE (CIELAB)` for the cast, `pixels` for a size).
    public var unit: String
    /// The value in words, e.g. `Δa* +14.2, Δb* −3.1: hue 348°, pink/magenta` or `48×32, expected 24×16`.
    public var text: String
    /// Whether the value shows a difference from the oracle at all (a cast of at least 0.5, a
    /// size that differs, an error, a metric away from its perfect value).
    public var shows: Bool
    /// For the colour cast: Δa* and Δb* (CIELAB units) and the hue angle atan2(Δb*, Δa*) in
    /// degrees, 0…360 (0 = +a*, red/magenta; 90 = +b*, yellow).
    public var cast: Cast?

    /// The colour cast's vector.
    public struct Cast: Sendable, Hashable, Codable {
        public var dL: Double, da: Double, db: Double
        /// Degrees, 0 ≤ hue < 360.
        public var hue: Double
        /// ``ColourCast/direction``, e.g. `pink/magenta, lighter`.
        public var direction: String
    }

    /// The hue angle of a cast vector, degrees in 0…360 (0 along +a*, 90 along +b*).
    public static func hueAngle(da: Double, db: Double) -> Double {
        var angle = atan2(db, da) * 180 / .pi
        if angle < 0 { angle += 360 }
        return angle >= 360 ? angle - 360 : angle
    }

    /// Measures `metric` on a judged pair: its result, and the comparison of its output with
    /// the oracle when there is one. `nil` when the pair has no such value (a metric missing
    /// from the comparison, a cast without a comparison).
    static func measure(_ metric: ExposingMetric, result: PairResult, comparison: Comparison?) -> ExposedValue? {
        switch metric {
        case .errorText:
            guard result.verdict == .error, let message = result.message else { return nil }
            return ExposedValue(metric: metric, value: nil, unit: "", text: message, shows: true, cast: nil)
        case .outputSize:
            guard let actual = result.actualSize, actual.count == 2, result.expectedSize.count == 2 else { return nil }
            let differs = actual != result.expectedSize
            let text = "\(actual[0])×\(actual[1])" + (differs ? ", expected \(result.expectedSize[0])×\(result.expectedSize[1])" : " as expected")
            return ExposedValue(metric: metric, value: Double(actual[0] * actual[1]), unit: "pixels", text: text, shows: differs, cast: nil)
        case .colourCast:
            guard let c = comparison?.colourCast else { return nil }
            let hue = hueAngle(da: c.da, db: c.db)
            let text = String(format: "Δa* %+.2f, Δb* %+.2f, ΔL* %+.2f: hue %.0f°, ", c.da, c.db, c.dL, hue) + c.direction
            return ExposedValue(metric: metric, value: c.chromaShift, unit: "ΔE (CIELAB)", text: text, shows: c.chromaShift >= 0.5,
                                cast: Cast(dL: c.dL, da: c.da, db: c.db, hue: hue, direction: c.direction))
        case .metric(let name):
            guard let v = comparison?.value(name) ?? result.metrics[name] else { return nil }
            let definition = MetricCatalog.definition(named: name)
            let perfect: Double
            switch definition?.direction {
            case .some(.similarity): perfect = name.hasPrefix("psnr") ? .infinity : (name == "ssimulacra2" ? 100 : 1)
            default: perfect = 0
            }
            let shows = perfect.isInfinite ? v.isFinite : abs(v - perfect) > 1e-9
            let text = (v.isInfinite ? "∞" : String(format: abs(v) >= 100 ? "%.1f" : (abs(v) >= 1 ? "%.3g" : "%.4f"), v))
                + (definition.map { $0.unit.isEmpty ? "" : " " + $0.unit } ?? "")
            return ExposedValue(metric: metric, value: v, unit: definition?.unit ?? "", text: text, shows: shows, cast: nil)
        }
    }
}
