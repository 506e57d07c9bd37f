import ImageReports
import Foundation
import ImageCodecs
import ImageLab

/// `imglab selftest`: proves the lab catches every mutant of the catalogue and names it.
enum SelftestCommand: Command {
    static let name = "selftest"
    static let summary = "run every mutant (a catalogue of real resizer bugs) through the lab: the kill matrix"
    static let help = """
    USAGE: imglab selftest [--corpus DIR] [--report DIR] [--json FILE] [--all-pairs] [--mutant ID,...] [--threads N]

    A harness earns trust by catching real bugs. imglab carries a catalogue of mutants:
    the built-in resizer with one documented bug added (pink tint, R↔B swap, premultiplication
    both ways, alpha dropped, black borders, orientation ignored / mixed up / doubled, 16-bit
    low byte, wrong bit shift, palette transparency ignored, sRGB averaging, nearest neighbour,
    half-pixel offset, retina scale ignored, off-centre crop, size overshoot, the bitmap context
    built from the source's bitmap info). The selftest runs the built-in resizer over every
    pair of the corpus (canaries first, as 'imglab run'), then each mutant over the pairs its
    triggers name (the pairs where the bug can show), judged by the same gates, and prints the
    kill matrix: per mutant and gate family, named / caught / run, where

      caught  the pair failed its gate or erred;
      named   caught, and the diagnosis names the mutant's bug class (a resizer error whose
              message carries Quartz's "CGBitmapContextCreate: " text is filed under the class
              bitmap-context);
      accuracy = named / caught.

    It passes when every mutant is caught on at least one pair with an accuracy of at least
    90 %, without exceptions, and the built-in resizer passes every pair. The diagnosis of a
    failed pair also tests counterfactuals: the ideal output re-computed from the source under
    a bug hypothesis (sRGB averaging, point sampling, palette transparency ignored, straight
    alpha read as premultiplied). 'imglab run --resizer mutant:ID' runs one mutant over the
    whole corpus; 'imglab run --help' explains gates and diagnoses.

    OPTIONS:
      --corpus DIR    the corpus folder (default: Corpus), with manifest.json and gates.json
      --report DIR    write DIR/index.html, the kill matrix and each mutant's history and misses
                      (default: Reports/selftest; 'none' to skip)
      --json FILE     write the kill matrix (schema imglab-selftest/1) atomically
      --all-pairs     run every mutant on every pair, not only its triggers (slower; pairs outside
                      the triggers pass through unchanged for most mutants)
      --mutant IDS    run only these mutants (comma-separated ids; see 'imglab run --help')
      --threads N     worker threads (default: the number of cores); results do not depend on it

    EXIT STATUS:
      0  every mutant caught and named (≥ 90 %), the built-in resizer passes every pair
      1  a mutant escaped, was misnamed too often, or the built-in resizer failed a pair
      2  usage error, or the run failed (corpus or gates unreadable, a canary passed)

    EXAMPLES:
      imglab selftest                               the CI check, report in Reports/selftest/
      imglab selftest --mutant argb-as-rgba,swap-rb --report none
      imglab selftest --all-pairs --json /tmp/kill.json
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--corpus", "--report", "--json", "--mutant", "--threads"], flags: ["--all-pairs"])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        let corpus = args.value("--corpus") ?? "Corpus"
        let threads = try args.int("--threads", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
        let reportArg = args.value("--report") ?? "Reports/selftest"
        let report = reportArg == "none" ? nil : reportArg
        var mutants = MutantCatalogue.all
        if let list = args.value("--mutant") {
            mutants = []
            for id in list.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
                guard let m = MutantCatalogue.mutant(id) else {
                    throw UsageError("--mutant: unknown mutant '\(id)' (known: \(MutantCatalogue.all.map(\.id).joined(separator: ", ")))")
                }
                mutants.append(m)
            }
        }
        let started = Date()
        let matrix: KillMatrix
        do {
            matrix = try Selftest(corpus: corpus, mutants: mutants, allPairs: args.flag("--all-pairs"), threads: threads).run { p in
                Console.line("[\(p.done)/\(p.total)] \(p.line)")
            }
        } catch {
            printError("imglab selftest: \(error)")
            return .usage
        }
        let seconds = Date().timeIntervalSince(started)
        print("")
        print(matrix.table)
        print("")
        for w in matrix.builtin.warnings { printError("warning: \(w)") }
        do {
            if let path = args.value("--json") { try ImageCodecs.writeAtomically([UInt8](try matrix.jsonData()), to: path) }
            if let report {
                try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
                try ImageCodecs.writeAtomically(Array(SelftestReport.html(matrix).utf8), to: report + "/index.html")
            }
        } catch {
            printError("imglab selftest: cannot write the results: \(error)")
            return .usage
        }
        let caught = matrix.mutants.filter { $0.caught > 0 }.count
        print("imglab selftest: \(matrix.mutants.count) mutants, \(caught) caught, builtin \(matrix.builtin.pass)/\(matrix.builtin.pairs) pass, in \(String(format: "%.1f", seconds)) s: \(matrix.passed ? "PASS" : "FAIL")")
        for r in matrix.reasons { print("  - \(r)") }
        if let report { print("report: \(report)/index.html") }
        return matrix.passed ? .ok : .failure
    }
}
