import Foundation
import ImageCodecs

/// Goldens of pairs the corpus no longer has (a case or an operation renamed or dropped), and
/// golden files no index entry names: listed by `imglab bless --obsolete`, removed by
/// `imglab bless --prune`.
public struct ObsoleteGoldens: Sendable, Hashable {
    /// Pair ids in the index that are not pairs of the corpus, sorted.
    public var pairs: [String]
    /// Goldens those pairs hold.
    public var goldens: Int
    /// Files under `files/` that no remaining entry names (after the pairs are dropped), sorted,
    /// relative to the store.
    public var files: [String]

    /// Nothing obsolete.
    public var isEmpty: Bool { pairs.isEmpty && files.isEmpty }

    /// The lines for the terminal: the counts, each pair and file, and how to remove them.
    public func screen(store: String, removed: Bool) -> String {
        var lines = ["imglab bless: \(store): " + (isEmpty ? "nothing obsolete"
            : "\(pairs.count) obsolete pair(s) with \(goldens) golden(s), \(files.count) unreferenced file(s)" + (removed ? " removed" : ""))]
        lines += (pairs + files).map { "  " + $0 }
        if !removed, !isEmpty { lines.append("remove them with: imglab bless --prune (same --corpus and --goldens)") }
        return lines.joined(separator: "\n")
    }
}

extension GoldenStore {
    /// What is obsolete against `current`, the ids of every pair of the corpus.
    /// - Throws: ``StoreError/unreadable(_:)`` when the index cannot be read.
    public func obsolete(current: Set<String>) throws(StoreError) -> ObsoleteGoldens {
        try obsolete(in: try load(), current: current).report
    }

    /// Removes what is obsolete against `current`, under the store's lock: first the index without
    /// the obsolete pairs (written atomically), then each file no remaining entry names. A kill
    /// midway leaves every golden the index names in place; the files it left are removed by the
    /// next prune.
    /// - Returns: what was removed.
    /// - Throws: ``StoreError`` when the index cannot be read or written, or a file removed.
    @discardableResult
    public func prune(current: Set<String>) throws(StoreError) -> ObsoleteGoldens {
        guard FileManager.default.fileExists(atPath: folder + "/index.json") else { return try obsolete(current: current) }
        let lock: FileLock
        do { lock = try FileLock(folder + "/" + Self.lockFile) } catch { throw .write("\(error)") }
        defer { lock.release() }
        let found = try obsolete(in: try load(), current: current)
        if !found.report.pairs.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data: Data
            do { data = try encoder.encode(found.kept) } catch { throw .write("index: \(error)") }
            do { try ImageCodecs.writeAtomically([UInt8](data), to: folder + "/index.json") } catch { throw .write("index.json: \(error)") }
        }
        for file in found.report.files {
            do { try FileManager.default.removeItem(atPath: folder + "/" + file) } catch { throw .write("cannot remove \(file): \(error)") }
        }
        return found.report
    }

    /// The obsolete pairs and files of `index`, and the index without those pairs.
    private func obsolete(in index: Index, current: Set<String>) throws(StoreError) -> (report: ObsoleteGoldens, kept: Index) {
        var kept = index
        let gone = index.goldens.keys.filter { !current.contains($0) }.sorted()
        for pair in gone { kept.goldens[pair] = nil }
        let named = Set(kept.goldens.values.flatMap { $0.map(\.file) })
        var files: [String] = []
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder + "/files") {
            // Only the store's own files (HASH.png, 16 hex digits), never a user's.
            files = names.filter { Self.isGoldenFileName($0) && !named.contains("files/" + $0) }.sorted().map { "files/" + $0 }
        }
        let goldens = gone.reduce(0) { $0 + (index.goldens[$1]?.count ?? 0) }
        return (ObsoleteGoldens(pairs: gone, goldens: goldens, files: files), kept)
    }

    /// Whether `name` is a golden file's name: 16 lowercase hex digits and `.png`.
    static func isGoldenFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".png") else { return false }
        let stem = name.dropLast(4)
        return stem.count == 16 && stem.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}

extension Blessing {
    /// `imglab bless --obsolete` (`removing` false) or `--prune` (true): what is obsolete in the
    /// store against the corpus's pairs, removed when asked, as the lines for the terminal.
    /// - Throws: ``BlessError`` when the manifest or the store cannot be read, or the store written.
    public func obsolete(removing: Bool) throws(BlessError) -> String {
        let store = GoldenStore(folder: folder), current = try corpusPairs()
        do {
            let found = removing ? try store.prune(current: current) : try store.obsolete(current: current)
            return found.screen(store: folder, removed: removing)
        } catch { throw .store(error) }
    }

    /// The ids of every pair of the corpus (its whole manifest, whatever ``filter`` says).
    /// - Throws: ``BlessError/run(_:)`` when the manifest cannot be read.
    public func corpusPairs() throws(BlessError) -> Set<String> {
        do { return Set(LabPair.all(in: try LabRunner.manifest(corpus: corpus)).map(\.id)) } catch { throw .run(error) }
    }
}
