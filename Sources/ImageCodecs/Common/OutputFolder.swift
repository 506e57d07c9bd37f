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
/// The target must be a new path, an empty folder, or a folder holding nothing but what imglab
/// wrote there: every published generation lists its files in the manifest ``marker``, and a
/// folder holding anything the manifest does not list (a user's note beside the pages, a
/// symbolic link, a folder of the user's) is refused with that entry named, so a mistyped
/// `--report ~` or a note kept in a report folder is never replaced. A folder whose marker
/// predates the manifest (an empty file) is accepted when it holds only the files a report is
/// made of, by name (``isReportFile(_:)``); without a marker, only an empty folder is.
public struct OutputFolder: Sendable {
    /// The manifest every published generation holds: a JSON object whose `files` lists the
    /// relative path of every file of the generation (the manifest itself aside).
    public static let marker = ".imglab-output"
    /// The schema of the manifest.
    public static let manifestSchema = "imglab-output-folder/1"

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
        StaleTemporaries.remove(in: parent)
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
        try OutputFile.checkNameLength(path)
        try checkOutside(path)
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
        let entries = try Self.entries(of: path)
        guard let first = entries.first else { return }
        guard entries.contains(where: { $0.path == marker && !$0.isFolder }) else {
            throw .refusedFolder(path: path, found: "a folder imglab did not write (it holds '\(first.path)')")
        }
        let listed = try Self.listedFiles(path + "/" + marker)
        for entry in entries where entry.path != marker {
            let ours = entry.isFolder ? listed.contains { $0.hasPrefix(entry.path + "/") } || listed.isEmpty
                : listed.contains(entry.path) || (listed.isEmpty && Self.isReportFile(entry.path))
            if !ours {
                throw .refusedFolder(path: path, found: "a folder holding a file imglab did not write: '\(entry.path)' "
                    + "(kept; move it, or choose another folder)")
            }
        }
    }

    /// Refuses a folder inside another folder imglab writes whole (one holding ``marker``: a report,
    /// a generated corpus) or inside a corpus (a folder holding `manifest.json` and `gates.json`):
    /// a page added there would be lost, or would block, when that folder is written again.
    private static func checkOutside(_ path: String) throws(EncodeError) {
        var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        while true {
            let base = folder.path
            let holds = { (name: String) in FileManager.default.fileExists(atPath: base + "/" + name) }
            if holds(marker) || (holds("manifest.json") && holds("gates.json")) {
                throw .refusedFolder(path: path, found: "a path inside \(base), which imglab writes whole (a corpus or a "
                    + "report folder); choose a folder outside it")
            }
            if base == "/" || base.isEmpty { return }
            folder = folder.deletingLastPathComponent()
        }
    }

    /// Every entry under `folder`, relative, sorted, with whether it is a folder (a symbolic
    /// link is an entry of its own, never followed).
    private static func entries(of folder: String) throws(EncodeError) -> [(path: String, isFolder: Bool)] {
        var found: [(path: String, isFolder: Bool)] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? folder : folder + "/" + relative) } catch {
                throw .io(path: folder, reason: "cannot list the folder: \(error.localizedDescription)")
            }
            for name in names {
                let entry = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                let isFolder = lstat(folder + "/" + entry, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                found.append((entry, isFolder))
                if isFolder { pending.append(entry) }
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The files a manifest lists; empty for the empty marker of an earlier imglab.
    /// - Throws: ``EncodeError/refusedFolder(path:found:)`` for a manifest that cannot be read.
    private static func listedFiles(_ manifest: String) throws(EncodeError) -> Set<String> {
        var info = stat()
        guard lstat(manifest, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: manifest) else {
            throw .refusedFolder(path: manifest, found: "an imglab manifest that is not a readable file")
        }
        if data.isEmpty { return [] }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["schema"] as? String == manifestSchema, let files = object["files"] as? [String] else {
            throw .refusedFolder(path: manifest, found: "a manifest imglab cannot read (not \(manifestSchema))")
        }
        return Set(files)
    }

    /// Whether `relative` is, by its name, a file of a report written before the manifest: the
    /// index, the results and JUnit files, a league's tables, a pair's page.
    static func isReportFile(_ relative: String) -> Bool {
        if ["index.html", "results.json", "junit.xml", "league.json"].contains(relative) { return true }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == "results" { return parts[1].hasSuffix(".json") }
        return parts.count >= 2 && parts[0] == "pairs" && relative.hasSuffix(".html")
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
        // Everything in the staging folder was written by this generation: the manifest lists it.
        let files = try Self.entries(of: staging).filter { !$0.isFolder }.map(\.path)
        guard let manifest = try? JSONSerialization.data(withJSONObject: ["schema": Self.manifestSchema, "files": files],
                                                         options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]) else {
            throw .io(path: path, reason: "cannot encode the folder's manifest")
        }
        try write([UInt8](manifest), to: Self.marker)
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
