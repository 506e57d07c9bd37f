import Foundation
import ImageCodecs
import ImageReports

/// Writes to standard error; file names in it come out as the bytes the file system holds.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(FileSystemName.bytes(message + "\n")))
}

/// Terminal output from worker threads, one write at a time.
enum Console {
    private static let lock = NSLock()
    static func line(_ s: String) { raw(s + "\n") }
    static func raw(_ s: String) {
        guard !s.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardOutput.write(Data(s.utf8))
    }
}

extension OutputPaths {
    /// Writes a text output of `--json FILE` (and the like): printed for `-`, else written
    /// atomically with a final newline; nothing without a path. False, with the error printed,
    /// when the file cannot be written.
    static func writeText(_ text: String, to path: String?, command: String) -> Bool {
        guard let path else { return true }
        if path == OutputFile.standardOutput { print(text); return true }
        do { try ImageCodecs.writeAtomically(Array((text + "\n").utf8), to: path) } catch {
            printError("imglab \(command): \(error)")  // the error names the path
            return false
        }
        return true
    }
}
