import Foundation
import ImageCodecs
import ImageLab

/// What `imglab fuzz` prints after each pipeline, and which input broke the memory promise.
public enum FuzzScreen {
    /// The pipeline's lines: the counts by outcome and kind of refusal, then the inputs that added
    /// the most memory, beside the budget.
    public static func lines(_ report: PipelineFuzz.Report, pipeline: FuzzPipeline, total: Int,
                             limits: DecodeLimits) -> [String] {
        let kinds = report.errorKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var lines = ["imglab fuzz: \(pipeline.rawValue): \(total) inputs in \(String(format: "%.1f", report.seconds)) s: "
                     + "\(report.completed) completed, \(report.rejected) refused with a typed error (\(kinds)); 0 crashes, "
                     + "0 hangs; \(report.silent) without a message; peak RSS \(PipelineFuzz.peakRSSMiB()) MiB"]
        guard !report.largestInputs.isEmpty else { return lines }
        let quarantine = quarantineMiB
        lines.append("  the most memory one input added: "
                     + report.largestInputs.map { "input \($0.input) \(String(format: "%.1f", $0.growthMiB)) MiB" }
                         .joined(separator: ", ")
                     + " (budget \(limits.maxBytes >> 20) MiB"
                     + (quarantine > 0 ? " + \(quarantine) MiB of freed memory AddressSanitizer's quarantine keeps resident" : "")
                     + "; replay with --replay I)")
        return lines
    }

    /// The input that added more than the budget (plus AddressSanitizer's quarantine), described;
    /// `nil` when none did.
    public static func overBudget(_ report: PipelineFuzz.Report, pipeline: FuzzPipeline, limits: DecodeLimits) -> String? {
        guard let top = report.largestInputs.first, top.growthMiB > Double((limits.maxBytes >> 20) + quarantineMiB) else { return nil }
        return "\(pipeline.rawValue) input \(top.input): \(String(format: "%.1f", top.growthMiB)) MiB"
    }

    /// Why the fuzz run fails, from each pipeline's report and the process's peak RSS (MiB)
    /// against `maxRSS` (MiB); `nil` when it passes. Crashes abort and hangs exit 3 before this.
    public static func failure(_ reports: [(pipeline: FuzzPipeline, report: PipelineFuzz.Report)], limits: DecodeLimits,
                               peakRSS: Int, maxRSS: Int) -> String? {
        if reports.contains(where: { $0.report.silent > 0 || $0.report.errorKinds["other"] != nil }) {
            return "some inputs were refused without a message or with an error of no known kind"
        }
        let over = reports.compactMap { overBudget($0.report, pipeline: $0.pipeline, limits: limits) }
        if !over.isEmpty { return "inputs needed more than the memory budget: \(over.joined(separator: "; "))" }
        if peakRSS > maxRSS { return "peak RSS \(peakRSS) MiB is over the budget of \(maxRSS) MiB" }
        return nil
    }

    /// The first line of a run: inputs, seeds by container, run seed.
    /// The line that ends a run on a hang: the input, its seed, the timeout and how to reproduce it.
    public static func hang(input: Int, seed: String, seconds: Int) -> String {
        "imglab fuzz: HANG on input \(input) (seed \(seed)) after \(Double(seconds)) s; reproduce with --replay \(input) --out hang.bin"
    }

    /// A progress line of a long run: inputs done of `total`, seconds so far (s), the peak resident memory (MiB).
    public static func progress(_ pipeline: FuzzPipeline, done: Int, total: Int, seconds: Double) -> String {
        "  \(pipeline.rawValue): \(done)/\(total) inputs, \(Int(seconds)) s, peak RSS \(PipelineFuzz.peakRSSMiB()) MiB"
    }

    public static func opening(total: Int, seeds: [MutationFuzzer.Seed], runSeed: Int) -> String {
        let containers = Dictionary(grouping: seeds, by: { ContainerFormat(sniffing: $0.bytes)?.rawValue ?? "other" })
            .mapValues(\.count).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "imglab fuzz: \(total) inputs from \(seeds.count) seeds (\(containers.joined(separator: ", "))), run seed \(runSeed)"
    }

    /// `--replay I`: writes input `i` atomically to `path`; the line that describes it.
    public static func replay(_ fuzzer: MutationFuzzer, input i: Int, to path: String) throws -> String {
        let input = fuzzer.input(i)
        try ImageCodecs.writeAtomically(input.bytes, to: path)
        let crc = input.checksumsRecomputed ? ", PNG chunk CRCs recomputed" : ""
        return "input \(i): seed \(input.seed), mutations \(input.mutations.map(\.rawValue).joined(separator: ", "))\(crc) → \(path)"
    }

    /// What AddressSanitizer's quarantine keeps resident in this process (MiB; 0 without it).
    static var quarantineMiB: Int { SanitizerQuarantine.residentMiB(options: ProcessInfo.processInfo.environment["ASAN_OPTIONS"]) }
}
