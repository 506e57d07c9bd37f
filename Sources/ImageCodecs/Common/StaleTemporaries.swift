import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary files and folders that a killed imglab left behind. Each temporary name is
/// `PREFIX` + the writing process's id + `-` + a random suffix (``OutputFile``,
/// ``OutputFolder``); one whose process no longer exists is stale and removed by the next
/// write beside it, so nothing a kill leaves survives the next run.
enum StaleTemporaries {
    /// Removes every entry of `folder` whose name starts with `prefix` and whose process is gone.
    static func remove(in folder: String, prefix: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, !isAlive(pid) else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + entry)
        }
    }

    /// Whether process `pid` exists (`kill(pid, 0)` fails with ESRCH when it does not).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
