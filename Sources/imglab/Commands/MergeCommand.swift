import ImageReports
import Foundation
import ImageCodecs
import ImageLab

/// `imglab merge`: joins the results of sharded `imglab run`s into one result, JUnit and report.
enum MergeCommand: Command {
    static let name = "merge"
    static let summary = "join the results of sharded 'imglab run --shard I/N' into one result, JUnit and report"
    static let help = """
    USAGE: imglab merge RESULTS.json... [--corpus DIR] [--json FILE] [--junit FILE] [--report DIR]

    Reads the results files of 'imglab run --shard I/N --json FILE' (one per shard, in any
    order), checks they belong to one run (same resizer, profile, filter, gates and N, every
    shard 1…N exactly once), and writes the joined results as if one unsharded run had made
    them: pairs in manifest order, counts, lax-bound warnings over the whole corpus. Prints the
    summary; the exit status is the joined run's.

    The merged report has the index (summary, failures first, diagnoses) but no per-pair pages:
    those need the images, which only the shard runs had (each shard's own --report has them).

    OPTIONS:
      --corpus DIR     the corpus folder, for the manifest order and the gates (default: Corpus)
      --json FILE      write the joined results (schema imglab-run/1) atomically
      --junit FILE     write JUnit XML atomically
      --report DIR     write DIR/index.html

    EXIT STATUS: 0 every pair passed, 1 a pair failed or erred, 2 bad usage, unreadable or
    mismatched results, or a missing shard.

    EXAMPLE (a CI matrix of three machines, then one merge job):
      imglab run --shard 1/3 --json shard1.json --report none     # machine 1 (2/3, 3/3 alike)
      imglab merge shard1.json shard2.json shard3.json --junit junit.xml --report Reports/merged
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--corpus", "--json", "--junit", "--report"], flags: [])
        if args.flag("--help") { print(help); return .ok }
        guard !args.positionals.isEmpty else { throw UsageError("give the results files of every shard") }
        var parts: [RunResults] = []
        for path in args.positionals {
            guard let data = FileManager.default.contents(atPath: path) else { printError("imglab merge: cannot read \(path)"); return .usage }
            do { parts.append(try RunResults.decode(data)) } catch {
                printError("imglab merge: \(path) is not an imglab run results file: \(error)")
                return .usage
            }
        }
        let corpus = args.value("--corpus") ?? "Corpus"
        var order: [String: Int] = [:]
        var gates: GateBook?
        if let manifest = try? LabRunner.manifest(corpus: corpus) {
            for (i, p) in LabPair.all(in: manifest).enumerated() { order[p.id] = i }
            gates = try? GateBook.load(corpus: corpus)
        }
        var merged: RunResults
        do { merged = try ShardMerge.merge(parts, order: order) } catch {
            printError("imglab merge: \(error)")
            return .usage
        }
        if let gates, merged.filter.isEmpty, gates.file.families.map(\.gate) == merged.gates.map(\.gate) {
            merged.warnings = LaxBound.find(gates: gates, results: merged.pairs).map(\.description)
        }
        for w in merged.warnings { printError("warning: \(w)") }
        do {
            if let path = args.value("--json") { try ImageCodecs.writeAtomically([UInt8](try merged.jsonData()), to: path) }
            if let path = args.value("--junit") { try ImageCodecs.writeAtomically(Array(JUnitReport.xml(merged).utf8), to: path) }
            if let dir = args.value("--report") {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try ImageCodecs.writeAtomically(Array(RunReport.index(merged, links: [:]).utf8), to: dir + "/index.html")
            }
        } catch {
            printError("imglab merge: cannot write the results: \(error)")
            return .usage
        }
        let s = merged.summary
        print("imglab merge: \(parts.count) shards, \(merged.resizer) on \(merged.profile): \(s.line)")
        if let dir = args.value("--report") { print("report: \(dir)/index.html") }
        return merged.exitStatus == 0 ? .ok : .failure
    }
}
