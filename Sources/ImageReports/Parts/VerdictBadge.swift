/// The verdict line at the top of a page: `<p class="verdict ok">` (green) or `bad` (red), as
/// ``PageStyle`` colours it.
enum VerdictBadge {
    /// A badge for text (escaped here).
    static func html(text: String, ok: Bool) -> String { html(markup: HTMLText.escape(text), ok: ok) }

    /// A badge around HTML the caller built (e.g. counts in `<b>`).
    static func html(markup: String, ok: Bool) -> String { "<p class=\"verdict \(ok ? "ok" : "bad")\">\(markup)</p>" }
}
