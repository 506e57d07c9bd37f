/// Plain text for the terminal (`--help` pages, listings).
public enum TerminalText {
    /// Greedy word wrap of `text` into lines of at most `width` characters (a longer word stands alone).
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
