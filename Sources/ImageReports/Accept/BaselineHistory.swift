import Foundation
import ImageCodecs

/// The history of a baseline folder, `BASELINE/.imglab-history/` (hidden, so a folder diff never
/// pairs its files): one ``AcceptanceRecord`` folder per acceptance or undo, holding the files as
/// they were before and after, so every earlier baseline stays retrievable.
///
/// How a change is made, so that a kill at any point leaves each baseline file whole, old or new,
/// and the next run completes the change (docs/safe-writes.md):
/// 1. Under an exclusive lock (`.imglab-history/.lock`), entries left ``AcceptanceRecord/State/applying``
///    by a killed run are finished, and staging folders it left are removed.
/// 2. The new entry is written into a staging folder (`.staging-PID-UUID`): the copies before and
///    after, then `record.json`; the staging folder is renamed to the entry's id in one `rename`.
/// 3. Each baseline file is replaced atomically (``OutputFile``) or removed.
/// 4. `record.json` is rewritten with the state `done`.
public struct BaselineHistory: Sendable {
    /// The baseline folder.
    public var baseline: String
    /// Called after each baseline file written or removed, with the count so far (the fault
    /// point of the kill tests, ``WriteFaultPoint``).
    public var afterWrite: (@Sendable (_ writes: Int) -> Void)?

    /// The history of `baseline`.
    public init(baseline: String, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) {
        self.baseline = baseline
        self.afterWrite = afterWrite
    }

    /// The history folder.
    public var folder: String { baseline + "/" + Self.folderName }
    /// The history folder's name inside the baseline folder.
    public static let folderName = ".imglab-history"

    /// One file's change, with its bytes before and after (`nil`: absent).
    struct FileChange {
        var path: String
        var before: [UInt8]?
        var after: [UInt8]?
    }

    /// Every entry, oldest first (none when the folder has no history).
    /// - Throws: ``AcceptError/history(_:)`` for an entry that cannot be read.
    public func entries() throws(AcceptError) -> [AcceptanceRecord] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var records: [AcceptanceRecord] = []
        for name in names.sorted() where Self.isEntryName(name) {
            records.append(try record(name))
        }
        return records
    }

    /// Records the changes `making` returns (called under the lock, after entries a killed run left
    /// unfinished are finished) as a new entry and applies them.
    /// - Returns: the new entry (`nil` when there is no change) and the ids of the entries finished.
    func commit(_ kind: AcceptanceRecord.Kind, actual: String?,
                making: () throws(AcceptError) -> (changes: [FileChange], undoes: String?))
        throws(AcceptError) -> (entry: AcceptanceRecord?, finished: [String]) {
        let lock = try locked()
        defer { lock.release() }
        let finished = try finishInterrupted()
        let (changes, undoes) = try making()
        guard !changes.isEmpty else { return (nil, finished) }
        let existing = try entries()
        let next = (existing.compactMap { Int($0.id) }.max() ?? 0) + 1
        let record = AcceptanceRecord(id: String(format: "%04d", next), time: Self.now(), kind: kind, actual: actual,
            undoes: undoes, state: .applying,
            files: changes.sorted { $0.path < $1.path }.map { .init(path: $0.path, before: $0.before?.count, after: $0.after?.count) })
        let staging = folder + "/.staging-\(getpid())-\(UUID().uuidString)"
        do {
            for change in changes {
                if let before = change.before { try write(before, to: staging + "/before/" + change.path) }
                if let after = change.after { try write(after, to: staging + "/after/" + change.path) }
            }
            try write(Self.json(record), to: staging + "/record.json")
            try FileManager.default.moveItem(atPath: staging, toPath: folder + "/" + record.id)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error as? AcceptError ?? .history("cannot record the entry in \(folder): \(error.localizedDescription)")
        }
        return (try apply(record), finished)
    }

    /// The entry `id` (or, when `nil`, the latest acceptance not undone yet) with the changes that undo it:
    /// each of its files back as it was before it.
    func undoing(_ id: String?) throws(AcceptError) -> (AcceptanceRecord, [FileChange]) {
        let all = try entries()
        let undone = Set(all.compactMap(\.undoes))
        let target: AcceptanceRecord
        if let id {
            guard let found = all.first(where: { $0.id == id || Int($0.id) == Int(id) }) else { throw .unknownEntry(id, folder) }
            target = found
        } else {
            guard let latest = all.last(where: { $0.kind == .accept && !undone.contains($0.id) }) else { throw .nothingToUndo(baseline) }
            target = latest
        }
        var changes: [FileChange] = []
        for file in target.files {
            let old = file.before == nil ? nil : try read(folder + "/" + target.id + "/before/" + file.path)
            let now = try BaselineAcceptance.current(baseline, file.path)
            if now != old { changes.append(FileChange(path: file.path, before: now, after: old)) }
        }
        return (target, changes)
    }

    /// Takes the history's lock, creating the history folder.
    private func locked() throws(AcceptError) -> FileLock {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch { throw .history("cannot create \(folder): \(error.localizedDescription)") }
        do { return try FileLock(folder + "/.lock") } catch { throw .write(error) }
    }

    /// Finishes every entry still applying, and removes staging folders of killed runs (under the lock).
    private func finishInterrupted() throws(AcceptError) -> [String] {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names where name.hasPrefix(".staging-") { try? FileManager.default.removeItem(atPath: folder + "/" + name) }
        }
        var finished: [String] = []
        for entry in try entries() where entry.state == .applying {
            _ = try apply(entry)
            finished.append(entry.id)
        }
        return finished
    }

    /// Puts every file of `entry` as it is after it, then marks it done. Idempotent.
    private func apply(_ entry: AcceptanceRecord) throws(AcceptError) -> AcceptanceRecord {
        var writes = 0
        for file in entry.files {
            let target = baseline + "/" + file.path
            if file.after != nil {
                let bytes = try read(folder + "/" + entry.id + "/after/" + file.path)
                try write(bytes, to: target)
            } else if unlink(target) != 0 && errno != ENOENT {
                throw .write(.io(path: target, reason: "cannot remove: \(String(cString: strerror(errno)))"))
            }
            writes += 1
            afterWrite?(writes)
        }
        var done = entry
        done.state = .done
        try write(Self.json(done), to: folder + "/" + entry.id + "/record.json")
        return done
    }

    private func record(_ id: String) throws(AcceptError) -> AcceptanceRecord {
        let path = folder + "/" + id + "/record.json"
        let bytes = try read(path)
        do {
            return try JSONDecoder().decode(AcceptanceRecord.self, from: Data(bytes))
        } catch { throw .history("\(path) is not an acceptance record: \(error)") }
    }

    private func read(_ path: String) throws(AcceptError) -> [UInt8] {
        do { return try ImageCodecs.readFile(path) } catch { throw .history("\(path): \(error)") }
    }

    /// Writes `bytes` atomically, creating the folders above it.
    private func write(_ bytes: [UInt8], to path: String) throws(AcceptError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch { throw .write(.io(path: parent, reason: "cannot create the folder: \(error.localizedDescription)")) }
        do { try OutputFile.write(bytes, to: path) } catch { throw .write(error) }
    }

    /// An entry's folder name: digits only.
    static func isEntryName(_ name: String) -> Bool { !name.isEmpty && name.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }

    static func json(_ record: AcceptanceRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(((try? encoder.encode(record)) ?? Data("{}".utf8)))
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
