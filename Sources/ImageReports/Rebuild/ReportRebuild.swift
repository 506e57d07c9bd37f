import Foundation
import ImageCore
import ImageCodecs
import ImageLab
import ImageMetrics

/// `imglab report RESULTS.json --out DIR` as one call: the HTML report of a run (`imglab-run/1`)
/// or a folder diff (`imglab-folder-diff/1`) made again from its results file, without
/// comparing anything.
///
/// The index is made from the results alone. What the results do not hold is taken from the
/// folder the results file is in, when it is a report of the same results: the pair pages (they
/// need the images) and the folder diff's thumbnails, each carried byte for byte; so a report
/// rebuilt from its own `results.json` is the same files. A pair whose page is not there is listed
/// without a link (the screen counts them); a folder diff's missing thumbnails are made from the
/// image folders its results name, when they can still be read (decoded, not compared; the
/// difference thumbnail only for a pair without masks, which the results do not keep).
///
/// `DIR` is written as one generation (``OutputFolder``), so rebuilding a report in place, or a
/// kill midway, never loses the report that was there.
public struct ReportRebuild: Sendable {
    /// The results file.
    public var results: String
    /// The report folder to write.
    public var out: String
    /// The decode limits of the images a missing thumbnail is made from.
    public var decode: DecodeOptions

    public init(results: String, out: String, decode: DecodeOptions = DecodeOptions()) {
        self.results = results
        self.out = out
        self.decode = decode
    }

    /// What a rebuild wrote.
    public struct Outcome: Sendable {
        /// `run` or `folder diff`.
        public var kind: String
        /// The index's path.
        public var index: String
        /// Rows, and pair pages carried from the results' folder.
        public var rows: Int
        public var pagesCarried: Int
        /// Pages the results link that were not there (a folder diff's results name each page).
        public var pagesMissing = 0
        /// Thumbnails carried from the results' folder, and made from the image folders.
        public var thumbnailsCarried = 0
        public var thumbnailsMade = 0

