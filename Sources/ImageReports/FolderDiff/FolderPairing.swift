import Foundation
import ImageCodecs
import ImageLab

/// How `imglab diff EXPECTED_DIR ACTUAL_DIR` pairs the files of two folders: every regular file
/// under each folder (recursively; hidden files and folders, whose names start with `.`, and
/// symbolic links are left out) whose first bytes are a container imglab reads (PNG, JPEG, GIF,
/// TIFF, BMP: recognised by content, never by name), keyed by its path relative to its folder,
/// or by that path without its extension (``Match/stem``, so `a.png` pairs with `a.jpg`).
///
/// The pairs come sorted by key (Unicode scalar order), so the output does not depend on the
/// order the file system lists a folder in.
public enum FolderPairing {
    /// What a file's key is.
    public enum Match: String, Sendable, Hashable, Codable, CaseIterable {
        /// The relative path, extension included: `icons/a.png` pairs only with `icons/a.png`.
        case path
        /// The relative path without its last extension: `icons/a.png` pairs with `icons/a.jpg`.
        case stem
    }

    /// One key and the file on each side (relative paths; `nil` where the side has none).
    public struct Pair: Sendable, Hashable {
        /// The key: the relative path, or the relative path without extension (``Match/stem``).
        public var key: String
        /// The file's path relative to the expected folder, when it has one.
        public var expected: String?
        /// The file's path relative to the actual folder, when it has one.
        public var actual: String?

        /// A key and its files.
        public init(key: String, expected: String?, actual: String?) {
            self.key = key
            self.expected = expected
            self.actual = actual
        }

        /// Whether the glob `pattern` matches the key or either relative path (`fnmatch(3)` without
        /// flags: `*` and `?` also cross `/` and match leading dots; `[…]` classes), as
        /// `imglab accept` names and `--masks` patterns are read.
        public func matches(glob pattern: String) -> Bool {
            [key, expected, actual].contains { $0.map { fnmatch(pattern, $0, 0) == 0 } ?? false }
        }
    }

    /// The files of both folders, paired and sorted by key.
    /// - Throws: ``FolderDiffError/notAFolder(_:)`` when a folder cannot be listed, and
    ///   ``FolderDiffError/ambiguousStem(_:_:)`` when two images of one folder share a stem.
    public static func pairs(expected: String, actual: String, match: Match) throws(FolderDiffError) -> [Pair] {
        let e = try keyed(try images(in: expected), folder: expected, match: match)
        let a = try keyed(try images(in: actual), folder: actual, match: match)
        let keys = Set(e.keys).union(a.keys).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        return keys.map { Pair(key: $0, expected: e[$0], actual: a[$0]) }
    }

    /// The key of a relative path.
    public static func key(_ relative: String, match: Match) -> String {
        guard match == .stem else { return relative }
        let slash = relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex
        guard let dot = relative[slash...].lastIndex(of: "."), dot > slash else { return relative }
        return String(relative[..<dot])
    }

    static func keyed(_ files: [String], folder: String, match: Match) throws(FolderDiffError) -> [String: String] {
        var map: [String: String] = [:]
        for f in files {
            let k = key(f, match: match)
            if let other = map[k] {
                let both = [other, f].sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
                throw .ambiguousStem(folder, both)
            }
            map[k] = f
        }
        return map
    }

    /// The relative paths of the image files under `folder`, sorted.
    public static func images(in folder: String) throws(FolderDiffError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notAFolder(folder)
        }
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                if relative.isEmpty { throw .notAFolder(folder) }
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(folder + "/" + child, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(child)
                case S_IFREG:
                    if let head = try? ImageCodecs.readFile(folder + "/" + child, prefix: 8), ContainerFormat(sniffing: head) != nil {
                        found.append(child)
                    }
                default: continue
                }
            }
        }
        return found.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }
}

/// The two folders of `imglab diff EXPECTED_DIR ACTUAL_DIR` as the source of its pairs
/// (``FolderPairing``), sorted by key.
public struct FolderPairs: PairSource {
    /// The folder of expected images.
    public var expected: String
    /// The folder of actual images.
    public var actual: String
    /// How a file's key is made (``FolderPairing/Match``).
    public var match: FolderPairing.Match

    /// The two folders, paired by `match`.
    public init(expected: String, actual: String, match: FolderPairing.Match) {
        self.expected = expected
        self.actual = actual
        self.match = match
    }

    /// The files of both folders, paired and sorted by key (``FolderPairing/pairs(expected:actual:match:)``).
    public func pairs() throws(FolderDiffError) -> [FolderPairing.Pair] {
        try FolderPairing.pairs(expected: expected, actual: actual, match: match)
    }
}
