import CommandLineOptions
import Foundation
import ImageLab
import ImageReports

/// `imglab fuzz`: the deterministic robustness fuzzer of every command's pipeline.
enum FuzzCommand: Command {
    static let name = "fuzz"
    static let summary = "feed each pipeline deterministic mutated inputs; fail on a crash, hang, silent error, blow-up"
    static let options: [any OptionDeclaration] = [count, pipelines, containers, seed, seeds, timeout, maxRSS, replay,
        out, saveCurrent]

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let runSeed = try args.value(seed), total = try args.value(count)
        let given = try args.value(seeds).map(FuzzSeeds.files(under:)) ?? []
        let seedFiles = FuzzSeeds.only(FuzzSeeds.synthetic() + given, containers: try args.value(containers))
        guard let fuzzer = MutationFuzzer(seeds: seedFiles, runSeed: UInt64(runSeed)) else {
            throw UsageError("no seeds: the encoders produced none (of --container) and --seeds gave none")
        }
        if let i = try args.value(replay) {
            guard let path = try args.value(out) else { throw UsageError("--replay needs -o FILE") }
            do { print(try FuzzScreen.replay(fuzzer, input: i, to: path)) } catch {
                printError("imglab fuzz: \(error)"); return .failure
            }
            return .ok
        }
        print(FuzzScreen.opening(total: total, seeds: seedFiles, runSeed: runSeed))
        let limit = try args.value(timeout)
        let watchdog = HangWatchdog(timeout: Double(limit)) { index, seed in
            printError(FuzzScreen.hang(input: index, seed: seed, seconds: limit)); exit(3)
        }
        var reports: [(pipeline: FuzzPipeline, report: PipelineFuzz.Report)] = []
        for pipeline in try args.value(pipelines) ?? [.decode] {
            let fuzz = PipelineFuzz(fuzzer: fuzzer, count: total, pipeline: pipeline,
                saveCurrent: try args.value(saveCurrent))
            do {
                reports.append((pipeline, try fuzz.run(watchdog: watchdog) { done, so in
                    print(FuzzScreen.progress(pipeline, done: done, total: total, seconds: so.seconds))
                }))
            } catch {
                printError("imglab fuzz: cannot make a scratch folder: \(error)")
                return .usage
            }
            for line in FuzzScreen.lines(reports[reports.count - 1].report, pipeline: pipeline, total: total,
                                         limits: fuzz.limits) { print(line) }
        }
        if let why = FuzzScreen.failure(reports, limits: PipelineFuzz.defaultLimits, peakRSS: PipelineFuzz.peakRSSMiB(),
                                        maxRSS: try args.value(maxRSS)) {
            printError("imglab fuzz: \(why)")
            return .failure
        }
        return .ok
    }
}
