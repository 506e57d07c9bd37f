/// The shell every HTML page shares: the document head (UTF-8, a Content-Security-Policy that
/// forbids any network access, the viewport, the escaped title, the inline style sheet) and the
/// body, closed by the page's script when it has one.
///
/// A page with a script is self-checking: its body starts as `data-ready="0"`, uncaught errors
/// are collected in `data-errors`, and the body becomes `data-ready="1"` when the page's script
/// finished (headless Chromium in the tests reads both, see `HeadlessChromium`).
struct HTMLPage: Sendable {
    /// The page title, as text (escaped here).
    var title: String
    /// The style sheet (``PageStyle``'s shared rules plus the page's own).
    var style: String
    /// The page's script: a constant that reads only the DOM, never input text; `nil` for none.
    var script: String?
    /// Whether the page embeds images as `data:` URIs.
    var embedsImages: Bool
    /// Whether the page shows image files from its own folder (an index's thumbnails).
    var showsImageFiles = false

    /// The policy: nothing from the network; inline style, inline script only when the page has
    /// one, images only as `data:` URIs and, for an index, files beside the page (`'self'`).
    var contentSecurityPolicy: String {
        let images = (showsImageFiles ? ["'self'"] : []) + (embedsImages ? ["data:"] : [])
        return "default-src 'none'" + (images.isEmpty ? "" : "; img-src " + images.joined(separator: " ")) + "; style-src 'unsafe-inline'"
            + (script == nil ? "" : "; script-src 'unsafe-inline'")
    }

    /// The whole document around `body` (HTML, already escaped by the caller): ``opening``,
    /// `body`, ``closing``.
    func render(_ body: String) -> String {
        opening + body + closing
    }

    /// The document before the body's content: the head and the `<body>` tag.
    var opening: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>\(style)</style></head>
        <body\(script == nil ? "" : " data-ready=\"0\"")>

        """
    }

    /// The document after the body's content: the script, when the page has one, and the closing tags.
    var closing: String {
        (script.map { "<script>\(Self.errorCollector)\n\($0)\n\(Self.readySignal)</script>" } ?? "") + "</body></html>\n"
    }

    /// Collects uncaught errors in the body's `data-errors` (registered before the page's script runs).
    static let errorCollector = """
    (function(){var errors=[];window.addEventListener('error',function(ev){errors.push(String(ev.message));document.body.setAttribute('data-errors',errors.join(' | '));});})();
    """

    /// Marks the body ready; reached only when the page's script did not throw.
    static let readySignal = "document.body.setAttribute('data-ready','1');"
}
