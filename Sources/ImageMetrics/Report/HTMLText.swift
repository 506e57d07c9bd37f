/// Escaping for text placed in HTML: the one function every string from a file name,
/// metadata or a metric passes through before it reaches the report.
enum HTMLText {
    /// Escapes `& < > " '` so the text is inert in element content and in quoted attributes.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
