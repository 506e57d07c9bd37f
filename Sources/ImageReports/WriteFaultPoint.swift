import CommandLineOptions
import Foundation

/// The fault point of `imglab bless` and `imglab run`: with `IMGLAB_FAULT_AFTER_WRITES=N` in the
/// environment the process kills itself with SIGKILL right after its N-th file write (N ≥ 1;
/// bless: golden PNGs first, then the index; run: report pages, the index page, JSON, JUnit, then the report
/// folder's swap), ending exactly as a crash or `kill -9` at that point would. It exists for the
/// crash-safety tests (`BlessCommandTests`, `ReportGenerationCommandTests`), which pick every
/// point they check instead of racing a kill from outside; docs/goldens.md describes it.
public enum WriteFaultPoint {
    /// The environment variable that arms it.
    public static let variable = "IMGLAB_FAULT_AFTER_WRITES"

    /// The hook for ``GoldenStore/afterWrite``: nil when the variable is unset.
    /// - Throws: ``UsageError`` when the variable is not a positive integer.
    public static func fromEnvironment() throws(UsageError) -> (@Sendable (_ writes: Int) -> Void)? {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        guard let limit = Int(text), limit > 0 else { throw UsageError("\(variable) must be a positive integer, not "
            + "'\(text)'") }
        return { writes in
            if writes >= limit { kill(getpid(), SIGKILL) }
        }
    }
}
