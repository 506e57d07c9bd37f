import Foundation

/// Runs Debian's `chromium` headless on a file and reports what the page did. Shared by the
/// test targets through the non-product target `TestSupport` (Package.swift).
///
/// The report's script marks `<body data-ready="1">` when it finished and records uncaught
/// errors in `data-errors`; Chromium's own log (`--enable-logging=stderr`) carries console
/// errors as `Uncaught …` / `CONSOLE` lines.
public struct HeadlessChromium: Sendable {
    /// The browser binary.
    public let executable: String

    /// The first of chromium, chromium-browser, google-chrome on PATH (or `$IMGLAB_CHROMIUM`).
    public static let found: HeadlessChromium? = {
        if let env = ProcessInfo.processInfo.environment["IMGLAB_CHROMIUM"] { return HeadlessChromium(executable: env) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return HeadlessChromium(executable: candidate) }
            }
        }
        return nil
    }()

    /// Whether Chromium is installed.
    public static var available: Bool {
        found != nil
    }

    /// Whether the tests that render in Chromium run: where it is installed, and always under
    /// `IMGLAB_CI=1`, where a missing browser fails them (their `#require(found)`) instead of
    /// skipping them. Elsewhere they are skipped with the reason.
    public static var testsRun: Bool {
        available || ProcessInfo.processInfo.environment["IMGLAB_CI"] == "1"
    }

    /// The text of the first `<title>` element of an HTML text, its character references decoded
    /// (nil when there is none): what the page's title is, from the file as written or from a DOM.
    public static func title(ofHTML html: String) -> String? {
        guard let open = html.range(of: "<title>"),
              let close = html.range(of: "</title>", range: open.upperBound..<html.endIndex) else { return nil }
        var text = String(html[open.upperBound..<close.lowerBound])
        for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&nbsp;", "\u{A0}"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: reference, with: character)
        }
        return text
    }

    /// What Chromium produced for a page.
    public struct Page: Sendable {
        /// The DOM after scripts ran (`--dump-dom`).
        public var dom: String
        /// Chromium's stderr log.
        public var log: String
        /// Exit status of the browser (124 when the 60 s timeout killed it).
        public var status: Int32
        /// The title after scripts ran, read back from the DOM (``HeadlessChromium/title(ofHTML:)``).
        public var title: String? { HeadlessChromium.title(ofHTML: dom) }
        /// Console errors and uncaught exceptions found in the log or the DOM.
        public var errors: [String] {
            var found = log.split(separator: "\n").filter { $0.contains("Uncaught") || ($0.contains("CONSOLE") && $0.contains("ERROR")) }.map(String.init)
            if let r = dom.range(of: "data-errors=\"") {
                found.append(String(dom[r.upperBound...].prefix { $0 != "\"" }))
            }
            return found
        }
    }

    /// Loads `file` and returns the DOM after scripts ran.
    public func render(_ file: URL) throws -> Page {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", executable, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                             "--virtual-time-budget=2000", "--dump-dom", file.absoluteString]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs (a full pipe would block it).
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        group.wait()
        process.waitUntilExit()
        return Page(dom: String(decoding: outData, as: UTF8.self), log: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
    }
}
