import CommandLineOptions
import ImageCorpus
import ImageReports

/// `imglab corpus`: generate the lab's corpus (sources, oracle images, manifest), verify a
/// committed one bit for bit, or count its cases.
enum CorpusCommand: Command {
    static let name = "corpus"
    static let summary = "generate the test corpus and its analytic oracles, or verify Corpus/ bit for bit"
    static let out = Option.text("--out", "DIR", "the corpus folder", default: "Corpus")
    static let check = Option.flag("--check", "regenerate in memory and compare with DIR bit for bit; writes nothing")
    static let stats = Option.flag("--stats", """
        print the number of cases per container, pixel format, orientation, scene, encoding, document failure \
        (D1–D13) and bug class (B1–B29), and per container the sources that store hidden colour under α = 0 \
        (read back from the generated files) and their twins; alone, writes nothing
        """).meaning("count the corpus's cases")
    static let options: [any OptionDeclaration] = [SharedOptions.profile, out, check, stats, SharedOptions.threads]
    static let help = Help(about: """
        Renders every case of the profile from analytic scenes into its container and pixel format
        (palettes, 1–16-bit and float samples, straight and premultiplied alpha, CMYK, eight orientations),
        and the oracle of every (case, operation) pair straight from the scene, with exact area coverage in
        linear light, into DIR/sources/ (and CASE.twin.EXT: other colours under α = 0), DIR/oracle/ and
        DIR/manifest.json. The same bytes on every run and for any thread count; stale files under
        DIR/sources and DIR/oracle are removed.
        """, exitStatus: """
          0  success (with --check: the folder matches)
          1  --check finds a missing, different or unexpected file, or generation fails
          2  a usage error
        """, examples: ["imglab corpus                          regenerate Corpus/ (the quick profile)",
                        "imglab corpus --check                  what CI runs: Corpus/ must match bit for bit",
                        "imglab corpus --stats", "imglab corpus --profile full --out /tmp/corpus-full --threads 2"],
        docs: "docs/corpus.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        guard let profile = try SharedOptions.profile(args, accepting: [.quick, .full]).corpus else { return .usage }
        let folder = try args.value(out), checks = try args.value(check)
        let action: CorpusBuild.Action = checks ? .check : try args.value(stats) && !args.has(out) ? .none : .write
        let build = CorpusBuild(profile: profile, folder: folder, action: action, counts: try args.value(stats),
            threads: try args.value(SharedOptions.threads))
        let outcome: CorpusBuild.Outcome
        do { outcome = try build.run() } catch {
            printError("imglab corpus: \(error)")
            return .failure
        }
        let screen = CorpusScreen.lines(outcome, folder: folder, profile: profile)
        screen.out.forEach { print($0) }
        screen.err.forEach(printError)
        guard screen.passed else { return .failure }
        return .ok
    }
}
