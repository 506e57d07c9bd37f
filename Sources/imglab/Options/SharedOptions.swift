import CommandLineOptions
import Foundation
import ImageCodecs
import ImageCorpus
import ImageLab
import ImageReports

/// Options several commands declare alike.
enum SharedOptions {
    static let threads = Option.integer("--threads", "N", "worker threads; the results do not depend on it",
        default: ProcessInfo.processInfo.activeProcessorCount, shownAs: "the number of cores", in: 1...256)
    static let corpus = Option<String?>.text("--corpus", "DIR", "the corpus folder (manifest.json, gates.json); make "
        + "one with 'imglab corpus --out DIR'", default: "./Corpus when it holds the profile, else the one generated "
        + "into imglab's cache folder (docs/corpus.md)")
    static let maxMemory = Option.byteCount("--max-memory", "BYTES", "the memory budget: the most a command may hold "
        + "for the file, its pixels and its working buffers; a file that needs more is refused before anything is "
        + "allocated (bytes, or with K, M, G)", default: DecodeLimits.default.maxBytes, in: (1 << 20)...(1 << 40))
    static let maxPixels = Option.integer("--max-pixels", "N", "refuse frames larger than N pixels",
        default: DecodeLimits.default.maxPixels, shownAs: "268402689 = 16383²", in: 1...Int.max)
    static let filter = Option<String?>.text("--filter", "PATTERN", "only the pairs whose id CASE/OPERATION matches: a "
        + "glob (* and ?) or, without wildcards, a substring; several separated by commas", default: "every pair")

    static let ciOutput = Option.choice("--ci-output", "FORMAT", "github: failures as GitHub Actions annotations and a "
        + "step summary (docs/diff.md, docs/run.md); auto: github when GITHUB_ACTIONS=true; none: neither",
        default: ("auto", CIOutput.Mode.auto), [("github", .github), ("none", .none)])
        .meaning("failures also in the CI service's own formats")

    /// What `--resizer` means wherever it is declared.
    static let resizerMeaning = "the resizer judged: builtin, mutant:ID, cmd:'TEMPLATE', config:FILE or a bundled "
        + "config's name"

    /// `--resizer R`: an adapter of ``ResizerChoice``, or the usage error saying what is wrong.
    static func resizer(_ help: String) -> Option<(any Resizer)?> {
        .parsed("--resizer", "R", help) { text throws(UsageError) in try adapter(text) }.meaning(resizerMeaning)
    }

    /// `--resizer-config FILE`: an external resizer's config (the same as `--resizer config:FILE`).
    static let resizerConfig = Option<(any Resizer)?>.parsed("--resizer-config", "FILE", "an external resizer's JSON "
        + "config: its templates and declared policies (lightSpace linear|srgb, rounding builtin|floor|round|ceil, "
        + "appliesOrientation, operations, containers, firstFrameOnly); the gates honour them and label every pair "
        + "they change 'policy: …'; ready configs are built in: --resizer vipsthumbnail, imagemagick, pillow, "
        + "imglab-cli (files in benchmarks/resizers/)") { text throws(UsageError) in
        try adapter("config:" + text)
    }

    private static func adapter(_ spec: String) throws(UsageError) -> any Resizer {
        do throws(ResizerConfigError) { return try ResizerChoice.adapter(spec) } catch {
            throw UsageError(error.description)
        }
    }

    /// `--profile P`, the same three words in every command (``LabProfile``); a command that takes
    /// only some reads it with ``profile(_:accepting:)``.
    static let profile = Option.choice("--profile", "P", "quick: the committed corpus, the CI gate; full: every "
        + "combination, for sharded runs; scale: sources of 24 to 96 megapixels, each call measured in a child process",
        default: ("quick", LabProfile.quick), [("full", .full), ("scale", .scale)])
        .meaning("the corpus profile: quick, full or scale (each command says which it takes)")

    /// `--profile`, refused with a usage error when the command does not take the profile given.
    static func profile(_ args: Arguments, accepting accepted: [LabProfile]) throws(UsageError) -> LabProfile {
        let chosen = try args.value(profile)
        guard accepted.contains(chosen) else {
            let words = accepted.map(\.rawValue).joined(separator: " or ")
            throw UsageError("--profile must be \(words) here, not '\(chosen.rawValue)'")
        }
        return chosen
    }

    /// `--goldens DIR`: the golden store of `imglab bless`.
    static let goldens = Option<String?>.text("--goldens", "DIR", "the golden store of 'imglab bless' (DIR/index.json, "
        + "DIR/files/)", default: "CORPUS/goldens")

    /// `--report DIR`: a report folder (DIR/index.html first), written whole over a new, empty
    /// or imglab-written folder; `none` skips it.
    static func report(_ help: String, default described: String?) -> Option<String?> {
        .text("--report", "DIR", "the HTML report folder: " + help + "; written whole, only over a new, empty or "
            + "imglab-written folder; 'none' skips it", default: described)
    }

    /// `--json FILE`: a results file written atomically, or `-` for standard output. A value that
    /// names an image (`--json photo.png`, where `--json` was meant as a flag) is refused, so
    /// an input is never taken for the output.
    static func json(_ help: String) -> Option<String?> {
        .parsed("--json", "FILE", help + "; written atomically; - prints it on standard "
            + "output") { text throws(UsageError) in try OutputPaths.textFile(text, option: "--json") }
            .meaning("the command's results as JSON, to FILE (-: standard output)")
    }

    /// `--junit FILE`: JUnit XML written atomically.
    static func junit(_ help: String) -> Option<String?> {
        .text("--junit", "FILE", help + "; written atomically").meaning("JUnit XML for CI, to FILE")
    }

    /// `--gates FILE`: a gates file (schema imglab-gates/1) to judge by instead of the corpus's `gates.json`.
    static let gates = Option<String?>.text("--gates", "FILE", "judge by this gates file (schema imglab-gates/1; start "
        + "from a copy of the corpus's gates.json) instead of the corpus's own", default: "CORPUS/gates.json, or the "
        + "reviewed gates built into imglab")
}

extension SharedOptions {
    /// The corpus folder of a command (``CorpusLocation``): `--corpus`, `./Corpus`, or the cached
    /// one, generated first; prints how it was found when it is not the user's.
    static func corpusFolder(_ args: Arguments, command: String,
        profile: CorpusProfile = .quick) throws(UsageError) -> String {
        let given = try args.value(corpus), workers = try args.value(threads)
        do throws(RunError) {
            let found = try CorpusLocation.resolve(given, profile: profile, threads: workers)
            if let note = found.note { printError("imglab \(command): \(note)") }
            return found.folder
        } catch { throw UsageError(error.description, pointsToHelp: false) }
    }
}
