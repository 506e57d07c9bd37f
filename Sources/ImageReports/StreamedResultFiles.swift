import Foundation
import ImageCodecs
import ImageLab

/// The files of ``ResultFiles/write(_:evidence:json:junit:report:afterWrite:)`` — the JSON
/// (schema imglab-run/1), the JUnit XML and the HTML report — written while the run judges,
/// byte for byte the same, with memory that does not grow with the number of pairs. It is the
/// run's ``PairSink``:
///
/// - on the worker thread that judged a pair, its JSON record, JUnit test case, index row and
///   report page (without its navigation bar) are rendered, and its evidence dropped;
/// - in manifest order, the record, test case and row go to scratch files (``SpoolFile``: the
///   JSON and JUnit headers count the pairs, the index lists them worst first), and the page
///   is written into the report's staging folder as soon as its previous and next pages in
///   the report's order are known. That order is worst verdict first, then manifest order, so
///   a page waits only for the next page of its own verdict, and the first page of each
///   verdict for the end of the run: at most two pages per verdict are held;
/// - ``finish(_:)`` writes the index, the JSON and the JUnit through their temporary files
///   (header, the scratch file, tail) and swaps the report folder in, in that order, as
///   ``ResultFiles`` does, so a kill at any point leaves the previous files whole.
///
/// Only what the summary needs is kept: the index's ``RunReport/IndexFigures``, the pages'
/// pending links, and a row count per verdict.
public final class StreamedResultFiles: PairSink, @unchecked Sendable {
    /// What a pair becomes on its worker thread.
    public struct Prepared: Sendable {
        /// The pair's JSON record, indented as an element of `pairs`; `nil` without `--json`.
        var record: [UInt8]?
        /// The pair's JUnit test case; `nil` without `--junit`.
        var testcase: String?
        /// Whether the pair has evidence (its page is in the report's navigation order).
        var hasEvidence: Bool
        /// Its page without the navigation bar; `nil` without a report, evidence, or when an image cannot be encoded.
        var page: DiffReport.Parts?
        /// The index's difference thumbnail (PNG), for a pair with evidence whose output differs from the oracle.
        var difference: [UInt8]?
    }

    /// A page waiting for a neighbour in the report's order.
    private struct PendingPage {
        var index: Int
        var pair: String
        var page: DiffReport.Parts?
        var previous: (index: Int, pair: String)?
        var next: (index: Int, pair: String)?
    }

    private let json: String?
    private let junit: String?
    private let folder: OutputFolder?
    private let afterWrite: (@Sendable (_ writes: Int) -> Void)?
    private var writes = 0

    // Touched only by `accept` (serial, in manifest order) and `finish`.
    private var records: SpoolFile?
    private var testcases: SpoolFile?
    /// The index rows of each verdict (by ``PairResult/Verdict/severity``).
    private var rows: [Int: SpoolFile] = [:]
    private var figures = RunReport.IndexFigures()
    private var firstPages: [Int: PendingPage] = [:]
    private var lastPages: [Int: PendingPage] = [:]
    private var pairs = 0
    /// The pairs' wall-clock seconds so far: the JUnit suite's time.
    private var seconds = 0.0

    /// Starts the files: checks the report folder and creates its staging folder (removing the
    /// stale ones of killed runs). Each path is optional; the JSON and JUnit files are
    /// checked and written by ``finish(_:)``.
    /// - Parameter afterWrite: hears the number of files written so far after each one (pages,
    ///   the index, the JSON, the JUnit, then the swap of the report folder): the fault point of the kill test.
    /// - Throws: ``EncodeError`` when the report folder may not be replaced or a scratch file cannot be made.
    public init(json: String?, junit: String?, report: String?, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) throws(EncodeError) {
        self.json = json
        self.junit = junit
        self.afterWrite = afterWrite
        folder = try report.map { path throws(EncodeError) in try OutputFolder(path) }
        do {
            // The report folder holds the results and the JUnit file too (RunReport.resultsFile, .junitFile).
            if let path = json ?? folder?.staging { records = try SpoolFile(folder: Self.scratchFolder(path)) }
            if let path = junit ?? folder?.staging { testcases = try SpoolFile(folder: Self.scratchFolder(path)) }
            if let folder {
                let scratch = Self.scratchFolder(folder.staging)
                for v in PairResult.Verdict.allCases { rows[v.severity] = try SpoolFile(folder: scratch) }
            }
        } catch {
            folder?.abandon()
            throw error
        }
    }

