import Foundation
import ImageCodecs
import ImageLab

/// `imglab fuzz`: the deterministic robustness fuzzer of the decoders.
enum FuzzCommand: Command {
    static let name = "fuzz"
    static let summary = "feed the decoders deterministic mutated inputs; fail on a crash, hang or memory blow-up"
    static let count = Option.integer("--count", "N", "inputs to decode", default: 10_000, in: 1...100_000_000)
    static let seed = Option.integer("--seed", "S", "run seed", default: 1, in: 0...Int.max)
    static let seeds = Option<String?>.text("--seeds", "DIR", "also use the image files under DIR as seeds")
    static let timeout = Option.integer("--timeout", "SECONDS", "an input taking longer is a hang: exit 3", default: 10, in: 1...3600)
    static let maxRSS = Option.integer("--max-rss-mib", "M", "fail when peak resident memory exceeds M MiB", default: 200, in: 1...1_000_000)
    static let replay = Option.integer("--replay", "I", "write input I to --out FILE instead of fuzzing", default: 0, in: 0...Int.max).optional()
    static let out = Option<String?>.text("--out", "FILE", "where --replay writes the input")
    static let saveCurrent = Option<String?>.text("--save-current", "FILE", "write each input to FILE before decoding it, to keep a crasher")
    static let options: [any OptionDeclaration] = [count, seed, seeds, timeout, maxRSS, replay, out, saveCurrent]
    static let help = Help(about: """
        Decodes N mutated inputs (bit flips, interesting bytes, truncation, header fields, chunk and segment
        shuffles, noise, splices, edited PNG rows, recomputed CRCs) of seed files in every container made by
        imglab's encoders and of the files under --seeds DIR, under a 4-megapixel, 64 MiB budget; every
        outcome must be an image or a typed DecodeError. Input I is a pure function of (S, I): --replay I.
        """, exitStatus: "  0 clean, 1 memory over budget, 2 usage, 3 hang (a crash aborts the process)",
        examples: ["imglab fuzz --count 100000 --seeds ../shared/corpus-external", "imglab fuzz --replay 4711 --out crash.bin"],
        docs: "docs/fuzz.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let runSeed = try args.value(seed), total = try args.value(count)
        let seedFiles = FuzzSeeds.synthetic() + (try args.value(seeds).map(FuzzSeeds.files(under:)) ?? [])
        guard let fuzzer = MutationFuzzer(seeds: seedFiles, runSeed: UInt64(runSeed)) else {
            throw UsageError("no seeds: the encoders produced none and --seeds gave none")
        }
        if let i = try args.value(replay) {
            guard let path = try args.value(out) else { throw UsageError("--replay needs --out FILE") }
            let input = fuzzer.input(i)
            do { try ImageCodecs.writeAtomically(input.bytes, to: path) } catch {
                printError("imglab fuzz: \(error)"); return .failure
            }
            let crc = input.checksumsRecomputed ? ", PNG chunk CRCs recomputed" : ""
            print("input \(i): seed \(input.seed), mutations \(input.mutations.map(\.rawValue).joined(separator: ", "))\(crc) → \(path)")
            return .ok
        }
        let containers = Dictionary(grouping: seedFiles, by: { ContainerFormat(sniffing: $0.bytes)?.rawValue ?? "other" }).mapValues(\.count)
        print("imglab fuzz: \(total) inputs from \(seedFiles.count) seeds (\(containers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), run seed \(runSeed)")
        let limit = try args.value(timeout)
        let watchdog = HangWatchdog(timeout: Double(limit)) { index, seed in
            printError("imglab fuzz: HANG on input \(index) (seed \(seed)) after \(Double(limit)) s; reproduce with --replay \(index) --out hang.bin")
            exit(3)
        }
        let report = DecoderFuzz(fuzzer: fuzzer, count: total, saveCurrent: try args.value(saveCurrent)).run(watchdog: watchdog) { done, so in
            print("  \(done)/\(total) inputs, \(Int(so.seconds)) s, peak RSS \(DecoderFuzz.peakRSSMiB()) MiB")
        }
        let rss = DecoderFuzz.peakRSSMiB(), budget = try args.value(maxRSS)
        print("imglab fuzz: \(total) inputs in \(String(format: "%.1f", report.seconds)) s: \(report.decoded) decoded, \(report.rejected) rejected with a typed error (\(report.errorKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); 0 crashes, 0 hangs; peak RSS \(rss) MiB")
        if rss > budget {
            printError("imglab fuzz: peak RSS \(rss) MiB is over the budget of \(budget) MiB")
            return .failure
        }
        return .ok
    }
}
