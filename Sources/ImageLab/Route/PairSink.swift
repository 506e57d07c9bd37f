/// Where a streamed run (``LabRunner/run(progress:into:)``) puts each judged pair as soon as it
/// is judged, so that no result or evidence is kept for the whole run: memory does not grow
/// with the number of pairs.
///
/// ``prepare(index:result:evidence:)`` runs on the worker thread that judged the pair, in any
/// order, and turns the pair into what the sink keeps (e.g. its rendered report page: the
/// evidence, images included, is dropped right after). ``accept(index:result:prepared:)`` then
/// runs once per pair, serially and in manifest order (`index` 0, 1, 2, … of the judged pairs),
/// whatever the thread count: a sink that appends what it is given writes the same bytes on
/// every run.
public protocol PairSink: Sendable {
    /// What ``prepare(index:result:evidence:)`` makes of a pair.
    associatedtype Prepared: Sendable

    /// Makes what the sink keeps of a judged pair; any thread, any order.
    func prepare(index: Int, result: PairResult, evidence: PairEvidence?) -> Prepared

    /// Takes a pair, serially, in manifest order.
    /// - Throws: when it cannot keep it (e.g. a write failed); the run stops and rethrows it.
    func accept(index: Int, result: PairResult, prepared: Prepared) throws
}
