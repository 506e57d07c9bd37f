/// The style rules pages share, so each page's style sheet adds only its own. Two families:
/// ``viewer`` for the wide pages built around images (`imglab diff --report`, a run's pair
/// pages, `imglab reproduce`) and ``document`` for the pages of tables (a run's index, the
/// selftest kill matrix, the league).
enum PageStyle {
    /// The checkerboard behind images, so transparent pixels show as such.
    static let checkerboard = "repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px"

    /// Wide pages with images: body, heading, code, verdict badges (``VerdictBadge``), tables,
    /// small print, the heat map legend (``HeatMapLegend``), view buttons, image panes, footer.
    static let viewer = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 16px;color:#222;background:#fafafa}
    h1{font-size:20px;margin:12px 0 4px}
    code{font:12px ui-monospace,monospace;background:#eee;padding:1px 3px;border-radius:3px;word-break:break-all}
    .verdict{font-weight:600;padding:6px 10px;border-radius:4px}.ok{color:#174d17;background:#dcefdc}.bad{color:#7a1010;background:#f6dede}
    table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
    .small{font-size:11px;color:#666}
    nav button{margin-right:4px}nav button.on{background:#357;color:#fff}.pane{display:inline-block;vertical-align:top;margin:4px}
    .legend span{display:inline-block;width:12px;height:12px;margin:0 2px 0 8px;vertical-align:middle;border:1px solid #999}
    footer{margin:24px 0;color:#888;font-size:12px}

    """

    /// Pages of tables: body, tables, code, verdict colours.
    static let document = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
    table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
    code{font-size:90%}.verdict.ok{color:#060}.verdict.bad{color:#b00}

    """
}
