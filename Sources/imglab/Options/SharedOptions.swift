import Foundation
import ImageCodecs
import ImageCorpus
import ImageLab

/// Options several commands declare alike.
enum SharedOptions {
    static let threads = Option.integer("--threads", "N", "worker threads; the results do not depend on it",
                                        default: ProcessInfo.processInfo.activeProcessorCount, shownAs: "the number of cores", in: 1...256)
    static let corpus = Option.text("--corpus", "DIR", "the corpus folder (manifest.json, gates.json); make it with 'imglab corpus'",
                                    default: "Corpus")
    static let maxMemory = Option.byteCount("--max-memory", "BYTES", "the memory budget: the most a command may hold for the file, its pixels and its working buffers; a file that needs more is refused before anything is allocated (bytes, or with K, M, G)",
                                            default: DecodeLimits.default.maxBytes, in: (1 << 20)...(1 << 40))
    static let filter = Option<String?>.text("--filter", "PATTERN", "only the pairs whose id CASE/OPERATION matches: a glob (* and ?) or, without wildcards, a substring; several separated by commas",
                                             default: "every pair")
}

extension SharedOptions {
    /// `--resizer R`: an adapter of ``ResizerChoice``, or the usage error saying what is wrong.
    static func resizer(_ help: String) -> Option<(any Resizer)?> {
        .parsed("--resizer", "R", help) { text throws(UsageError) in try adapter(text) }
    }

    /// `--resizer-config FILE`: an external resizer's config (the same as `--resizer config:FILE`).
    static let resizerConfig = Option<(any Resizer)?>.parsed("--resizer-config", "FILE", "an external resizer's JSON config: its templates and declared policies (lightSpace linear|srgb, rounding builtin|floor|round|ceil, appliesOrientation, operations, containers, firstFrameOnly); the gates honour them and label every pair they change 'policy: …'; ready configs in benchmarks/resizers/") { text throws(UsageError) in
        try adapter("config:" + text)
    }

    private static func adapter(_ spec: String) throws(UsageError) -> any Resizer {
        do throws(ResizerConfigError) { return try ResizerChoice.adapter(spec) } catch { throw UsageError(error.description) }
    }

    /// `--profile P`: a corpus profile.
    static let profile = Option.choice("--profile", "P", "the corpus profile: quick is the CI gate, committed in Corpus/; full has every combination, for sharded runs",
                                       default: ("quick", CorpusProfile.quick), [("full", .full)])

    /// `--report DIR`, where `none` skips the report.
    static func report(_ help: String, default described: String) -> Option<String?> {
        .text("--report", "DIR", help + "; 'none' to skip it", default: described)
    }
}
