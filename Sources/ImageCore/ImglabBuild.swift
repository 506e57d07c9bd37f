/// Which imglab wrote a file: the version and the commit of this build, stated in every JSON
/// file and HTML page imglab writes and by `imglab --version`.
public enum ImglabBuild {
    /// The release version (semantic versioning).
    public static let version = "0.9.0"

    /// The commit this build comes from (`abc123def456`, `+changes` when the sources differed
    /// from it), or `unknown`. The `imglab` command sets it once at start, before any work; a
    /// library used on its own leaves it `unknown`.
    public nonisolated(unsafe) static var commit = "unknown"

    /// `0.9.0 (commit abc123def456)`: one line for reports and JSON.
    public static var identity: String { "\(version) (commit \(commit))" }
}
