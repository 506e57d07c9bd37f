import CImageShim
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of files written as one generation (docs/safe-writes.md): every file goes into a
/// fresh staging folder beside the target, and ``publish()`` swaps it in whole (one atomic
/// `renameat2(RENAME_EXCHANGE)` where the file system has it), then removes the old
/// generation. Until then the previous folder stays as it was; two writers never mix (the
/// last to publish wins, whole); stale pages never survive; a kill leaves only a staging
/// folder, which the next writer removes.
///
/// The target must be a new path, an empty folder, or a folder imglab wrote: one holding the
/// marker file ``marker`` or, from before the marker, only the entries of a report
/// (``knownEntries``). Anything else is refused, so a mistyped `--report ~` never replaces a
/// folder of the user's.
public struct OutputFolder: Sendable {
    /// The file every published generation holds.
    public static let marker = ".imglab-output"
    /// The entries a report folder held before the marker existed.
    public static let knownEntries: Set<String> = ["index.html", "pairs", "results", "league.json"]

    /// The folder being written.
    public let path: String
    /// Where this generation is staged until ``publish()``.
    public let staging: String
    /// The folders this writer created to hold the target (outermost first), removed again by
    /// ``abandon()`` when they are empty: a failed run leaves no empty `Reports/` behind.
    private let createdFolders: [String]

    /// Checks `path` and creates a fresh staging folder beside it (after removing the stale
    /// ones of killed writers).
    /// - Throws: ``EncodeError/refusedFolder(path:found:)`` when `path` is not a folder imglab
    ///   may replace, ``EncodeError/io(path:reason:)`` when the staging folder cannot be made.
    public init(_ path: String) throws(EncodeError) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        try Self.check(trimmed)
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        var missing: [String] = []
        var ancestor = URL(fileURLWithPath: parent)
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.path != "/" {
            missing.insert(ancestor.path, at: 0)
            ancestor = ancestor.deletingLastPathComponent()
        }
        createdFolders = missing
        do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
            throw .io(path: parent, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        StaleTemporaries.remove(in: parent, prefix: OutputFile.temporaryPrefix(url.lastPathComponent))
        self.path = trimmed
        staging = OutputFile.temporaryPath(folder: parent, name: url.lastPathComponent)
        guard mkdir(staging, 0o777) == 0 else {
            throw .io(path: trimmed, reason: "cannot create a staging folder beside it: \(String(cString: strerror(errno)))")
        }
    }

    /// Checks that `path` is new, an empty folder, or a folder imglab wrote (commands call it
    /// before their work, so a refused path costs nothing).
    /// - Throws: ``EncodeError/refusedFolder(path:found:)`` or ``EncodeError/io(path:reason:)``.
    public static func check(_ path: String) throws(EncodeError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFDIR else {
            throw .refusedFolder(path: path, found: kind == S_IFREG ? "a file, and a report is a folder (it writes "
                + "FOLDER/index.html)" : OutputFile.description(ofKind: kind))
        }
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw .io(path: path, reason: "cannot list the folder: \(error.localizedDescription)")
        }
        guard !entries.contains(marker) else { return }
        if let foreign = entries.sorted().first(where: { !knownEntries.contains($0) }) {
            throw .refusedFolder(path: path, found: "a folder imglab did not write (it holds '\(foreign)')")
        }
    }

    /// Writes `bytes` to `relative` (e.g. `pairs/a.html`) in the staging folder, creating its folders.
    public func write(_ bytes: [UInt8], to relative: String) throws(EncodeError) {
        let target = staging + "/" + relative
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .io(path: path + "/" + relative, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        try OutputFile.writeNew(bytes, to: target, folder: folder, name: url.lastPathComponent, keptMode: nil)
    }

    /// A file of the staging folder at `relative`, written in pieces (``OutputFileInPieces``);
    /// it is in the generation once committed.
    public func fileInPieces(_ relative: String) throws(EncodeError) -> OutputFileInPieces {
        let target = staging + "/" + relative
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .io(path: path + "/" + relative, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        return try OutputFileInPieces(unchecked: target, folder: folder, name: url.lastPathComponent, keptMode: nil)
    }

    /// Puts the staged generation at ``path`` and removes the previous one.
    /// - Throws: ``EncodeError/refusedTarget(path:found:)`` when something imglab may not
    ///   replace appeared at the path meanwhile, ``EncodeError/io(path:reason:)`` when the swap fails.
    public func publish() throws(EncodeError) {
        try write([], to: Self.marker)
        try Self.check(path)
        if rename(staging, path) == 0 { return }
        // The path exists (a folder: rename only replaces an empty one): swap the two whole.
        if imglab_exchange_paths(staging, path) == 0 {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        // No atomic exchange here: move the old aside, put the new in place, drop the old.
        let aside = staging + "-old"
        guard rename(path, aside) == 0 else { throw .io(path: path, reason: "cannot move the previous folder aside: \(String(cString: strerror(errno)))") }
        guard rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(aside, path)
            throw .io(path: path, reason: "cannot put the new folder in place: \(reason)")
        }
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// Removes the staging folder without publishing, and the folders created for it if they are empty.
    public func abandon() {
        try? FileManager.default.removeItem(atPath: staging)
        for folder in createdFolders.reversed() { _ = rmdir(folder) }  // rmdir removes only an empty folder
    }
}
