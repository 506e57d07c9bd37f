import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary files and folders that a killed imglab left behind. Each temporary name is
/// `.NAME.imglab-` + the writing process's id + `-` + random base-36 digits (``OutputFile``,
/// ``OutputFolder``, whose previous generation may wait aside with `-old` appended); one whose process no longer exists is stale and removed by the next write
/// into the same folder, whatever its NAME, so nothing a kill leaves survives the next run there.
enum StaleTemporaries {
    /// Removes every entry of `folder` named as a temporary of imglab whose process is gone.
    static func remove(in folder: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for entry in entries where entry.hasPrefix(".") {
            guard let marker = entry.range(of: ".imglab-", options: .backwards) else { continue }
            let rest = entry[marker.upperBound...]
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { continue }
            let suffix = rest[rest.index(after: dash)...]
            guard !suffix.isEmpty, suffix.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLowercase || $0 == "-") }), !isAlive(pid) else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + entry)
        }
    }

    /// Whether process `pid` exists (`kill(pid, 0)` fails with ESRCH when it does not).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
