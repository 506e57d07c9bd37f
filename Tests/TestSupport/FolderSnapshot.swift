import Foundation

/// Every regular file under a folder, by path relative to it, with its bytes: what two writes
/// of a report are compared by.
public enum FolderSnapshot {
    /// The files under `folder` (recursively), leaving out the relative paths in `except`.
    public static func files(_ folder: String, except: Set<String> = []) -> [String: Data] {
        var out: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder)?.allObjects ?? [] where !except.contains(relative) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            out[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
        }
        return out
    }
}
