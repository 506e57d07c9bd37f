import Foundation
import ImageCodecs
import ImageLab

/// Writes the files a command leaves behind, each atomically (temporary file, then rename), so
/// a reader never sees half a file; a report's `index.html` is written last, so a report folder
/// with an index is complete.
public enum ResultFiles {
    /// A run's results: `json` (schema imglab-run/1), `junit` (JUnit XML) and the HTML report in
    /// `report` (`index.html`, and a page per pair under `pairs/` for the pairs with evidence);
    /// each only when its path is given.
    public static func write(_ r: RunResults, evidence: [PairEvidence?] = [], json: String?, junit: String?, report: String?) throws {
        if let json { try ImageCodecs.writeAtomically([UInt8](try r.jsonData()), to: json) }
        if let junit { try ImageCodecs.writeAtomically(Array(JUnitReport.xml(r).utf8), to: junit) }
        guard let report else { return }
        try FileManager.default.createDirectory(atPath: evidence.isEmpty ? report : report + "/pairs", withIntermediateDirectories: true)
        for file in RunReport.files(r, evidence: evidence) {
            try ImageCodecs.writeAtomically(Array(file.text.utf8), to: report + "/" + file.path)
        }
    }

    /// A kill matrix: `json` (schema imglab-selftest/1) and `report/index.html`, each when given.
    public static func write(_ m: KillMatrix, json: String?, report: String?) throws {
        if let json { try ImageCodecs.writeAtomically([UInt8](try m.jsonData()), to: json) }
        guard let report else { return }
        try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
        try ImageCodecs.writeAtomically(Array(SelftestReport.html(m).utf8), to: report + "/index.html")
    }

    /// A reproduction: the report `report` (a file path; its folder is created) and `json`
    /// (schema imglab-reproduce/1), each when given.
    public static func write(_ outcome: Reproduction.Outcome, json: String?, report: String?) throws {
        if let report {
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: report).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try ImageCodecs.writeAtomically(Array(ReproduceReport.html(outcome).utf8), to: report)
        }
        if let json { try ImageCodecs.writeAtomically([UInt8](try outcome.results.jsonData()), to: json) }
    }

    /// A league in `folder`: each judged resizer's results (``League/resultsPath(_:)``),
    /// `league.json` (schema imglab-league/1) and `index.html`.
    public static func write(_ league: League.Outcome, to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/results", withIntermediateDirectories: true)
        for r in league.results { try ImageCodecs.writeAtomically([UInt8](try r.jsonData()), to: folder + "/" + League.resultsPath(r.resizer)) }
        try ImageCodecs.writeAtomically([UInt8](try league.table.jsonData()), to: folder + "/league.json")
        try ImageCodecs.writeAtomically(Array(LeagueReport.html(league.table).utf8), to: folder + "/index.html")
    }
}
