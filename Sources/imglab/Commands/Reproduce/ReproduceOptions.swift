import CommandLineOptions
import ImageLab

/// The prose of `imglab reproduce --help`.
extension ReproduceCommand {
    static var help: Help {
        Help(about: """
            Reproduces one documented resizer bug (D1–D13, B1–B29): the catalogue's mutants of topic BUG run
            on every corpus pair that triggers them, judged as 'imglab run' does, and up to N pairs are shown
            beside the built-in resizer's output in ONE self-contained HTML file, with the number that exposes
            the bug and the diagnosis. It reproduces when every mutant is caught and named on ≥ 90 % of its
            catches, the 'imglab selftest' rule. BUGS: \(Reproduction.topics.joined(separator: ", "))
            """, exitStatus: """
              0  the bug reproduced: caught and named
              1  it did NOT reproduce: the lab missed it or named something else (news: look at the report)
              2  bad usage (an unknown BUG lists the known ones), or the corpus cannot be read
            """, examples: ["imglab reproduce --list",
                            "imglab reproduce channel-swap                 red and blue swapped; "
                                + "Reports/reproduce-channel-swap/",
                            "imglab reproduce pink-tint --report /tmp/pink",
                            "imglab reproduce orientation --pairs 24 --json orientation.json"],
            docs: "docs/reproduce.md")
    }
}