    /// Where the scratch files of an output go: beside it (the system's temporary folder for standard output).
    static func scratchFolder(_ path: String) -> String {
        path == OutputFile.standardOutput ? FileManager.default.temporaryDirectory.path : URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    public func prepare(index: Int, result: PairResult, evidence: PairEvidence?) -> Prepared {
        // An encoder is not safe to share across threads: each record gets its own.
        let record = json == nil && folder == nil ? nil : (try? RunResults.encoder().encode(result)).map { Self.indented(Array($0)) }
        let page = evidence == nil ? nil : folder.map { $0.path + "/" + RunReport.pagePath(index: index, pair: result.pair) }
        let testcase = junit == nil && folder == nil ? nil : JUnitReport.testcase(result, page: page)
        let difference = folder == nil ? nil : evidence.flatMap { e in
            e.comparison.identical ? nil : IndexThumbnail.difference(e.expected.image, e.actual.image, ignored: nil)?.bytes
        }
        return Prepared(record: record, testcase: testcase, hasEvidence: evidence != nil,
                        page: folder == nil ? nil : evidence.flatMap { RunReport.pageParts(result, evidence: $0) }, difference: difference)
    }

    public func accept(index: Int, result: PairResult, prepared: Prepared) throws {
        pairs += 1
        seconds += result.elapsed.seconds
        if let records {
            guard let record = prepared.record else { throw EncodeError.io(path: json ?? RunReport.resultsFile, reason: "pair \(result.pair) cannot be encoded as JSON") }
            if records.count > 0 { try records.append(Self.separator) }
            try records.append(record)
        }
        if let testcases, let testcase = prepared.testcase { try testcases.append(testcase) }
        guard folder != nil else { return }
        figures.add(result)
        let severity = result.verdict.severity
        let link = prepared.page == nil ? nil : RunReport.pagePath(index: index, pair: result.pair)
        var thumbnail: String?
        if let folder, let png = prepared.difference {
            thumbnail = IndexThumbnail.differencePath(index: index)
            try folder.write(png, to: IndexThumbnail.differencePath(index: index))
        }
        try rows[severity]?.append(RunReport.indexRow(result, link: link, difference: thumbnail))
        guard prepared.hasEvidence else { return }
        var page = PendingPage(index: index, pair: result.pair, page: prepared.page)
        if var last = lastPages[severity] {
            page.previous = (last.index, last.pair)
            last.next = (index, result.pair)
            if firstPages[severity]?.index == last.index {
                firstPages[severity]?.next = last.next
            } else {
                try write(last)
            }
        } else {
            firstPages[severity] = page
        }
        lastPages[severity] = page
    }

    /// Writes the rest — the held pages, the index, the JSON, the JUnit — and swaps the report
    /// folder in. `header` is the run's results without their pairs (``LabRunner/StreamedOutcome``),
    /// whose summary counts them.
    /// - Throws: ``EncodeError`` when a file cannot be written; the report folder is then abandoned.
    public func finish(_ header: RunResults) throws {
        do {
            if let folder {
                try writeHeldPages()
                let index = try folder.fileInPieces("index.html")
                defer { index.abandon() }
                try index.append(RunReport.indexHead(header, figures: figures))
                for v in RunReport.verdictsBySeverity { if let spool = rows[v.severity] { try index.append(spool) } }
                try index.append(RunReport.indexTail(header))
                try index.commit()
                wrote()
            }
            if let folder, let records, let testcases {
                try writeJSON(header, records: records, to: folder.fileInPieces(RunReport.resultsFile), path: folder.path + "/" + RunReport.resultsFile)
                try writeJUnit(header, testcases: testcases, to: folder.fileInPieces(RunReport.junitFile))
            }
            if let json, let records {
                try writeJSON(header, records: records, to: OutputFileInPieces(json), path: json)
                wrote()
            }
            if let junit, let testcases {
                try writeJUnit(header, testcases: testcases, to: OutputFileInPieces(junit))
                wrote()
            }
            if let folder {
                try folder.publish()
                wrote()
            }
        } catch {
            abandon()
            throw error
        }
    }

    /// The results' JSON: the header's text with the spooled records as its `pairs`.
    private func writeJSON(_ header: RunResults, records: SpoolFile, to file: OutputFileInPieces, path: String) throws {
        defer { file.abandon() }
        let text = [UInt8](try header.jsonData())
        let slot = try Self.pairsSlot(in: text, path: path)
        try file.append(slot.before)
        if records.count > 0 {
            try file.append(Array("[\n".utf8))
            try file.append(records)
            try file.append(Array("\n  ]".utf8))
        } else {
            try file.append(slot.empty)
        }
        try file.append(slot.after)
        try file.commit()
    }

    /// The JUnit XML: the header's suite around the spooled test cases.
    private func writeJUnit(_ header: RunResults, testcases: SpoolFile, to file: OutputFileInPieces) throws {
        defer { file.abandon() }
        try file.append(JUnitReport.head(header, seconds: seconds))
        try file.append(testcases)
        try file.append(JUnitReport.tail(header))
        try file.commit()
    }

    /// Removes the report's staging folder without publishing (a run that failed).
    public func abandon() {
        folder?.abandon()
    }

    /// Writes the first and last pages of each verdict, now that every neighbour is known.
    private func writeHeldPages() throws {
        let present = RunReport.verdictsBySeverity.map(\.severity).filter { firstPages[$0] != nil }
        for (k, severity) in present.enumerated() {
            guard var first = firstPages[severity], var last = lastPages[severity] else { continue }
            let previous = k > 0 ? lastPages[present[k - 1]].map { ($0.index, $0.pair) } : nil
            let next = k + 1 < present.count ? firstPages[present[k + 1]].map { ($0.index, $0.pair) } : nil
            first.previous = previous
            if first.index == last.index {
                first.next = next
                try write(first)
            } else {
                last.next = next
                try write(first)
                try write(last)
            }
        }
        firstPages = [:]
        lastPages = [:]
    }

    private func write(_ pending: PendingPage) throws {
        guard let folder, let page = pending.page else { return }
        let links = RunReport.pageLinks(previous: pending.previous, next: pending.next)
        try folder.write(Array(page.joined(links: links).utf8), to: RunReport.pagePath(index: pending.index, pair: pending.pair))
        wrote()
    }

    private func wrote() {
        writes += 1
        afterWrite?(writes)
    }

    /// `,` and a newline: between two records of `pairs`.
    static let separator = Array(",\n".utf8)

    /// A record encoded alone, indented as an element of the top-level `pairs` array: 4 spaces
    /// before each line but the empty ones (the encoder writes an empty object or array as
    /// `{`, an empty line, `}`; it writes no raw newline inside a string).
    static func indented(_ record: [UInt8]) -> [UInt8] {
        let indent = Array("    ".utf8), newline = UInt8(ascii: "\n")
        var out: [UInt8] = []
        out.reserveCapacity(record.count + record.count / 8)
        var lineStart = true
        for byte in record {
            if lineStart && byte != newline { out.append(contentsOf: indent) }
            out.append(byte)
            lineStart = byte == newline
        }
        return out
    }

    /// The JSON of the results without pairs split around the value of the top-level `pairs`
    /// member: the text before it, the empty array as the encoder writes it, the text after it.
    static func pairsSlot(in text: [UInt8], path: String) throws(EncodeError) -> (before: ArraySlice<UInt8>, empty: ArraySlice<UInt8>, after: ArraySlice<UInt8>) {
        // A top-level member starts a line indented by exactly two spaces; `pairs` is followed by others (`profile`, …).
        let key = Array("\n  \"pairs\" : ".utf8), nextMember = Array(",\n  \"".utf8)
        guard let keyStart = find(key, in: text, from: 0), let end = find(nextMember, in: text, from: keyStart + key.count) else {
            throw .io(path: path, reason: "the results' JSON has no top-level pairs member")
        }
        return (text[..<(keyStart + key.count)], text[(keyStart + key.count)..<end], text[end...])
    }

    private static func find(_ needle: [UInt8], in text: [UInt8], from start: Int) -> Int? {
        guard needle.count <= text.count else { return nil }
        var i = start
        while i + needle.count <= text.count {
            if text[i] == needle[0], Array(text[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
