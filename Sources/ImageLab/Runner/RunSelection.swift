import ImageCorpus
import Foundation

/// Which pairs a run takes: a filter pattern and a shard.
///
/// - Filter: a glob over the pair id `CASE/OPERATION` (`*` any run of characters, `?` one
///   character); a pattern without `*` or `?` matches ids that contain it. Several patterns
///   separated by `,` match when any does.
/// - Shard `I/N`: pair ids are hashed with FNV-1a (64-bit, over the UTF-8 bytes) and the pair
///   belongs to shard `hash mod N + 1`. The split depends only on the id, so it is the same on
///   every machine, and adding a case moves no other pair between shards.
public struct RunSelection: Sendable, Hashable {
    /// Filter patterns; empty takes every pair.
    public var patterns: [String]
    /// 1-based shard index and shard count (`1/1` takes everything).
    public var shardIndex: Int, shardCount: Int

    /// - Throws: ``RunError/badSelection(_:)`` when the shard is not `1 ≤ I ≤ N`.
    public init(filter: String? = nil, shardIndex: Int = 1, shardCount: Int = 1) throws(RunError) {
        guard shardCount >= 1, (1...shardCount).contains(shardIndex) else {
            throw .badSelection("shard \(shardIndex)/\(shardCount): need 1 ≤ I ≤ N")
        }
        patterns = (filter ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.shardIndex = shardIndex
        self.shardCount = shardCount
    }

    /// Parses `I/N`.
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        return (i, n)
    }

    /// Whether the pair is selected.
    public func selects(_ id: String) -> Bool {
        guard Self.shard(of: id, count: shardCount) == shardIndex else { return false }
        return patterns.isEmpty || patterns.contains { Self.matches($0, id) }
    }

    /// The 1-based shard of a pair id among `count` shards.
    public static func shard(of id: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(hash % UInt64(count)) + 1
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard pattern.contains("*") || pattern.contains("?") else { return text.contains(pattern) }
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        // Iterative glob with backtracking to the last star.
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) { pi += 1; ti += 1 }
            else if pi < p.count && p[pi] == "*" { star = pi; mark = ti; pi += 1 }
            else if star >= 0 { pi = star + 1; mark += 1; ti = mark }
            else { return false }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
