import ImageCorpus
/// One unit of work of a run: a corpus case and one of its operations, as the manifest
/// records them. Its ``id`` (`CASE/OPERATION`) names it in filters, shards, results, JUnit and
/// the report.
public struct LabPair: Sendable, Hashable {
    /// The case's manifest record.
    public var record: CaseRecord
    /// The operation's manifest entry (expected size and oracle files).
    public var entry: OperationEntry

    public init(record: CaseRecord, entry: OperationEntry) {
        self.record = record
        self.entry = entry
    }

    /// `png-rgba8-softAlpha-48x32/resize-aspectFit-24x24`.
    public var id: String { "\(record.id)/\(entry.id)" }

    /// Every (case, operation) pair of a manifest, in manifest order (cases, then operations).
    public static func all(in manifest: CorpusManifest) -> [LabPair] {
        manifest.cases.flatMap { record in record.operations.map { LabPair(record: record, entry: $0) } }
    }
}
