import Foundation
import ImageCorpus

/// `imglab selftest --profile scale`: the built-in over the scale profile, then each
/// ``PerformanceMutant`` (the built-in made wasteful, right pixels and wrong cost) over the same
/// sources. The built-in must pass; each mutant must fail at least one pair, named by the cost
/// diagnosis of its class (``CostDiagnosis``).
public struct ScaleSelftest: Sendable {
    /// The corpus whose gates judge (families and cost gate).
    public var reference: String
    /// The imglab executable (the built-in's command line, and the floor).
    public var imglab: String
    /// `imglab-measure`.
    public var meter: String
    /// Filter patterns, comma-separated; `nil` takes every pair.
    public var filter: String?
    public var threads: Int

    public init(reference: String, imglab: String = LabExecutables.imglab, meter: String = LabExecutables.meter,
                filter: String? = nil,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.reference = reference
        self.imglab = imglab
        self.meter = meter
        self.filter = filter
        self.threads = threads
    }

    /// One row of the kill matrix: a resizer, its pairs and what it was named.
    public struct Row: Sendable, Hashable, Codable {
        /// `builtin` or the mutant's id.
        public var resizer: String
        /// The cost bug class the mutant must be named by (`nil` for the built-in).
        public var expectedClass: String?
        public var pairs: Int
        public var failed: Int
        /// Failed pairs whose diagnosis is ``expectedClass``.
        public var named: Int
        /// One failing pair with its diagnosis, as evidence.
        public var example: String?
        /// For the built-in: every pair passed; for a mutant: a pair failed and was named.
        public var ok: Bool
    }

    /// The bug class each mutant's failures must be named by.
    public static func expectedClass(of mutant: PerformanceMutant) -> String {
        switch mutant {
        case .noShrinkOnLoad: return "no-dct-scaling"
        case .wholeImage: return "memory-whole-image"
        case .perPixelAllocation: return "cpu-per-pixel"
        case .fullSizeFloat: return "memory-image-copies"
        }
    }

    /// Runs the built-in, then each mutant, over one ``ScalePlan``: the sources, oracles and
    /// floors are made once (the built-in's run measures the floors).
    /// - Throws: ``RunError`` as ``ScaleSession/run(status:progress:into:)``.
    public func run(status: @escaping @Sendable (String) -> Void = { _ in }) throws(RunError) -> [Row] {
        let builtin: CommandResizer
        do { builtin = try ScaleSession.builtin(imglab: imglab) } catch { throw .gates("\(error)") }
        let plan = try ScaleSession(reference: reference, resizer: builtin, imglab: imglab, meter: meter, filter: filter, threads: threads)
            .prepare(status: status)
        defer { plan.discard() }
        var rows: [Row] = []
        let runs: [PerformanceMutant?] = [nil] + PerformanceMutant.allCases
        for mutant in runs {
            let resizer: CommandResizer
            do { resizer = try ScaleSession.builtin(imglab: imglab, mutant: mutant) } catch { throw .gates("\(error)") }
            let session = ScaleSession(reference: reference, resizer: resizer, imglab: imglab, meter: meter, filter: filter, threads: threads)
            let kept = KeptPairs()
            _ = try session.measure(plan, into: kept)
            let results = kept.results
            let failed = results.filter { $0.verdict != .pass }
            let expected = mutant.map(Self.expectedClass)
            let named = failed.filter { expected != nil && $0.diagnosis?.bugClass == expected }
            let example = (named.first ?? failed.first).map { "\($0.pair): " + ($0.diagnosis?.summary ?? $0.message ?? "") }
            let row = Row(resizer: mutant?.id ?? "builtin", expectedClass: expected, pairs: results.count, failed: failed.count,
                          named: named.count, example: example, ok: mutant == nil ? failed.isEmpty : !named.isEmpty)
            rows.append(row)
            status("\(row.resizer): \(row.failed) of \(row.pairs) pairs fail" + (expected.map { ", \(row.named) named \($0)" } ?? ""))
        }
        return rows
    }

    /// The kill matrix as a Markdown table.
    public static func table(_ rows: [Row]) -> String {
        var lines = ["| resizer | must be named | pairs failed | named so | verdict |", "|---|---|---:|---:|---|"]
        for r in rows {
            let verdict = r.expectedClass == nil ? (r.ok ? "passes" : "FAILS") : (r.ok ? "killed" : "SURVIVES")
            lines.append("| \(r.resizer) | \(r.expectedClass ?? "—") | \(r.failed) / \(r.pairs) | \(r.expectedClass == nil ? "—" : String(r.named)) | \(verdict) |")
        }
        return lines.joined(separator: "\n")
    }
}
