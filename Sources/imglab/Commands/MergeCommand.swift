import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab merge`: joins the results of sharded `imglab run`s into one result, JUnit and report.
enum MergeCommand: Command {
    static let name = "merge"
    static let summary = "join the results of sharded 'imglab run --shard I/N' into one result, JUnit and report"
    static let positionals = Positionals(synopsis: "RESULTS.json...", count: 1...Int.max,
        problem: "give the results files of every shard")
    static let json = SharedOptions.json("write the joined results (schema imglab-run/1) to FILE")
    static let junit = SharedOptions.junit("write JUnit XML to FILE")
    static let report = SharedOptions.report("DIR/index.html (no pair pages: only the shards had "
        + "the images), DIR/results.json and DIR/junit.xml", default: "no report")
    static let options: [any OptionDeclaration] = [SharedOptions.corpus, json, junit, report]
    static let help = Help(about: """
        Joins the results files of 'imglab run --shard I/N --json FILE' (any order) as if one unsharded run
        had made them, after checking they belong to one run (same resizer, profile, filter, gates, N, every
        shard once). The merged report has the index but no pair pages (only the shards had the images).
        """, exitStatus: """
          0 every pair passed, 1 a pair failed or erred,
          2 bad usage, unreadable or mismatched results, or a missing shard
        """,
        examples: ["imglab run --shard 1/3 --json shard1.json --report none     # machine 1 (2/3, 3/3 alike)",
                   "imglab merge shard1.json shard2.json shard3.json --junit junit.xml --report Reports/merged"],
        docs: "docs/sharding.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        try OutputPaths.check(args, [json, junit], inputs: args.positionals)
        let reportFolder = try OutputPaths.reportFolder(args, report, default: "none")
        // Read errors before the corpus, which may first have to be generated.
        if let unreadable = args.positionals.first(where: { !FileManager.default.isReadableFile(atPath: $0) }) {
            printError("imglab merge: cannot read \(unreadable)")
            return .usage
        }
        let merged: RunResults, folder = try SharedOptions.corpusFolder(args, command: name)
        do { merged = try ShardMerge.merge(files: args.positionals, corpus: folder) } catch {
            printError("imglab merge: \(error)")
            return .usage
        }
        for w in merged.warnings { printError("warning: \(w)") }
        let jsonPath = try args.value(json), junitPath = try args.value(junit)
        do { try ResultFiles.write(merged, json: jsonPath, junit: junitPath, report: reportFolder) } catch {
            printError("imglab merge: cannot write the results: \(error)")
            return .usage
        }
        print("imglab merge: \(args.positionals.count) shards, \(merged.resizer) on \(merged.profile): "
            + "\(merged.summary.line)")
        if let reportFolder { print("report: \(reportFolder)/index.html") }
        return merged.exitStatus == 0 ? .ok : .failure
    }
}
