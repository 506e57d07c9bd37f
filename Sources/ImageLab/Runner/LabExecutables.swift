import Foundation

/// The binaries the scale profile runs as children (`imglab thumbnail`, `imglab resize`,
/// `imglab decode`, each measured by `imglab-measure`), found beside the running imglab.
public enum LabExecutables {
    /// This process's binary: `/proc/self/exe` resolved, or the path it was started with.
    static var running: String {
        let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        if let resolved { return resolved }
        return CommandLine.arguments.first ?? "imglab"
    }

    /// The `imglab` launcher beside this binary (which starts the best build for the CPU, as a
    /// user's call does), or this binary when there is none.
    public static var imglab: String {
        let launcher = folder + "/imglab"
        return FileManager.default.isExecutableFile(atPath: launcher) ? launcher : running
    }

    /// `imglab-measure`, built beside imglab (`swift build` builds both).
    public static var meter: String { folder + "/imglab-measure" }

    /// Why the scale profile cannot run with `meter` (it is not there); `nil` when it can.
    public static func meterProblem(_ meter: String = meter) -> String? {
        guard !FileManager.default.isExecutableFile(atPath: meter) else { return nil }
        return "--profile scale needs \(meter), which measures each call; build it with 'swift build -c release'"
    }

    /// The folder of this binary.
    private static var folder: String { (running as NSString).deletingLastPathComponent }
}
