/// Escaping for text placed in HTML or XML (the diff report, the lab report, JUnit): the one
/// function every string from a file name, metadata or a metric passes through.
public enum HTMLText {
    /// Escapes `& < > " '` so the text is inert in element content and in quoted attributes, and
    /// drops control characters other than tab and newline (XML 1.0 forbids them).
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(ch)
            default:
                if ch.value < 0x20 || ch.value == 0xFFFE || ch.value == 0xFFFF { continue }
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
