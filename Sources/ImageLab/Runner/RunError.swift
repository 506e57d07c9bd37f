import ImageCorpus
/// Why a run could not judge the resizer (exit status 2): the run itself failed, as opposed to
/// a gate failing (exit status 1).
public enum RunError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A filter or shard that cannot be used.
    case badSelection(String)
    /// Settings that do not go together (``LabRun/problem``), or a resizer the profile cannot run.
    case request(String)
    /// The corpus folder or its manifest cannot be read.
    case corpus(String)
    /// The gates file is missing, malformed, or names an unknown metric.
    case gates(String)
    /// The corpus folder holds another profile than the run asks for.
    case corpusProfile(String)
    /// The golden store exists but cannot be read.
    case goldens(String)
    /// The filter and shard selected no pair.
    case nothingSelected(String)
    /// Fail closed: a metric canary failed (a metric cannot tell pairs apart), so no gate is trusted.
    case metricCanaries([String])
    /// Fail closed: a canary pair that must fail passed its gate, so the gates cannot catch that bug.
    case canaryPassed([String])
    /// A streamed run's sink (``PairSink``) could not keep a pair: its results cannot be written.
    case output(String)

    public var description: String {
        switch self {
        case .badSelection(let why): return "bad selection: \(why)"
        case .corpus(let why): return "corpus: \(why)"
        case .gates(let why): return "gates: \(why)"
        case .corpusProfile(let why), .goldens(let why), .request(let why): return why
        case .nothingSelected(let why): return "no (case, operation) pair selected: \(why)"
        case .metricCanaries(let failures):
            return "metric canaries failed, so no gate can be trusted: " + failures.joined(separator: "; ")
        case .canaryPassed(let pairs):
            return "canary pairs that must fail passed their gates (the gates cannot catch these bugs): " + pairs.joined(separator: "; ")
        case .output(let why): return "cannot write the results: \(why)"
        }
    }
}
