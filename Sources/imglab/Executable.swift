import Foundation

/// The running imglab binary, for the child processes it starts itself (the scale profile runs
/// `imglab thumbnail`, `imglab resize` and `imglab decode` as children).
enum Executable {
    /// `/proc/self/exe` resolved, or the path the process was started with.
    static var path: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return CommandLine.arguments.first ?? "imglab"
    }

    /// `imglab-measure`, built beside imglab (`swift build` builds both).
    static var meter: String { (path as NSString).deletingLastPathComponent + "/imglab-measure" }
}
