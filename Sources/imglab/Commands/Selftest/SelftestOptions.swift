import CommandLineOptions
import Foundation
import ImageLab

/// The options of `imglab selftest`, declared once (spellings, placeholder, help line, default,
/// validation), and the prose of its `--help`.
extension SelftestCommand {
    static let report = SharedOptions.report("DIR/index.html, the kill matrix and each mutant's "
        + "history and misses (not with --profile scale, which prints its kill matrix)", default: "Reports/selftest")
    static let json = SharedOptions.json("write the kill matrix (schema imglab-selftest/1) to FILE (not with --profile "
        + "scale, which prints its kill matrix)")
    static let allPairs = Option.flag("--all-pairs", "run every mutant on every pair, not only its triggers; slower "
        + "(not with --profile scale, which runs its four mutants on every pair)")
    static let mutants = Option.list("--mutant", "IDS", "run only these mutants, by comma-separated ids; 'imglab "
        + "reproduce --list' tells their stories (not with --profile scale, which runs its four performance mutants)",
        MutantCatalogue.all.map { ($0.id, $0) })
    static let filter = Option<String?>.text("--filter", "PATTERN", "with --profile scale, only the pairs whose id "
        + "CASE/OPERATION matches: a glob (* and ?) or, without wildcards, a substring; several separated by commas "
        + "(the quick profile runs each mutant on every pair it triggers, so it takes no filter)",
        default: "every pair")
        .meaning(SharedOptions.filter.meaning)

    static let help = Help(about: """
        A harness earns trust by catching real bugs. Runs the built-in resizer over every pair (canaries
        first), then each mutant of the catalogue (the built-in resizer with one documented bug: pink tint,
        R↔B swap, premultiplication, orientation, 16-bit, sRGB averaging, …) over the pairs its triggers
        name, and prints the kill matrix: per mutant and gate family, named / caught / run. It passes when
        every mutant is caught and named on ≥ 90 % of its catches and the built-in resizer passes every pair.
        --profile quick runs the mutant catalogue over the committed corpus; --profile scale runs the
        performance mutants (right pixels, wrong cost) over the scale profile, each measured in a child
        process against the decode floor (see 'imglab run --profile scale').
        """, exitStatus: """
          0  every mutant caught and named (≥ 90 %), the built-in resizer passes every pair
          1  a mutant escaped, was misnamed too often, or the built-in resizer failed a pair
          2  usage error, or the run failed (corpus or gates unreadable, a canary passed)
        """, examples: ["imglab selftest                               the CI check, report in Reports/selftest/",
                        "imglab selftest --mutant argb-as-rgba,swap-rb --report none",
                        "imglab selftest --all-pairs --json /tmp/kill.json",
                        "imglab selftest --profile scale               the performance mutants: each must fail a scale "
                            + "pair, named by its cost"],
        docs: "docs/selftest-and-mutants.md")
}
