import ImageCorpus
import Foundation
import ImageMetrics

/// The lax-bound warning (the libjxl rule): a bound whose worst observed value stays below
/// 75 % of it can be tightened, since a regression could grow a third before the gate noticed.
///
/// Headroom is measured from the metric's perfect value: 0 for distances, 1 for the SSIM
/// family, 100 for SSIMULACRA 2 (PSNR and signed metrics are skipped: no finite perfect
/// value, or no direction). For an upper bound `m ≤ b` on a distance the ratio is
/// `worst / b`; for a lower bound `m ≥ b` on a similarity it is `(perfect − worst) / (perfect − b)`.
/// A ratio below ``threshold`` is a warning. Families whose bounds are derived by arithmetic
/// (``GateBook/Family/derivedBounds``) are exact tolerances and are not checked.
public struct LaxBound: Sendable, Hashable, CustomStringConvertible {
    /// 0.75: the fraction of a bound the worst observed value must reach.
    public static let threshold = 0.75

    public var family: String
    public var metric: String
    public var bound: Double
    /// The worst value observed over the family's judged pairs.
    public var worst: Double
    /// The worst value's share of the bound's headroom.
    public var ratio: Double

    public var description: String {
        "lax bound in family '\(family)': \(metric) bound \(fmt(bound)), worst observed \(fmt(worst)) (\(Int((ratio * 100).rounded())) % of the bound's headroom, below \(Int(Self.threshold * 100)) %); tighten it"
    }

    private func fmt(_ v: Double) -> String { String(format: "%.4g", v) }

    /// The perfect value of a metric, when it has a finite one and a direction.
    static func perfect(_ metric: String) -> Double? {
        guard let d = MetricCatalog.definition(named: metric) else { return nil }
        switch d.direction {
        case .distance: return 0
        case .signed, .property: return nil
        case .similarity:
            if metric.hasPrefix("ssim") || metric == "msssim" { return 1 }
            if metric == "ssimulacra2" { return 100 }
            return nil
        }
    }

    /// The bounds of a gate: `(metric, bound)` pairs from every comparison between a metric
    /// and a number that bounds it away from its perfect value.
    static func bounds(of gate: GateExpression) -> [(metric: String, bound: Double)] {
        var out: [(String, Double)] = []
        func walk(_ n: GateExpression.Node) {
            switch n {
            case .and(let a, let b), .or(let a, let b): walk(a); walk(b)
            case .not(let a): walk(a)
            case .chain(let operands, _):
                for i in operands.indices.dropLast() {
                    switch (operands[i], operands[i + 1]) {
                    case (.metric(let m), .number(let b)), (.number(let b), .metric(let m)):
                        if let p = perfect(m), b != p, b.isFinite { out.append((m, b)) }
                    default: break
                    }
                }
            }
        }
        walk(gate.root)
        return out
    }

    /// The lax bounds of each family over the results that family judged (pass or fail).
    public static func find(gates: GateBook, results: [PairResult]) -> [LaxBound] {
        var out: [LaxBound] = []
        for (family, gate) in zip(gates.file.families, gates.gates) {
            let judged = results.filter { $0.family == family.name && $0.verdict != .error }
            out += find(family: family, gate: gate, judged: judged.count) { metric, perfect in
                let values = judged.compactMap { $0.metrics[metric] }
                return (values.count, values.max { abs($0 - perfect) < abs($1 - perfect) } ?? perfect)
            }
        }
        return out
    }

    /// The lax bounds of one family's `gate` over the `judged` pairs it took (none for a family
    /// with derived bounds, or one that judged nothing): `seen(metric, perfect)` gives how many of
    /// those pairs have a value of the metric and the worst of them. A metric some pair lacks is
    /// not checked.
    static func find(family: GateBook.Family, gate: GateExpression, judged: Int,
                     seen: (String, Double) -> (count: Int, worst: Double)?) -> [LaxBound] {
        guard family.derivedBounds != true, judged > 0 else { return [] }
        var out: [LaxBound] = []
        for (metric, bound) in bounds(of: gate) {
            guard let p = perfect(metric), let values = seen(metric, p), values.count == judged else { continue }
            let ratio = abs(values.worst - p) / abs(bound - p)
            if ratio < threshold {
                out.append(LaxBound(family: family.name, metric: metric, bound: bound, worst: values.worst, ratio: ratio))
            }
        }
        return out
    }
}
