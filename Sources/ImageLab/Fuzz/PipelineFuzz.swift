import Foundation
import ImageCodecs
import ImageMetrics
import ImageResize

/// A command's whole path from file to result, as `imglab fuzz --pipeline` drives it with
/// mutated inputs: each reads the input from a file, as the command does, under the same
/// limits and memory budget, and writes what the command writes.
public enum FuzzPipeline: String, CaseIterable, Sendable {
    /// `ImageCodecs.decode`: the decoders alone, from bytes in memory.
    case decode
    /// `imglab info FILE`: the header read (no pixels), the text and JSON made.
    case info
    /// `imglab thumbnail FILE --max-pixel-size 64 -o OUT.png`.
    case thumbnail
    /// `imglab resize FILE --size WxH --mode M -o OUT.png`, box and mode varying with the input number.
    case resize
    /// `imglab diff SEED FILE`: the mutated file against the seed it came from, judged and diagnosed.
    case diff
}

/// `imglab fuzz`: runs ``count`` inputs of a ``MutationFuzzer`` through a ``FuzzPipeline``
/// under a budget; every outcome must be a result or a typed error with a message (a crash
/// ends the process, a hang is reported through the ``HangWatchdog``).
public struct PipelineFuzz: Sendable {
    public var fuzzer: MutationFuzzer
    /// Inputs to run: numbers `0..<count`.
    public var count: Int
    /// What each input goes through.
    public var pipeline: FuzzPipeline
    /// The limits and memory budget (default 4 megapixels, 64 MiB).
    public var limits: DecodeLimits
    /// A file each input is written to before it runs, to keep a crasher.
    public var saveCurrent: String?

    /// The default budget: 4 megapixels, 64 MiB; any side up to 4,000,000 pixels, so that the
    /// extreme shapes (``FuzzSeeds``, a row of 1,000,000 pixels) reach the decoders and resizers.
    public static let defaultLimits = DecodeLimits(maxPixels: 4_000_000, maxDimension: 4_000_000, maxBytes: 64 << 20, maxFrames: 1000)

    public init(fuzzer: MutationFuzzer, count: Int, pipeline: FuzzPipeline = .decode, limits: DecodeLimits = PipelineFuzz.defaultLimits,
                saveCurrent: String? = nil) {
        self.fuzzer = fuzzer
        self.count = count
        self.pipeline = pipeline
        self.limits = limits
        self.saveCurrent = saveCurrent
    }

    /// What a fuzz run saw.
    public struct Report: Sendable, Hashable {
        /// Inputs that went through to a result.
        public var completed = 0
        /// Inputs refused with a typed error.
        public var rejected = 0
        /// Refusals by kind (`malformed`, `truncated`, `unsupported`, `limit`, `unknown-format`,
        /// `io`, `resize`, `encode`, `over-budget`).
        public var errorKinds: [String: Int] = [:]
        /// Refusals whose message was empty (each one a defect: a user could not tell why).
        public var silent = 0
        /// Wall-clock seconds.
        public var seconds = 0.0
        /// The inputs that needed the most memory of their own: input number and the peak
        /// resident memory it added to the process, in MiB, largest first (at most 5; empty
        /// where `/proc` cannot measure it). Replay one with `--replay I` to see why.
        public var largestInputs: [InputPeak] = []
    }

    /// The peak resident memory one input added to the process.
    public struct InputPeak: Sendable, Hashable {
        /// The input number.
        public var input: Int
        /// MiB over the resident size before the input.
        public var growthMiB: Double
    }

