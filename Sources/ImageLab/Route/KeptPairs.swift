/// The sink that keeps every judged pair in memory, in manifest order, with its evidence when
/// the run kept it: for callers that tabulate the results after the run (a library call of
/// ``LabRunner/run(progress:)``, the scale profile's selftest and league, which measure a few
/// pairs). `imglab run` streams to the result files instead, so its memory does not grow with
/// the number of pairs.
final class KeptPairs: PairSink, @unchecked Sendable {
    // Written only by `accept`, which a run calls serially; read after it.
    var results: [PairResult] = []
    var evidence: [PairEvidence?] = []
    func prepare(index: Int, result: PairResult, evidence: PairEvidence?) -> PairEvidence? { evidence }
    func accept(index: Int, result: PairResult, prepared: PairEvidence?) {
        results.append(result)
        evidence.append(prepared)
    }
}
