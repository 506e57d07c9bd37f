import CommandLineOptions
import ImageLab

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
                lines += TerminalText.wrap(m.history, width: 96).map { "    " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }
}
