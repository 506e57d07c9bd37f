import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// What the report page of a pair shows: the judged frame's comparison and its two sides.
public struct PairEvidence: Sendable {
    public var comparison: Comparison
    /// The oracle frame.
    public var expected: ComparedImage
    /// The resizer's output frame.
    public var actual: ComparedImage
}

/// Judges one pair: decode the source, apply the resizer, compare every frame with its oracle
/// (``Comparison``, compare-by-value), evaluate the family's gate, and diagnose a failure.
/// Pure apart from reading the corpus files.
struct PairJudge: Sendable {
    var corpus: URL
    var gates: GateBook
    /// Whether to keep what the report page needs (the judged frame's comparison and images).
    var keepEvidence: Bool
    /// The blessed goldens, when the run checks for regressions.
    var goldens: GoldenStore.Index? = nil

    func judge(_ pair: LabPair, with resizer: any Resizer) -> (result: PairResult, evidence: PairEvidence?) {
        let record = pair.record, entry = pair.entry
        var result = PairResult(pair: pair.id, caseID: record.id, operation: entry.id, encoding: record.encoding,
                                container: record.container, orientation: record.orientation, family: nil, verdict: .error,
                                gate: nil, frames: entry.oracle.count, expectedSize: [entry.outputWidth, entry.outputHeight],
                                actualSize: nil, metrics: [:], diagnosis: nil, message: nil)
        func erred(_ message: String) -> (PairResult, PairEvidence?) {
            result.verdict = .error
            result.message = message
            return (result, nil)
        }
        guard let familyIndex = gates.family(of: pair) else { return erred("no gate family takes this pair (see \(GateBook.fileName))") }
        let family = gates.file.families[familyIndex], gate = gates.gates[familyIndex]
        result.family = family.name

        var source: Image
        do { source = try ImageCodecs.decode(read(record.file)) } catch { return erred("cannot decode the source \(record.file): \(error)") }
        // No container here records the points-to-pixels scale; the case declares it (`@2x`).
        if record.scale != 1 { source.metadata.scale = Double(record.scale) }
        guard let operation = entry.operation.operation else { return erred("the manifest's operation \(entry.id) is incomplete") }
        let output: Image
        do { output = try resizer.apply(operation, to: source) } catch { return erred("resizer \(resizer.name): \(error)") }
        let displayed = output.displaySize
        result.actualSize = [displayed.width, displayed.height]
        if output.frameCount != entry.oracle.count {
            result.verdict = .fail
            result.message = "\(output.frameCount) frame(s), expected \(entry.oracle.count)"
        }

        var worst: [String: Double] = [:]
        var judged: (Comparison, ComparedImage, ComparedImage, GateResult?)?
        var firstFailureSeen = false
        let frames = min(output.frameCount, entry.oracle.count)
        for k in 0..<frames {
            let expectedImage: Image
            do { expectedImage = try ImageCodecs.decode(read(entry.oracle[k])) } catch { return erred("cannot decode the oracle \(entry.oracle[k]): \(error)") }
            let actualBitmap = output.animation.map { $0.frames[k].canvas } ?? output.bitmap
            let expected = ComparedImage(image: expectedImage, name: "oracle: \(entry.oracle[k])", container: .png)
            let actual = ComparedImage(image: Image(bitmap: actualBitmap, orientation: output.orientation, metadata: output.metadata),
                                       name: "\(resizer.name): \(pair.id)" + (frames > 1 ? " frame \(k)" : ""))
            var comparison = Comparison(expected: expected, actual: actual, options: ComparisonOptions(diagnose: false))
            for name in PairResult.headlineMetrics + gate.metricNames {
                guard let v = comparison.value(name) else { continue }
                let similar = MetricCatalog.definition(named: name)?.direction == .similarity
                if let w = worst[name] { worst[name] = similar ? min(w, v) : max(w, v) } else { worst[name] = v }
            }
            var gateResult: GateResult?
            do {
                gateResult = try gate.evaluate { comparison.value($0) }
            } catch {
                guard !comparison.sameSize else { return erred("family '\(family.name)': \(error)") }
                result.verdict = .fail
                result.message = "size \(comparison.actual.displayWidth)×\(comparison.actual.displayHeight), expected \(comparison.expected.displayWidth)×\(comparison.expected.displayHeight)"
            }
            // Every frame is measured (the metrics are the worst over frames); the first failing
            // frame, else frame 0, is the one judged, diagnosed and shown.
            let failed = gateResult.map { !$0.passed } ?? true
            if failed && !firstFailureSeen {
                firstFailureSeen = true
                comparison = Comparison(expected: expected, actual: actual, options: ComparisonOptions(diagnose: true))
                judged = (comparison, expected, actual, gateResult)
                result.verdict = .fail
                if result.message == nil, let g = gateResult {
                    result.message = (frames > 1 ? "frame \(k): " : "") + g.clauses.filter { !$0.passed }.map(\.text).joined(separator: "; ")
                }
            } else if judged == nil {
                judged = (comparison, expected, actual, gateResult)
            }
        }
        if result.verdict == .error && result.message == nil { result.verdict = .pass }
        result.metrics = worst
        guard let (comparison, expected, actual, gateResult) = judged else { return (result, nil) }
        result.gate = gateResult
        if let goldens {
            result.golden = Self.regression(actual.image, distance: comparison.value("visible.mean"), goldens: goldens.goldens[pair.id] ?? [])
        }
        if result.verdict == .fail {
            let d = comparison.diagnosis
            result.diagnosis = .init(bugClass: d.bugClass, name: d.name, confidence: d.confidence, summary: d.summary)
        }
        return (result, keepEvidence ? PairEvidence(comparison: comparison, expected: expected, actual: actual) : nil)
    }

    /// Classifies the judged frame against the pair's goldens: an equal pixel hash is a match;
    /// otherwise the output is closer to the oracle than the nearest golden when its
    /// `visible.mean` (8-bit code values) is smaller than every golden's.
    static func regression(_ image: Image, distance: Double?, goldens: [GoldenStore.Golden]) -> String {
        guard !goldens.isEmpty else { return "no golden" }
        guard let hash = try? GoldenStore.pixelHash(image) else { return "changed (the output cannot be hashed)" }
        if let g = goldens.first(where: { $0.hash == hash }) { return "matches golden \(g.hash)" }
        let best = goldens.compactMap { $0.oracleDistance["visible.mean"] }.min()
        guard let best, let distance else { return "changed (no oracle distance to compare)" }
        let numbers = String(format: "visible.mean %.4g vs the best golden's %.4g", distance, best)
        return distance < best ? "changed, closer to the oracle (\(numbers))" : "changed, further from the oracle (\(numbers))"
    }

    private func read(_ path: String) throws -> [UInt8] {
        let url = corpus.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return [UInt8](data)
    }
}
