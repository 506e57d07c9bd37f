import Foundation
import ImageCodecs

/// What `imglab corpus --check` found: files that differ from a fresh generation.
public struct CorpusCheckReport: Sendable, Hashable {
    /// Generated files absent from the folder.
    public var missing: [String]
    /// Files whose bytes differ (the first differing byte offset, or the shorter length).
    public var differing: [(path: String, offset: Int)] { differingPaths.map { ($0.key, $0.value) }.sorted { $0.path < $1.path } }
    /// Files in the generated folders (`sources/`, `oracle/`) that the generation does not make.
    public var unexpected: [String]
    /// Files compared.
    public var checked: Int

    var differingPaths: [String: Int]

    /// Whether the folder matches bit for bit.
    public var passed: Bool { missing.isEmpty && differingPaths.isEmpty && unexpected.isEmpty }
}

/// Reading and writing a corpus folder. Only the generator's own files are touched: the
/// manifest, its schema, and everything under `sources/` and `oracle/`.
public enum CorpusFolder {
    /// Writes every file atomically, creating folders, and removes stale files under the
    /// generated folders. Returns the number of files written.
    /// - Throws: `EncodeError.io` or a file-system error with the path.
    @discardableResult
    public static func write(_ corpus: GeneratedCorpus, to folder: String) throws -> Int {
        let fm = FileManager.default
        let root = URL(fileURLWithPath: folder)
        for (path, bytes) in corpus.files.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let existing = try? Data(contentsOf: url), existing.elementsEqual(bytes) { continue }
            try ImageCodecs.writeAtomically(bytes, to: url.path)
        }
        for stale in generatedFiles(in: folder) where corpus.files[stale] == nil {
            try fm.removeItem(at: root.appendingPathComponent(stale))
        }
        return corpus.files.count
    }

    /// Compares the folder with a fresh generation, bit for bit.
    public static func check(_ corpus: GeneratedCorpus, against folder: String) -> CorpusCheckReport {
        let root = URL(fileURLWithPath: folder)
        var missing: [String] = []
        var differing: [String: Int] = [:]
        for (path, bytes) in corpus.files.sorted(by: { $0.key < $1.key }) {
            guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else { missing.append(path); continue }
            let disk = [UInt8](data)
            if disk != bytes {
                differing[path] = zip(disk, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(disk.count, bytes.count)
            }
        }
        let unexpected = generatedFiles(in: folder).filter { corpus.files[$0] == nil }
        return CorpusCheckReport(missing: missing, unexpected: unexpected, checked: corpus.files.count, differingPaths: differing)
    }

    /// Relative paths of every file under the generated folders.
    static func generatedFiles(in folder: String) -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for sub in CorpusGenerator.generatedFolders {
            let base = URL(fileURLWithPath: folder).appendingPathComponent(sub)
            guard let walker = fm.enumerator(atPath: base.path) else { continue }
            while let item = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if fm.fileExists(atPath: base.appendingPathComponent(item).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    out.append("\(sub)/\(item)")
                }
            }
        }
        return out.sorted()
    }
}