        /// The lines for the terminal.
        public var screen: String {
            var lines = ["rebuilt    \(kind) report of \(rows) rows: \(index)",
                         "pages      \(pagesCarried) carried from the results' folder"
                            + (pagesMissing > 0 ? ", \(pagesMissing) not there (listed without a link; a page needs the images: "
                               + "compare again with --report)" : "")]
            if kind == "folder diff" || thumbnailsCarried > 0 {
                lines.append("thumbnails \(thumbnailsCarried) carried, \(thumbnailsMade) made from the image folders")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Reads the results and writes the report.
    /// - Throws: ``ReportRebuildError`` when the results cannot be read or are neither schema, or
    ///   the report cannot be written (the folder is then left as it was).
    public func run() throws(ReportRebuildError) -> Outcome {
        let bytes: [UInt8]
        do { bytes = try ImageCodecs.readFile(results, limit: 1 << 30) } catch {
            if case .io(_, let reason) = error { throw .unreadable(results, reason) }
            throw .unreadable(results, "\(error)")
        }
        let source = URL(fileURLWithPath: results).deletingLastPathComponent().path
        let folder: OutputFolder
        do { folder = try OutputFolder(out) } catch { throw .output(out, "\(error)") }
        do {
            let outcome: Outcome
            if let r = FolderDiffResults.decode(bytes) {
                outcome = try folderDiff(r, source: source, into: folder)
            } else if let r = try? RunResults.decode(Data(bytes)) {
                outcome = try run(r, bytes: bytes, source: source, into: folder)
            } else {
                throw ReportRebuildError.notResults(results)
            }
            try folder.publish()
            return outcome
        } catch let error as ReportRebuildError {
            folder.abandon()
            throw error
        } catch {
            folder.abandon()
            throw .output(out, "\(error)")
        }
    }

    /// A file of the results' folder, when it is there and is a regular file.
    private func carried(_ source: String, _ relative: String) -> [UInt8]? {
        let path = source + "/" + relative
        guard let kind = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
              kind == .typeRegular else { return nil }
        return try? ImageCodecs.readFile(path, limit: 1 << 30)
    }

    private func run(_ r: RunResults, bytes: [UInt8], source: String, into folder: OutputFolder) throws -> Outcome {
        var links: [Int: String] = [:], pages: [Int: String] = [:], differences: [Int: String] = [:]
        for (i, p) in r.pairs.enumerated() {
            let thumbnail = IndexThumbnail.differencePath(index: i)
            if let png = carried(source, thumbnail) {
                try folder.write(png, to: thumbnail)
                differences[i] = thumbnail
            }
            let page = RunReport.pagePath(index: i, pair: p.pair)
            guard let html = carried(source, page) else { continue }
            try folder.write(html, to: page)
            links[i] = page
            pages[i] = folder.path + "/" + page
        }
        try folder.write(Array(RunReport.index(r, links: links, differences: differences).utf8), to: "index.html")
        try folder.write(bytes, to: RunReport.resultsFile)
        try folder.write(Array(JUnitReport.xml(r, pages: pages).utf8), to: RunReport.junitFile)
        return Outcome(kind: "run", index: folder.path + "/index.html", rows: r.pairs.count, pagesCarried: links.count,
                       thumbnailsCarried: differences.count)
    }

    private func folderDiff(_ given: FolderDiffResults, source: String, into folder: OutputFolder) throws -> Outcome {
        var r = given, thumbnails: [FolderThumbnails] = [], carriedPages = 0, missing = 0, thumbsCarried = 0, thumbsMade = 0
        for (i, item) in r.items.enumerated() {
            if let page = item.page {
                if let html = carried(source, page) {
                    try folder.write(html, to: page)
                    carriedPages += 1
                } else {
                    r.items[i].page = nil
                    missing += 1
                }
            }
            var t = FolderThumbnails()
            func keep(_ name: String) throws -> String? {
                guard let png = carried(source, IndexThumbnail.path(index: i, name)) else { return nil }
                try folder.write(png, to: IndexThumbnail.path(index: i, name))
                thumbsCarried += 1
                return IndexThumbnail.path(index: i, name)
            }
            if let both = try keep("both") {
                t.expected = both
                t.actual = both
            } else {
                t.expected = try keep("expected")
                t.actual = try keep("actual")
                t.difference = try keep("difference")
            }
            if t.expected == nil, t.actual == nil, t.difference == nil {
                let made = madeThumbnails(item, r)
                for (name, png) in made {
                    try folder.write(png.bytes, to: IndexThumbnail.path(index: i, name))
                    thumbsMade += 1
                }
                let path = { (name: String) in made.contains { $0.0 == name } ? IndexThumbnail.path(index: i, name) : nil }
                t = FolderThumbnails(expected: path("expected"), actual: path("actual"), difference: path("difference"))
            }
            thumbnails.append(t)
        }
        try folder.write(Array(FolderDiffReport.index(r, thumbnails: thumbnails).utf8), to: "index.html")
        try folder.write(Array(r.jsonText.utf8), to: FolderDiffReport.resultsFile)
        return Outcome(kind: "folder diff", index: folder.path + "/index.html", rows: r.items.count, pagesCarried: carriedPages,
                       pagesMissing: missing, thumbnailsCarried: thumbsCarried, thumbnailsMade: thumbsMade)
    }

    /// The thumbnails of an item made from the image folders the results name (those that can be read).
    private func madeThumbnails(_ item: FolderDiffItem, _ r: FolderDiffResults) -> [(String, EmbeddedImage)] {
        func image(_ folder: String, _ relative: String?) -> Image? {
            guard let relative, let file = try? PairDecoding.read(folder + "/" + relative, options: decode),
                  let sides = try? PairDecoding.decode([file], options: decode, threads: 1) else { return nil }
            return sides.first?.compared.image
        }
        let e = image(r.expected, item.expected), a = image(r.actual, item.actual)
        var made: [(String, EmbeddedImage)] = []
        if let e, let png = IndexThumbnail.png(e) { made.append(("expected", png)) }
        if let a, let png = IndexThumbnail.png(a) { made.append(("actual", png)) }
        if let e, let a, item.ignored == nil, item.status == .changed || item.status == .withinGate,
           let png = IndexThumbnail.difference(e, a, ignored: nil) {
            made.append(("difference", png))
        }
        return made
    }
}

/// Why ``ReportRebuild`` could not write the report (exit status 2).
public enum ReportRebuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The results file cannot be read: its path and why.
    case unreadable(String, String)
    /// The file is neither a run's results (`imglab-run/1`) nor a folder diff's (`imglab-folder-diff/1`).
    case notResults(String)
    /// The report folder cannot be written: its path and why.
    case output(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): return "cannot read \(path): \(why)"
        case .notResults(let path):
            return "\(path) is neither the results of 'imglab run' (schema \(RunResults.schema)) nor of a folder diff "
                + "(schema \(FolderDiffResults.schemaVersion))"
        case .output(let path, let why): return "cannot write \(path): \(why)"
        }
    }
}
