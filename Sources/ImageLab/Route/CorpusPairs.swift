import Foundation
import ImageCorpus

/// The pairs of a corpus's manifest that a run judges: those its selection takes (filter and
/// shard, ``RunSelection``) among the judged cases (every case, or the input cases of a corpus made
/// from a folder of images, whose other cases serve only the canaries), in manifest order.
public struct CorpusPairs: PairSource {
    /// The corpus folder (holds `manifest.json`).
    public var corpus: String
    /// The filter and shard (``RunSelection``).
    public var selection: RunSelection
    /// The cases whose pairs are judged, or `nil` for every case.
    public var judgedCases: Set<String>?

    /// The pairs of `corpus` that `selection` takes among `judgedCases` (`nil`: every case).
    public init(corpus: String, selection: RunSelection, judgedCases: Set<String>? = nil) {
        self.corpus = corpus
        self.selection = selection
        self.judgedCases = judgedCases
    }

    /// Reads `CORPUS/manifest.json`.
    /// - Throws: ``RunError/corpus(_:)`` when it cannot be read or is not a manifest.
    public func manifest() throws(RunError) -> CorpusManifest { try LabRunner.manifest(corpus: corpus) }

    /// The selected pairs of the corpus's manifest, in manifest order.
    /// - Throws: ``RunError`` when the manifest cannot be read or the selection takes no pair.
    public func pairs() throws(RunError) -> [LabPair] { try pairs(of: try manifest()) }

    /// The selected pairs of `manifest`.
    /// - Throws: ``RunError/nothingSelected(_:)`` when the selection takes no pair.
    public func pairs(of manifest: CorpusManifest) throws(RunError) -> [LabPair] {
        let all = LabPair.all(in: manifest)
        let selected = all.filter { pair in selection.selects(pair.id) && (judgedCases?.contains(pair.record.id) ?? true) }
        guard !selected.isEmpty else {
            throw .nothingSelected("filter \(selection.patterns), shard \(selection.shardIndex)/\(selection.shardCount), \(all.count) pairs in the corpus")
        }
        return selected
    }
}
