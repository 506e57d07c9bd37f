import Foundation

/// Folders tests write in: each under one folder of the system's temporary folder that belongs
/// to this test process (`imglab-tests-PID`) and is removed, whatever is in it, when the process
/// exits, so a test that stops midway (a failed `#require`, a thrown error) leaves nothing either.
public enum ScratchFolder {
    /// This process's folder.
    public static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-tests-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchFolder.root) }
        return path
    }()

    /// A new, empty folder `PREFIX-UUID` under ``root``.
    /// - Throws: when it cannot be created.
    public static func new(_ prefix: String) throws -> URL {
        let url = URL(fileURLWithPath: root).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
