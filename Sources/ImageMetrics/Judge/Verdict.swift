/// The one verdict vocabulary: every pair any command judges — a corpus pair of `imglab run`, a
/// scale pair, a file of a folder diff, the two files of `imglab diff`, an `expectImage` call —
/// ends `pass`, `fail` or `error`. Each command's finer words (`changed-closer`, `within-gate`,
/// `new`, …) refine one of the three and say which (``PairResult``'s verdict, the folder diff's
/// status, ``Judgement/Verdict``), so the exit status, the JUnit outcome and the report's badge
/// of every command follow from the same three values (``ExitRule``).
public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Within the gate (without a gate: identical by value), and nothing else against it.
    case pass
    /// A finding: outside the gate, a different size or frame count, a file only on one side,
    /// an output further from the oracle than every golden.
    case fail
    /// The pair could not be judged: a file that cannot be read or decoded, a resizer that threw,
    /// a gate metric with no value for these images.
    case error

    /// Whether the verdict makes the command's exit status non-zero (``ExitRule``).
    public var fails: Bool { self != .pass }
}

/// The one exit rule of every command that judges pairs (`run`, `merge`, `selftest`'s runs,
/// `diff` of two files or two folders, `league`'s rows), and of the status every report and
/// JUnit file states:
///
/// - 0: every pair passed;
/// - 1: a pair failed or could not be judged (``Verdict/fail``, ``Verdict/error``);
/// - 2: the command could not judge at all: bad usage, an unreadable corpus, gates file or input
///   given on the command line, metric canaries that failed (no gate can be trusted), a gate
///   that cannot be evaluated on the one pair it was given.
public enum ExitRule {
    /// The status of a command that could not judge at all.
    public static let couldNotJudge: Int32 = 2

    /// The status of these verdicts: 0 when none fails, else 1.
    public static func status<S: Sequence>(_ verdicts: S) -> Int32 where S.Element == Verdict {
        verdicts.contains { $0.fails } ? 1 : 0
    }

    /// The status of a count of pairs whose verdict is not ``Verdict/pass``.
    public static func status(failing: Int) -> Int32 { failing > 0 ? 1 : 0 }
}
