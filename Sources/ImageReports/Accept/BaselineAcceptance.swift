import Foundation
import ImageCodecs

/// `imglab accept BASELINE ACTUAL NAME...`: makes chosen files of a baseline folder what they are
/// in the actual folder — a changed file's actual copied over its baseline, a new file added, a
/// deleted one removed — each change recorded first in the folder's history
/// (``BaselineHistory``), so the previous baselines stay retrievable and ``undo(_:)`` puts them back.
///
/// Files are paired as `imglab diff BASELINE ACTUAL` pairs them (``FolderPairing``, by `match`). A
/// name chooses the keys equal to it, or, when none is, the keys, expected paths or actual paths it
/// matches as a glob (`fnmatch(3)`: `*` and `?` also cross `/`, so `*.png` is every PNG; `[…]` classes).
public struct BaselineAcceptance: Sendable {
    /// The baseline (expected) folder, written.
    public var baseline: String
    /// The actual folder, only read.
    public var actual: String
    /// How the two folders' files are paired.
    public var match: FolderPairing.Match
    /// Keys, relative paths or globs; every one must choose at least one file.
    public var names: [String]
    /// Whether a name that chooses no file is counted as already accepted rather than refused: set
    /// for a results file's keys, whose files an earlier acceptance may have moved or removed.
    public var namesMayBeGone = false
    /// Called after each baseline file written or removed (``BaselineHistory/afterWrite``).
    public var afterWrite: (@Sendable (_ writes: Int) -> Void)?

    /// An acceptance of `names` from `actual` into `baseline`.
    public init(baseline: String, actual: String, match: FolderPairing.Match = .path, names: [String],
                afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) {
        self.baseline = baseline
        self.actual = actual
        self.match = match
        self.names = names
        self.afterWrite = afterWrite
    }

    /// The acceptance of the files a folder diff found changed, new or deleted (its `--json`,
    /// schema `imglab-folder-diff/1`): its folders and pairing, its failing keys.
    public init(failingIn results: FolderDiffResults, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) {
        let failing = results.items.filter { [.changed, .new, .deleted].contains($0.status) }
        self.init(baseline: results.expected, actual: results.actual, match: results.match, names: failing.map(\.key),
                  afterWrite: afterWrite)
        namesMayBeGone = true
    }

    /// What an acceptance or an undo did.
    public struct Outcome: Sendable, Hashable {
        /// The baseline folder.
        public var baseline: String
        /// The history entry written; `nil` when every chosen file already was as asked.
        public var entry: AcceptanceRecord?
        /// Chosen keys whose baseline already equals the actual file, byte for byte.
        public var alreadyAccepted: [String]
        /// Entries a killed run had left unfinished, finished first.
        public var finished: [String]
    }

    /// Accepts the chosen files.
    /// - Throws: ``AcceptError``: a folder that cannot be listed, a name that chooses nothing, a
    ///   file that cannot be read, a baseline path imglab may not replace (a link, a FIFO), a
    ///   history that cannot be written. Nothing is changed before the history entry is recorded.
    public func run() throws(AcceptError) -> Outcome {
        let pairs: [FolderPairing.Pair]
        do { pairs = try FolderPairing.pairs(expected: baseline, actual: actual, match: match) } catch { throw .folders(error) }
        let (chosen, unmatched) = Self.choose(names, in: pairs)
        guard unmatched.isEmpty || namesMayBeGone else { throw .nothingChosen(unmatched) }
        var already = unmatched
        let history = BaselineHistory(baseline: baseline, afterWrite: afterWrite)
        let done = try history.commit(.accept, actual: actual) { () throws(AcceptError) in
            var changes: [BaselineHistory.FileChange] = []
            for pair in chosen {
                var mine: [BaselineHistory.FileChange] = []
                if let a = pair.actual {
                    let bytes: [UInt8]
                    do throws(DecodeError) { bytes = try ImageCodecs.readFile(actual + "/" + a) } catch {
                        throw .unreadable(actual + "/" + a, error)
                    }
                    mine.append(.init(path: a, before: try Self.current(baseline, a), after: bytes))
                }
                // The baseline file of another name (--match stem: a.png's key is a, and so is a.jpg's) goes.
                if let e = pair.expected, e != pair.actual {
                    mine.append(.init(path: e, before: try Self.current(baseline, e), after: nil))
                }
                mine.removeAll { $0.before == $0.after }
                if mine.isEmpty { already.append(pair.key) }
                changes += mine
            }
            for change in changes where change.after != nil {
                do throws(EncodeError) { _ = try OutputFile.check(baseline + "/" + change.path) } catch { throw .write(error) }
            }
            return (changes, nil)
        }
        return Outcome(baseline: baseline, entry: done.entry, alreadyAccepted: already, finished: done.finished)
    }

