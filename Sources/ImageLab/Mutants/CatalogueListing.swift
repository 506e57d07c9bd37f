extension MutantCatalogue {
    /// `imglab reproduce --list`: every topic with its mutants, each with its title, references,
    /// bug class and history (wrapped at 96 columns).
    public static var listing: String {
        var lines = ["\(topics.count) bug\(topics.count == 1 ? "" : "s") to reproduce, \(all.count) mutant\(all.count == 1 ? "" : "s") ('imglab reproduce BUG'):"]
        for (topic, mutants) in topics {
            lines.append("")
            lines.append(topic)
            for m in mutants {
                lines.append("  \(m.id) — \(m.title)  [\(m.references.joined(separator: ", ")); diagnosed as \(m.bugClass)]")
                lines += wrap(m.history, width: 96).map { "    " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Greedy word wrap: lines of at most `width` characters (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
