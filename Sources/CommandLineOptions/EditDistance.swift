/// The Levenshtein distance (insertions, deletions, substitutions) between two short words.
public enum EditDistance {
    /// The word of `words` fewest edits from `typed`, when it is within two (ties: the first in sorted order).
    public static func nearest(to typed: String, among words: [String]) -> String? {
        var best: (word: String, distance: Int)?
        for word in words.sorted() {
            let d = between(word, typed)
            if d < (best?.distance ?? 3) { best = (word, d) }
        }
        return best?.word
    }

    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substituted = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
                previous = row[j]
                row[j] = min(substituted, row[j] + 1, row[j - 1] + 1)
            }
        }
        return row[b.count]
    }
}
