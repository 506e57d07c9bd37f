import CommandLineOptions
import Foundation

/// The imglab command, for the child processes it starts itself (the scale profile runs
/// `imglab thumbnail`, `imglab resize` and `imglab decode` as children).
enum Executable {
    /// This process's binary: `/proc/self/exe` resolved, or the path it was started with.
    static var running: String {
        let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        if let resolved { return resolved }
        return CommandLine.arguments.first ?? "imglab"
    }

    /// The `imglab` launcher beside this binary (which starts the best build for the CPU, as a
    /// user's call does), or this binary when there is none.
    static var path: String {
        let launcher = folder + "/imglab"
        return FileManager.default.isExecutableFile(atPath: launcher) ? launcher : running
    }

    /// `imglab-measure`, built beside imglab (`swift build` builds both).
    static var meter: String { folder + "/imglab-measure" }

    /// A usage error unless ``meter`` is there: the scale profile measures each call with it.
    static func requireMeter() throws(UsageError) {
        guard FileManager.default.isExecutableFile(atPath: meter) else {
            throw UsageError("--profile scale needs \(meter), which measures each call; build it with 'swift build -c "
                + "release'")
        }
    }

    /// The folder of this binary.
    private static var folder: String { (running as NSString).deletingLastPathComponent }
}
