import Foundation
import ImageCodecs

/// `imglab fuzz`: decodes ``count`` inputs of a ``MutationFuzzer`` under a limit budget; every
/// outcome must be an image or a typed `DecodeError` (a crash ends the process, a hang is
/// reported through the ``HangWatchdog``).
public struct DecoderFuzz: Sendable {
    public var fuzzer: MutationFuzzer
    /// Inputs to decode: numbers `0..<count`.
    public var count: Int
    /// The decoders' budget (default 4 megapixels, 64 MiB).
    public var limits: DecodeLimits
    /// A file each input is written to before it is decoded, to keep a crasher.
    public var saveCurrent: String?

    public init(fuzzer: MutationFuzzer, count: Int,
                limits: DecodeLimits = DecodeLimits(maxPixels: 4_000_000, maxDimension: 65_535, maxBytes: 64 << 20, maxFrames: 1000),
                saveCurrent: String? = nil) {
        self.fuzzer = fuzzer
        self.count = count
        self.limits = limits
        self.saveCurrent = saveCurrent
    }

    /// What a fuzz run saw.
    public struct Report: Sendable, Hashable {
        /// Inputs that decoded to an image.
        public var decoded = 0
        /// Inputs rejected with a typed error.
        public var rejected = 0
        /// Rejections by kind (`malformed`, `truncated`, `unsupported`, `limit`, `unknown-format`, `io`).
        public var errorKinds: [String: Int] = [:]
        /// Wall-clock seconds.
        public var seconds = 0.0
    }

    /// Decodes every input; `progress` hears after every 10 000 inputs (inputs done, the report so far).
    /// `watchdog`, when given, is told when each input starts and ends.
    public func run(watchdog: HangWatchdog? = nil, progress: (Int, Report) -> Void = { _, _ in }) -> Report {
        var options = DecodeOptions()
        options.limits = limits
        var report = Report()
        let started = Date()
        for i in 0..<count {
            let input = fuzzer.input(i)
            // Through the safe writer: never into a FIFO, a device or through a symlink.
            if let saveCurrent { try? ImageCodecs.writeAtomically(input.bytes, to: saveCurrent) }
            watchdog?.begin(i, seed: input.seed)
            do {
                _ = try ImageCodecs.decode(input.bytes, options: options)
                report.decoded += 1
            } catch {
                report.rejected += 1
                report.errorKinds[Self.kind(error), default: 0] += 1
            }
            watchdog?.end()
            report.seconds = Date().timeIntervalSince(started)
            if (i + 1) % 10_000 == 0 { progress(i + 1, report) }
        }
        return report
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
