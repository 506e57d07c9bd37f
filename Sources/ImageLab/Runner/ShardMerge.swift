import ImageCorpus
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
        public var description: String {
            switch self {
            case .mismatch(let why): return "the results do not belong to one run: \(why)"
            case .shards(let why): return "incomplete shards: \(why)"
            }
        }
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