    /// Runs every input; `progress` hears after every 10 000 inputs (inputs done, the report so far).
    /// `watchdog`, when given, is told when each input starts and ends.
    /// - Throws: `CocoaError` when the scratch folder for the file-based pipelines cannot be made.
    public func run(watchdog: HangWatchdog? = nil, progress: (Int, Report) -> Void = { _, _ in }) throws -> Report {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var seedPaths: [String: String] = [:]
        if pipeline == .diff {
            for (i, seed) in fuzzer.seeds.enumerated() {
                let path = scratch + "/seed-\(i)"
                try Data(seed.bytes).write(to: URL(fileURLWithPath: path))
                seedPaths[seed.name] = path
            }
        }
        var report = Report()
        var meter = InputPeakMeter()
        let started = Date()
        for i in 0..<count {
            let input = fuzzer.input(i)
            // Through the safe writer: never into a FIFO, a device or through a symlink.
            if let saveCurrent { try? ImageCodecs.writeAtomically(input.bytes, to: saveCurrent) }
            // Give freed memory back, so the input starts from what the process holds.
            FreeMemory.release()
            meter.start()
            watchdog?.begin(i, seed: input.seed)
            do {
                try exercise(input, number: i, scratch: scratch, seedPath: seedPaths[input.seed])
                report.completed += 1
            } catch {
                report.rejected += 1
                report.errorKinds[Self.kind(error), default: 0] += 1
                if "\(error)".isEmpty { report.silent += 1 }
            }
            watchdog?.end()
            if let growth = meter.growthMiB(), report.largestInputs.count < 5 || growth > report.largestInputs[4].growthMiB {
                report.largestInputs.append(InputPeak(input: i, growthMiB: growth))
                report.largestInputs.sort { ($0.growthMiB, $1.input) > ($1.growthMiB, $0.input) }
                if report.largestInputs.count > 5 { report.largestInputs.removeLast() }
            }
            report.seconds = Date().timeIntervalSince(started)
            if (i + 1) % 10_000 == 0 { progress(i + 1, report) }
        }
        return report
    }

    /// One input through the pipeline.
    func exercise(_ input: MutationFuzzer.Input, number: Int, scratch: String, seedPath: String?) throws {
        let options = DecodeOptions(limits: limits)
        if pipeline == .decode {
            _ = try ImageCodecs.decode(input.bytes, options: options)
            return
        }
        let path = scratch + "/input"
        try Data(input.bytes).write(to: URL(fileURLWithPath: path))
        switch pipeline {
        case .decode:
            break
        case .info:
            let info = try FileInfo.inspect(path: path, options: options)
            _ = info.text
            _ = FileInfo.json([info])
        case .thumbnail:
            try FileResizeRequest(input: path, output: scratch + "/out.png", container: .png, size: .maxPixelSize(64), limits: limits).write()
        case .resize:
            let modes: [ContentMode] = [.aspectFit, .aspectFill(anchor: .center), .scaleToFill, .aspectFillWithoutCrop]
            try FileResizeRequest(input: path, output: scratch + "/out.png", container: .png,
                                  size: .box(width: Double(17 + number % 31), height: Double(13 + number % 29), contentMode: modes[number % modes.count]),
                                  limits: limits).write()
        case .diff:
            guard let seedPath else { return }
            _ = try FileComparison(expected: seedPath, actual: path, decode: options, canaries: .skip).run()
        }
    }

    /// The kind of a refusal, as the report counts it.
    public static func kind(_ error: any Error) -> String {
        switch error {
        case let e as DecodeError: return kind(e)
        case let e as FileResizeError:
            switch e {
            case .read(_, let underlying): return kind(underlying)
            case .resize: return "resize"
            case .write: return "encode"
            }
        case let e as FileComparisonError:
            switch e {
            case .unreadable(_, let underlying): return kind(underlying)
            case .overBudget: return "over-budget"
            case .ignored: return "ignored-pixels"
            }
        case is ResizeError: return "resize"
        case is EncodeError: return "encode"
        default: return "other"
        }
    }

    /// The kind of a decode error, as the report counts it.
    public static func kind(_ e: DecodeError) -> String {
        switch e {
        case .malformed: return "malformed"
        case .truncated: return "truncated"
        case .unsupported: return "unsupported"
        case .limitExceeded: return "limit"
        case .unknownFormat: return "unknown-format"
        case .io: return "io"
        }
    }

    /// Peak resident set size of this process in MiB (getrusage's `ru_maxrss` is in KiB on Linux).
    public static func peakRSSMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024
    }
}
