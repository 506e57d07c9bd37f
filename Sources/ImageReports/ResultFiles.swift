import Foundation
import ImageCodecs
import ImageLab

/// Writes the files a command leaves behind, each atomically (temporary file, then rename), so
/// a reader never sees half a file. A report folder is one generation (``OutputFolder``): staged
/// beside the target and swapped in whole after the single files, so a kill at any point leaves
/// the previous report whole and two runs never mix their pages.
public enum ResultFiles {
    /// A run's results: `json` (schema imglab-run/1), `junit` (JUnit XML) and the HTML report in
    /// `report` (`index.html`, a page per pair under `pairs/` for the pairs with evidence, and the
    /// results and JUnit files again as `results.json` and `junit.xml`); each only when its path is given.
    /// `afterWrite` hears the number of files written so far after each one (pages, the JSON,
    /// the JUnit, then the swap of the report folder): the fault point of the kill test.
    public static func write(_ r: RunResults, evidence: [PairEvidence?] = [], json: String?, junit: String?, report: String?,
                             afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) throws {
        let folder = try report.map { path throws(EncodeError) in try OutputFolder(path) }
        var writes = 0
        func wrote() { writes += 1; afterWrite?(writes) }
        var pages: [Int: String] = [:]
        if let folder { for i in evidence.indices where evidence[i] != nil { pages[i] = folder.path + "/" + RunReport.pagePath(index: i, pair: r.pairs[i].pair) } }
        let junitText = JUnitReport.xml(r, pages: pages), jsonBytes = [UInt8](try r.jsonData())
        do {
            if let folder {
                for file in RunReport.files(r, evidence: evidence) { try folder.write(Array(file.text.utf8), to: file.path); wrote() }
                for thumbnail in RunReport.thumbnails(r, evidence: evidence) { try folder.write(thumbnail.png, to: thumbnail.path) }
                try folder.write(jsonBytes, to: RunReport.resultsFile)
                try folder.write(Array(junitText.utf8), to: RunReport.junitFile)
            }
            if let json { try ImageCodecs.writeAtomically(jsonBytes, to: json); wrote() }
            if let junit { try ImageCodecs.writeAtomically(Array(junitText.utf8), to: junit); wrote() }
            try folder?.publish()
            if folder != nil { wrote() }
        } catch {
            folder?.abandon()
            throw error
        }
    }

    /// A kill matrix: `json` (schema imglab-selftest/1) and `report/index.html`, each when given.
    public static func write(_ m: KillMatrix, json: String?, report: String?) throws {
        if let json { try ImageCodecs.writeAtomically([UInt8](try m.jsonData()), to: json) }
        if let report { try writeReport([(ReportFolder.index, Array(SelftestReport.html(m).utf8))], to: report) }
    }

    /// A reproduction: `report/index.html` and `json` (schema imglab-reproduce/1), each when given.
    public static func write(_ outcome: Reproduction.Outcome, json: String?, report: String?) throws {
        if let report { try writeReport([(ReportFolder.index, Array(ReproduceReport.html(outcome).utf8))], to: report) }
        if let json { try ImageCodecs.writeAtomically([UInt8](try outcome.results.jsonData()), to: json) }
    }

    /// A report folder holding `files` (a path relative to the folder, the bytes), written as
    /// one generation (``OutputFolder``): whole or not at all, and only over a folder imglab wrote.
    public static func writeReport(_ files: [(path: String, bytes: [UInt8])], to folder: String) throws {
        let generation = try OutputFolder(folder)
        do {
            for file in files { try generation.write(file.bytes, to: file.path) }
            try generation.publish()
        } catch {
            generation.abandon()
            throw error
        }
    }

    /// A league in `folder`: each judged resizer's results (``League/resultsPath(_:)``),
    /// `league.json` (schema imglab-league/1) and `index.html`.
    public static func write(_ league: League.Outcome, to folder: String) throws {
        var files: [(path: String, bytes: [UInt8])] = []
        for r in league.results { files.append((League.resultsPath(r.resizer), [UInt8](try r.jsonData()))) }
        files.append(("league.json", [UInt8](try league.table.jsonData())))
        files.append((ReportFolder.index, Array(LeagueReport.html(league.table).utf8)))
        try writeReport(files, to: folder)
    }
}

/// The names every report folder shares.
public enum ReportFolder {
    /// The page a report folder opens with.
    public static let index = "index.html"

    /// The page of a report folder, as a screen names it: `folder/index.html`.
    public static func page(_ folder: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + index
    }
}
