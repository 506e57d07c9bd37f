import Foundation

/// The command-line tool: its verbs and the overview `imglab` prints without one.
enum Imglab {
    /// The verbs imglab knows, in the order the overview lists them.
    static var commands: [any Command.Type] {
        [InfoCommand.self, DecodeCommand.self, ResizeCommand.self, ThumbnailCommand.self, DiffCommand.self, CorpusCommand.self, RunCommand.self,
         SelftestCommand.self, ReproduceCommand.self, LeagueCommand.self, MergeCommand.self, BlessCommand.self, FuzzCommand.self]
    }

    static var overview: String {
        """
        imglab — a format lab and regression harness for image resizers, and the resizer it gates.

        USAGE: imglab <command> [options]

        COMMANDS:
        \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run 'imglab <command> --help' for a command's options and examples.
        """
    }
}

extension Imglab {
    /// `, did you mean 'run'?` when a known verb is within two edits of `typed`, else empty.
    static func suggestion(for typed: String) -> String {
        guard let near = EditDistance.nearest(to: typed, among: commands.map { $0.name }) else { return "" }
        return ", did you mean '\(near)'?"
    }
}

/// The Levenshtein distance (insertions, deletions, substitutions) between two short words.
enum EditDistance {
    /// The word of `words` fewest edits from `typed`, when it is within two (ties: the first in sorted order).
    static func nearest(to typed: String, among words: [String]) -> String? {
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
