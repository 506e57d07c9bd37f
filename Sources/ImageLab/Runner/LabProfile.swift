import ImageCorpus

/// What `--profile` names, one meaning in every command that takes it: the corpus's `quick`
/// profile (committed, the CI gate) or `full` profile (every combination, for sharded runs), or
/// the `scale` profile (sources of 24 to 96 megapixels streamed into a temporary folder, each
/// resizer call measured in a child process against a decode floor).
public enum LabProfile: String, Sendable, Hashable, CaseIterable {
    case quick, full, scale

    /// The corpus profile, for `quick` and `full`.
    public var corpus: CorpusProfile? {
        switch self {
        case .quick: return .quick
        case .full: return .full
        case .scale: return nil
        }
    }
}
