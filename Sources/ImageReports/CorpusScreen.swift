import ImageCorpus

/// What `imglab corpus` prints: the counts (`--stats`), a check's findings (`--check`), what was written.
public enum CorpusScreen {
    /// The lines for standard output and for standard error, and whether the command succeeded
    /// (a check that finds a missing, different or unexpected file fails).
    public static func lines(_ outcome: CorpusBuild.Outcome, folder: String,
                             profile: CorpusProfile) -> (out: [String], err: [String], passed: Bool) {
        var out: [String] = [], err: [String] = []
        if let stats = outcome.stats { out.append(stats.text) }
        if let report = outcome.check {
            err += report.missing.map { "missing:    \(folder)/\($0)" }
            err += report.differing.map { "different:  \(folder)/\($0.path) (first difference at byte \($0.offset))" }
            err += report.unexpected.map { "unexpected: \(folder)/\($0)" }
            guard report.passed else {
                err.append("imglab corpus: \(folder) does not match the \(profile.rawValue) profile: "
                    + "\(report.missing.count) missing, \(report.differing.count) different, "
                    + "\(report.unexpected.count) unexpected; run 'imglab corpus --profile \(profile.rawValue) --out "
                    + "\(folder)' to regenerate")
                return (out, err, false)
            }
            out.append("imglab corpus: \(folder) matches the \(profile.rawValue) profile bit for bit (\(report.checked) files)")
        }
        if let count = outcome.written {
            out.append("imglab corpus: wrote the \(profile.rawValue) profile to \(folder): \(outcome.corpus.cases.count) "
                + "cases, \(outcome.corpus.pairCount) (case, operation) pairs, \(count) files")
        }
        return (out, err, true)
    }
}
