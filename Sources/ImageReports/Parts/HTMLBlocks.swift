import ImageCore
/// The block elements pages are made of: a titled section, a list of text items, a table's
/// header row. Text arguments are escaped here; `body` arguments are HTML the caller built.
enum HTMLBlocks {
    /// `<section><h2>title</h2>body</section>` and a newline; `id` names the section.
    static func section(_ title: String, id: String? = nil, _ body: String) -> String {
        sectionOpening(title, id: id) + body + sectionClosing
    }

    /// A section's opening tag and heading (``section(_:id:_:)`` written in pieces).
    static func sectionOpening(_ title: String, id: String? = nil) -> String {
        "<section\(id.map { " id=\"\(HTMLText.escape($0))\"" } ?? "")><h2>\(HTMLText.escape(title))</h2>"
    }

    /// A section's closing tag.
    static let sectionClosing = "</section>\n"

    /// A bulleted list of text items.
    static func list(_ items: [String]) -> String {
        "<ul>" + items.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>"
    }

    /// A table's header row of text cells.
    static func headerRow(_ names: [String]) -> String {
        "<tr>" + names.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr>"
    }

    /// The footer: which imglab wrote the page, its parts (text) joined by ` · `, then optional HTML.
    static func footer(_ parts: [String], html: String = "") -> String {
        "<footer>" + (["imglab " + ImglabBuild.identity] + parts).map(HTMLText.escape).joined(separator: " · ") + html + "</footer>\n"
    }
}
