/// Where a command's pairs come from, the first stop of the pair route (source → judge stages →
/// sinks). Each source yields its pairs in the order their results are written:
///
/// - ``CorpusPairs``: the pairs of a corpus's manifest, selected by filter and shard (`imglab
///   run`, `merge`'s shards, `run --inputs` over the corpus made from a folder by ``InputCorpus``);
/// - ``ScalePlan``: the scale profile's pairs over streamed sources (`run --profile scale`);
/// - `FolderPairs` (ImageReports): the files of two folders, paired by key (`diff DIR DIR`);
/// - two files (`diff A B`) and one `expectImage` call are a single pair each, given whole.
///
/// The judge stages then take each pair (``PairJudge``, ``ScalePairJudge``, the file pair's
/// ``ImageMetrics/PairDecoding`` and ``ImageMetrics/FileComparison``), and the sinks
/// (``PairSink``) take the verdicts.
public protocol PairSource: Sendable {
    /// What one pair is for this source.
    associatedtype Pair: Sendable
    /// Why the source cannot yield its pairs (a corpus that cannot be read, a selection that
    /// takes nothing, a folder that cannot be listed).
    associatedtype Failure: Error
    /// The pairs, in the order their results are written.
    func pairs() throws(Failure) -> [Pair]
}
