import CommandLineOptions
import Foundation
import ImageCodecs
import ImageLab
import ImageReports

/// `imglab fuzz`: the deterministic robustness fuzzer of every command's pipeline.
enum FuzzCommand: Command {
    static let name = "fuzz"
    static let summary = "feed each command's pipeline deterministic mutated inputs; fail on a crash, hang, silent "
        + "error or memory blow-up"
    static let count = Option.integer("--count", "N", "inputs per pipeline", default: 10_000, in: 1...100_000_000)
    static let pipelines = Option.parsed("--pipeline", "LIST", "what each input goes through, comma-separated: "
        + "\(FuzzPipeline.allCases.map(\.rawValue).joined(separator: ", ")), or all (default: "
        + "decode)") { text throws(UsageError) -> [FuzzPipeline] in
        if text == "all" { return FuzzPipeline.allCases }
        var chosen: [FuzzPipeline] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let p = FuzzPipeline(rawValue: String(name)) else {
                throw UsageError("--pipeline: unknown pipeline '\(name)'; choose from "
                    + "\(FuzzPipeline.allCases.map(\.rawValue).joined(separator: ", ")) or all")
            }
            if !chosen.contains(p) { chosen.append(p) }
        }
        return chosen
    }
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
        + "atomically").alsoSpelled("--out")
    static let saveCurrent = Option<String?>.text("--save-current", "FILE", "write each input to FILE before decoding "
        + "it, to keep a crasher")
    static let options: [any OptionDeclaration] = [count, pipelines, seed, seeds, timeout, maxRSS, replay, out,
        saveCurrent]
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
                   "imglab fuzz --pipeline thumbnail,diff --replay 4711 --out crash.bin"],
        docs: "docs/fuzz.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let runSeed = try args.value(seed), total = try args.value(count)
        let seedFiles = FuzzSeeds.synthetic() + (try args.value(seeds).map(FuzzSeeds.files(under:)) ?? [])
        guard let fuzzer = MutationFuzzer(seeds: seedFiles, runSeed: UInt64(runSeed)) else {
            throw UsageError("no seeds: the encoders produced none and --seeds gave none")
        }
        if let i = try args.value(replay) {
            guard let path = try args.value(out) else { throw UsageError("--replay needs -o FILE") }
            let input = fuzzer.input(i)
            do { try ImageCodecs.writeAtomically(input.bytes, to: path) } catch {
                printError("imglab fuzz: \(error)"); return .failure
            }
            let crc = input.checksumsRecomputed ? ", PNG chunk CRCs recomputed" : ""
            print("input \(i): seed \(input.seed), mutations "
                + "\(input.mutations.map(\.rawValue).joined(separator: ", "))\(crc) → \(path)")
            return .ok
        }
        let containers = Dictionary(grouping: seedFiles,
            by: { ContainerFormat(sniffing: $0.bytes)?.rawValue ?? "other" }).mapValues(\.count)
        print("imglab fuzz: \(total) inputs from \(seedFiles.count) seeds "
            + "(\(containers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), run "
            + "seed \(runSeed)")
        let limit = try args.value(timeout)
        let watchdog = HangWatchdog(timeout: Double(limit)) { index, seed in
            printError("imglab fuzz: HANG on input \(index) (seed \(seed)) after \(Double(limit)) s; reproduce with "
                + "--replay \(index) --out hang.bin")
            exit(3)
        }
        var silent = false, overBudget: [String] = []
        for pipeline in try args.value(pipelines) ?? [.decode] {
            let fuzz = PipelineFuzz(fuzzer: fuzzer, count: total, pipeline: pipeline,
                saveCurrent: try args.value(saveCurrent))
            let report: PipelineFuzz.Report
            do {
                report = try fuzz.run(watchdog: watchdog) { done, so in
                    print("  \(pipeline.rawValue): \(done)/\(total) inputs, \(Int(so.seconds)) s, peak RSS "
                        + "\(PipelineFuzz.peakRSSMiB()) MiB")
                }
            } catch {
                printError("imglab fuzz: cannot make a scratch folder: \(error)")
                return .usage
            }
            for line in FuzzScreen.lines(report, pipeline: pipeline, total: total, limits: fuzz.limits) { print(line) }
            if report.silent > 0 || report.errorKinds["other"] != nil { silent = true }
            if let over = FuzzScreen.overBudget(report, pipeline: pipeline, limits: fuzz.limits) {
                overBudget.append(over)
            }
        }
        let rss = PipelineFuzz.peakRSSMiB(), budget = try args.value(maxRSS)
        if silent {
            printError("imglab fuzz: some inputs were refused without a message or with an error of no known kind")
            return .failure
        }
        if !overBudget.isEmpty {
            printError("imglab fuzz: inputs needed more than the memory budget: \(overBudget.joined(separator: "; "))")
            return .failure
        }
        if rss > budget {
            printError("imglab fuzz: peak RSS \(rss) MiB is over the budget of \(budget) MiB")
            return .failure
        }
        return .ok
    }
}
