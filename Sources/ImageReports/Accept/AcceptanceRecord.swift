import Foundation

/// One entry of a baseline folder's history (``BaselineHistory``): which files an acceptance (or
/// the undoing of one) replaced, added or removed, kept in `BASELINE/.imglab-history/ID/record.json`
/// beside a copy of every file before (`before/PATH`) and after (`after/PATH`).
public struct AcceptanceRecord: Sendable, Hashable, Codable {
    public static let schemaVersion = "imglab-acceptance/1"
    public var schema = AcceptanceRecord.schemaVersion
    /// The entry's id: its folder's name, four digits counting from 0001.
    public var id: String
    /// When it was recorded (ISO 8601, UTC).
    public var time: String
    /// An acceptance of actual files, or the undoing of an entry.
    public var kind: Kind
    /// The folder the accepted files came from (``Kind/accept``).
    public var actual: String?
    /// The entry this one undoes (``Kind/undo``).
    public var undoes: String?
    /// ``State/applying`` until every file is in place.
    public var state: State
    /// The files, sorted by path.
    public var files: [Change]

    /// What an entry did.
    public enum Kind: String, Sendable, Hashable, Codable {
        case accept, undo
    }

    /// Whether the entry's files are all in place. An entry still ``applying`` was interrupted (the
    /// process killed); the next `imglab accept` of the folder finishes it from the entry's copies.
    public enum State: String, Sendable, Hashable, Codable {
        case applying, done
    }

    /// One file of the baseline folder and its sizes before and after (`nil`: absent).
    public struct Change: Sendable, Hashable, Codable {
        /// The path relative to the baseline folder.
        public var path: String
        /// Bytes before, or `nil` when the file was new.
        public var before: Int?
        /// Bytes after, or `nil` when the file was removed.
        public var after: Int?

        /// `new`, `removed` or `replaced`.
        public var verb: String { before == nil ? "new" : after == nil ? "removed" : "replaced" }
    }

    /// One line for the terminal: `0002  2026-12-07T00:40:00Z  accept  3 files (2 replaced, 1 new) from shots/`.
    public var line: String {
        var counts: [String: Int] = [:]
        for f in files { counts[f.verb, default: 0] += 1 }
        let parts = ["replaced", "new", "removed"].compactMap { v in counts[v].map { "\($0) \(v)" } }
        let what = "\(files.count) file(s) (\(parts.joined(separator: ", ")))"
        let whence = kind == .accept ? actual.map { " from \($0)" } ?? "" : undoes.map { " undoing \($0)" } ?? ""
        return "\(id)  \(time)  \(kind.rawValue)  \(what)\(whence)" + (state == .applying ? "  (interrupted)" : "")
    }
}
