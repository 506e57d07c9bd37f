import ImageCorpus
import Foundation
/// Joins the results of sharded runs (`imglab run --shard I/N --json …`) into the results of
/// one run, as `imglab merge` does.
///
/// Checks that the parts belong together: same schema, resizer, profile, filter, gates and
/// shard count N, and that shards 1…N each appear exactly once (a missing shard would
/// silently drop pairs, so it is an error). Pairs are put back in manifest order (`order`
/// gives each pair id's index; ids it lacks go last, by id).
public enum ShardMerge {
    /// Why results cannot be merged.
    public enum MergeError: Error, Sendable, Hashable, CustomStringConvertible {
        case mismatch(String)
        case shards(String)
        /// A results file cannot be read.
        case unreadable(path: String)
        /// A file is not the results of an `imglab run`.
        case notResults(path: String, reason: String)
        public var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .notResults(let path, let reason): return "\(path) is not an imglab run results file: \(reason)"
            case .mismatch(let why): return "the results do not belong to one run: \(why)"
            case .shards(let why): return "incomplete shards: \(why)"
            }
        }
    }

    /// The results files of every shard of one run, merged: pairs in the manifest order of
    /// `corpus` (when it can be read), and the lax-bound warnings of the whole corpus recomputed
    /// when the run was unfiltered and used the corpus's gates.
    public static func merge(files: [String], corpus: String) throws(MergeError) -> RunResults {
        var parts: [RunResults] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
            do { parts.append(try RunResults.decode(data)) } catch { throw .notResults(path: path, reason: "\(error)") }
        }
        var order: [String: Int] = [:]
        var gates: GateBook?
        if let manifest = try? LabRunner.manifest(corpus: corpus) {
            for (i, p) in LabPair.all(in: manifest).enumerated() { order[p.id] = i }
            gates = try? GateBook.load(corpus: corpus)
        }
        var merged = try merge(parts, order: order)
        if let gates, merged.filter.isEmpty, gates.file.families.map(\.gate) == merged.gates.map(\.gate) {
            merged.warnings = LaxBound.find(gates: gates, results: merged.pairs).map(\.description)
        }
        return merged
    }

    /// The merged results; `shard` becomes `[1, 1]`.
    /// Warnings are dropped; the caller recomputes lax bounds over the merged pairs.
    public static func merge(_ parts: [RunResults], order: [String: Int]) throws(MergeError) -> RunResults {
        guard let first = parts.first else { throw .shards("no results given") }
        for p in parts {
            if p.schema != first.schema { throw .mismatch("schema \(p.schema) vs \(first.schema)") }
            if p.resizer != first.resizer { throw .mismatch("resizer \(p.resizer) vs \(first.resizer)") }
            if p.profile != first.profile { throw .mismatch("profile \(p.profile) vs \(first.profile)") }
            if p.filter != first.filter { throw .mismatch("filter \(p.filter) vs \(first.filter)") }
            if p.gates != first.gates { throw .mismatch("the gates differ") }
            if p.shard.count != 2 || p.shard[1] != first.shard[1] { throw .mismatch("shard \(p.shard) vs \(first.shard)") }
        }
        let n = first.shard[1]
        let indices = parts.map { $0.shard[0] }.sorted()
        guard indices == Array(1...n) else { throw .shards("have shards \(indices) of \(n), need each of 1…\(n) once") }
        var pairs = parts.flatMap(\.pairs)
        guard Set(pairs.map(\.pair)).count == pairs.count else { throw .mismatch("a pair appears in two shards") }
        pairs.sort { a, b in
            switch (order[a.pair], order[b.pair]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.pair < b.pair
            }
        }
        var merged = first
        merged.shard = [1, 1]
        merged.pairs = pairs
        merged.summary = RunResults.summarize(pairs)
        // Pairs the resizer's declared policies skipped, from every shard, in manifest order.
        let skipped = parts.flatMap { $0.skipped ?? [] }.sorted { (order[$0.pair] ?? .max, $0.pair) < (order[$1.pair] ?? .max, $1.pair) }
        merged.skipped = skipped.isEmpty ? nil : skipped
        merged.summary.skipped = skipped.isEmpty ? nil : skipped.count
        merged.metricDefinitions = parts.reduce(into: [:]) { $0.merge($1.metricDefinitions) { a, _ in a } }
        merged.warnings = []
        return merged
    }
}
