import ImageCorpus
import Foundation
import ImageLab

/// `imglab corpus`: generate the lab's corpus (sources, oracle images, manifest), verify a
/// committed one bit for bit, or count its cases.
enum CorpusCommand: Command {
    static let name = "corpus"
    static let summary = "generate the test corpus and its analytic oracles, or verify Corpus/ bit for bit"
    static let help = """
    USAGE: imglab corpus [--profile quick|full] [--out DIR] [--check] [--stats] [--threads N]

    Renders every case of the profile from analytic scenes (continuous functions of position,
    straight RGBA in linear light), stores each in its container and pixel format (PNG, JPEG,
    GIF, TIFF, BMP, APNG; palettes, 1–16-bit and float samples, straight and premultiplied
    alpha, CMYK, all eight orientations where the container records one), and renders the ideal
    output of every (case, operation) pair — the oracle — directly from the scene with exact area
    coverage in linear light, sized by the resizer's declared rounding rule. Writes:
      DIR/sources/CASE.EXT                  the corpus files
      DIR/sources/CASE.twin.EXT             the same file with other colours under α = 0
      DIR/oracle/CONTENT/OPERATION.png      oracle images (16-bit RGBA, sRGB-encoded, straight)
      DIR/manifest.json                     every case, its expected decode, tags and oracles
      DIR/manifest.schema.json              the JSON schema of the manifest
    Output is identical, byte for byte, on every run and for any thread count. Stale files
    under DIR/sources and DIR/oracle are removed; other files in DIR are left alone.

    OPTIONS:
      --profile P      quick (default: the CI gate, committed in Corpus/) or full (every
                       combination, 96×64, for sharded runs; not committed)
      --out DIR        the corpus folder (default: Corpus)
      --check          regenerate in memory and compare with DIR bit for bit; writes nothing
      --stats          print the number of cases per container, pixel format, orientation,
                       scene, encoding, document failure (D1–D13) and bug class (B1–B29), and
                       per container the sources that store hidden colour under α = 0 (read
                       back from the generated files) and their twins; alone, writes nothing
      --threads N      threads to render with (default: the number of cores); the output does
                       not depend on it

    EXIT STATUS: 0 on success (with --check: the folder matches), 1 when --check finds a
    missing, different or unexpected file or generation fails, 2 on a usage error.

    EXAMPLES:
      imglab corpus                          regenerate Corpus/ (the quick profile)
      imglab corpus --check                  what CI runs: Corpus/ must match bit for bit
      imglab corpus --stats
      imglab corpus --profile full --out /tmp/corpus-full --threads 2
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--profile", "--out", "--threads"], flags: ["--check", "--stats"])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let profileName = args.value("--profile") ?? "quick"
        guard let profile = CorpusProfile(rawValue: profileName) else {
            throw UsageError("--profile must be quick or full, not '\(profileName)'")
        }
        let folder = args.value("--out") ?? "Corpus"
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
        let check = args.flag("--check"), stats = args.flag("--stats")

        let corpus: GeneratedCorpus
        do { corpus = try CorpusGenerator.generate(profile, threads: threads) } catch {
            printError("imglab corpus: generation failed: \(error)")
            return .failure
        }
        if stats { print(CorpusStats(corpus).text) }
        if check {
            let report = CorpusFolder.check(corpus, against: folder)
            for path in report.missing { printError("missing:    \(folder)/\(path)") }
            for d in report.differing { printError("different:  \(folder)/\(d.path) (first difference at byte \(d.offset))") }
            for path in report.unexpected { printError("unexpected: \(folder)/\(path)") }
            if report.passed {
                print("imglab corpus: \(folder) matches the \(profile.rawValue) profile bit for bit (\(report.checked) files)")
                return .ok
            }
            printError("imglab corpus: \(folder) does not match the \(profile.rawValue) profile: \(report.missing.count) missing, \(report.differing.count) different, \(report.unexpected.count) unexpected; run 'imglab corpus --profile \(profile.rawValue) --out \(folder)' to regenerate")
            return .failure
        }
        if stats && args.value("--out") == nil { return .ok }
        do {
            let count = try CorpusFolder.write(corpus, to: folder)
            print("imglab corpus: wrote the \(profile.rawValue) profile to \(folder): \(corpus.cases.count) cases, \(corpus.pairCount) (case, operation) pairs, \(count) files")
        } catch {
            printError("imglab corpus: cannot write \(folder): \(error)")
            return .failure
        }
        return .ok
    }
}