    /// Undoes the history entry `id` of `baseline` (or the latest acceptance not undone yet): each
    /// of its files put back as it was before it, recorded as an entry of its own (so an undo can
    /// be undone too).
    /// - Throws: ``AcceptError/nothingToUndo(_:)``, ``AcceptError/unknownEntry(_:_:)``, and as ``run()``.
    public static func undo(_ baseline: String, entry id: String? = nil,
                            afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) throws(AcceptError) -> Outcome {
        let history = BaselineHistory(baseline: baseline, afterWrite: afterWrite)
        let done = try history.commit(.undo, actual: nil) { () throws(AcceptError) in
            let (target, changes) = try history.undoing(id)
            return (changes, target.id)
        }
        return Outcome(baseline: baseline, entry: done.entry, alreadyAccepted: [], finished: done.finished)
    }

    /// The pairs `names` choose, in key order, and the names that choose none.
    static func choose(_ names: [String], in pairs: [FolderPairing.Pair]) -> (chosen: [FolderPairing.Pair], unmatched: [String]) {
        var chosen = Set<String>()
        var unmatched: [String] = []
        for name in names {
            let exact = pairs.filter { $0.key == name }
            let hits = !exact.isEmpty ? exact : pairs.filter { $0.matches(glob: name) }
            if hits.isEmpty { unmatched.append(name) }
            chosen.formUnion(hits.map(\.key))
        }
        return (pairs.filter { chosen.contains($0.key) }, unmatched)
    }

    /// The bytes of `baseline/path` now, `nil` when there is no such file.
    /// - Throws: ``AcceptError/write(_:)`` when the path is a link, a folder or a device (imglab never replaces one).
    static func current(_ baseline: String, _ path: String) throws(AcceptError) -> [UInt8]? {
        let full = baseline + "/" + path
        var status = stat()
        guard FileSystemName.withRepresentation(full, { lstat($0, &status) }) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .write(.refusedTarget(path: full, found: OutputFile.description(ofKind: status.st_mode & S_IFMT)))
        }
        do { return try ImageCodecs.readFile(full) } catch { throw .unreadable(full, error) }
    }
}

/// Why `imglab accept` changed nothing (exit status 2), or stopped part-way (the history says
/// how far; the next run finishes it).
public enum AcceptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A folder that cannot be listed, or two files of one folder sharing a stem.
    case folders(FolderDiffError)
    /// Names that choose no file.
    case nothingChosen([String])
    /// A file that cannot be read.
    case unreadable(String, DecodeError)
    /// A baseline file or history file that cannot be written (or may not be: a link, a FIFO).
    case write(EncodeError)
    /// A history entry that cannot be read or recorded.
    case history(String)
    /// `--undo` with no acceptance left to undo.
    case nothingToUndo(String)
    /// `--undo ID` naming no entry of the history folder.
    case unknownEntry(String, String)

    public var description: String {
        switch self {
        case .folders(let e): return e.description
        case .nothingChosen(let names):
            return "no file of either folder is called or matches " + names.map { "'\($0)'" }.joined(separator: ", ")
                + " (names are keys or paths relative to the folders, or globs such as 'icons/*.png')"
        case .unreadable(let path, let e): return "cannot read \(path): \(e)"
        case .write(let e): return e.description
        case .history(let why): return why
        case .nothingToUndo(let folder): return "\(folder) has no acceptance left to undo (imglab accept --history \(folder) lists them)"
        case .unknownEntry(let id, let folder): return "\(folder) has no history entry \(id)"
        }
    }
}

extension BaselineAcceptance {
    /// The acceptance of the failing files of the folder diff whose `--json` is at `path`
    /// (``init(failingIn:afterWrite:)``).
    /// - Throws: ``AcceptError/unreadable(_:_:)``, or ``AcceptError/history(_:)`` when the file is
    ///   not a folder diff's results.
    public init(resultsFile path: String, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) throws(AcceptError) {
        let bytes: [UInt8]
        do { bytes = try ImageCodecs.readFile(path, limit: 1 << 30) } catch { throw .unreadable(path, error) }
        guard let results = FolderDiffResults.decode(bytes) else {
            throw .history("\(path) is not the --json of a folder diff (schema \(FolderDiffResults.schemaVersion))")
        }
        self.init(failingIn: results, afterWrite: afterWrite)
    }
}
