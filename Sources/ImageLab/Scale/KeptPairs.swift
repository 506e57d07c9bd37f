import ImageMetrics

/// A sink that keeps every judged pair in memory, in order: for the scale profile's few pairs,
/// whose results a selftest or a league tabulates after the run.
final class KeptPairs: PairSink, @unchecked Sendable {
    // Written only by `accept`, which a session calls serially; read after it.
    var results: [PairResult] = []
    func prepare(index: Int, result: PairResult, evidence: PairEvidence?) {}
    func accept(index: Int, result: PairResult, prepared: Void) { results.append(result) }
}
