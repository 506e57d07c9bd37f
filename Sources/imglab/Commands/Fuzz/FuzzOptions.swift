import CommandLineOptions
import ImageCodecs
import ImageLab

/// The options of `imglab fuzz`, declared once (spellings, placeholder, help line, default,
/// validation), and the prose of its `--help`.
extension FuzzCommand {
    static let count = Option.integer("--count", "N", "inputs per pipeline", default: 10_000, in: 1...100_000_000)
    static let pipelines = Option.list("--pipeline", "LIST", "what each input goes through, comma-separated, or all "
        + "(default: decode)", FuzzPipeline.allCases.map { ($0.rawValue, $0) }, all: "all")
    static let containers = Option.list("--container", "LIST", "only seeds of these containers", ContainerFormat.byName)
    static let seed = Option.integer("--seed", "S", "run seed", default: 1, in: 0...Int.max)
    static let seeds = Option<String?>.text("--seeds", "DIR", "also use the image files under DIR as seeds")
    static let timeout = Option.integer("--timeout", "SECONDS", "an input taking longer is a hang: exit "
        + "3", default: 10, in: 1...3600)
    static let maxRSS = Option.integer("--max-rss-mib", "M", "fail when the process's peak resident memory exceeds M "
        + "MiB (each input is also held to the 64 MiB budget on its own; under AddressSanitizer, plus the quarantine "
        + "of freed memory it keeps resident, quarantine_size_mb of ASAN_OPTIONS)", default: 200, in: 1...1_000_000)
    static let replay = Option.integer("--replay", "I", "write input I to --out FILE instead of "
        + "fuzzing", default: 0, in: 0...Int.max).optional()
    static let out = Option<String?>.text("-o, --output", "FILE", "where --replay writes the input; written "
        + "atomically").alsoSpelled("--out").meaning(ImageOutput.path.meaning)
    static let saveCurrent = Option<String?>.text("--save-current", "FILE", "write each input to FILE before decoding "
        + "it, to keep a crasher")

    static let help = Help(about: """
        Runs N mutated inputs (bit flips, interesting bytes, truncation, header fields, chunk and segment
        shuffles, noise, splices, edited PNG rows, recomputed CRCs) of seed files in every container made by
        imglab's encoders and of the files under --seeds DIR through each chosen pipeline, the way its
        command runs: decode (the decoders), info (header only), thumbnail (--max-pixel-size 64 to PNG),
        resize (varying boxes and modes, to PNG) and diff (against the unmutated seed, with the diagnosis),
        under a 4-megapixel, 64 MiB budget. Every outcome must be a result or a typed error with a message.
        Input I is a pure function of (S, I): --replay I.
        """, exitStatus: """
          0 clean, 1 an input over the memory budget, the process over --max-rss-mib, or an error without a message,
          2 usage, 3 hang (a crash aborts the process)
        """,
        examples: ["imglab fuzz --count 100000 --seeds ../shared/corpus-external",
                   "imglab fuzz --pipeline all --count 2000",
                   "imglab fuzz --pipeline thumbnail,diff --replay 4711 --out crash.bin"], docs: "docs/fuzz.md")
}
