import Foundation
import ImageCore
import ImageCodecs

/// `imglab fuzz`: the deterministic robustness fuzzer of the decoders.
enum FuzzCommand: Command {
    static let name = "fuzz"
    static let summary = "feed the decoders deterministic mutated inputs; fail on a crash, hang or memory blow-up"
    static let help = """
    USAGE: imglab fuzz [--count N] [--seed S] [--seeds DIR] [--timeout SECONDS] [--max-rss-mib M]
                       [--replay I --out FILE] [--save-current FILE]

    Builds seed files in every container with imglab's own encoders (plus every file under
    --seeds DIR, sorted, up to 256 KiB each), then decodes N mutated inputs: bit flips,
    interesting byte values, truncation, 16/32-bit header field edits, chunk and segment
    shuffles, inserted noise, splices, and edits of a PNG's inflated filtered rows; half of the
    PNG inputs then get their chunk CRCs recomputed, so the edits reach the pixel decoders
    instead of stopping at the CRC check. Input I is a pure function of (S, I), so any finding
    is reproduced with --replay I. Every decode runs under a limit budget (4 megapixels,
    64 MiB); every outcome must be an image or a typed DecodeError.

    Run it under AddressSanitizer for the full robustness check (README):
      swift build -c release --sanitize=address --scratch-path .build-asan
      ASAN_OPTIONS=quarantine_size_mb=16 .build-asan/release/imglab fuzz --count 100000 \
          --seeds ../shared/corpus-external

    OPTIONS:
      --count N            inputs to decode (default 10000)
      --seed S             run seed (default 1)
      --seeds DIR          also use the image files under DIR as seeds
      --timeout SECONDS    an input taking longer is a hang: exit 3 (default 10)
      --max-rss-mib M      fail when peak resident memory exceeds M MiB (default 200)
      --replay I           write input I to --out FILE instead of fuzzing
      --save-current FILE  write each input to FILE before decoding it (to catch a crasher)

    EXIT STATUS: 0 clean, 1 memory over budget, 2 usage, 3 hang (a crash aborts the process).
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ["--count", "--seed", "--seeds", "--timeout", "--max-rss-mib", "--replay", "--out", "--save-current"], flags: [])
        if args.flag("--help") { print(help); return .ok }
        let count = try args.int("--count", default: 10_000, in: 1...100_000_000)
        let runSeed = try args.int("--seed", default: 1, in: 0...Int.max)
        let timeout = try args.int("--timeout", default: 10, in: 1...3600)
        let maxRSS = try args.int("--max-rss-mib", default: 200, in: 1...1_000_000)

        var seeds = syntheticSeeds()
        if let dir = args.value("--seeds") { seeds += fileSeeds(under: dir) }
        guard !seeds.isEmpty else { throw UsageError("no seeds: the encoders produced none and --seeds gave none") }
        let fuzzer = MutationFuzzer(seeds: seeds, runSeed: UInt64(runSeed))

        if let replay = args.value("--replay") {
            guard let i = Int(replay), i >= 0 else { throw UsageError("--replay needs an input number") }
            guard let out = args.value("--out") else { throw UsageError("--replay needs --out FILE") }
            let input = fuzzer.input(i)
            do { try ImageCodecs.writeAtomically(input.bytes, to: out) } catch {
                printError("imglab fuzz: \(error)"); return .failure
            }
            let crc = input.checksumsRecomputed ? ", PNG chunk CRCs recomputed" : ""
            print("input \(i): seed \(input.seed), mutations \(input.mutations.map(\.rawValue).joined(separator: ", "))\(crc) → \(out)")
            return .ok
        }

        let counts = Dictionary(grouping: seeds, by: { ContainerFormat(sniffing: $0.bytes)?.rawValue ?? "other" }).mapValues(\.count)
        print("imglab fuzz: \(count) inputs from \(seeds.count) seeds (\(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), run seed \(runSeed)")
        let watchdog = Watchdog(timeout: Double(timeout))
        var options = DecodeOptions()
        options.limits = DecodeLimits(maxPixels: 4_000_000, maxDimension: 65_535, maxBytes: 64 << 20, maxFrames: 1000)
        var decoded = 0, rejected = 0
        var errorKinds: [String: Int] = [:]
        let saveCurrent = args.value("--save-current")
        let started = Date()
        for i in 0..<count {
            let input = fuzzer.input(i)
            if let saveCurrent { try? Data(input.bytes).write(to: URL(fileURLWithPath: saveCurrent)) }
            watchdog.begin(i, seed: input.seed)
            do {
                _ = try ImageCodecs.decode(input.bytes, options: options)
                decoded += 1
            } catch {
                rejected += 1
                errorKinds[Self.kind(error), default: 0] += 1
            }
            watchdog.end()
            if (i + 1) % 10_000 == 0 {
                print("  \(i + 1)/\(count) inputs, \(Int(Date().timeIntervalSince(started))) s, peak RSS \(peakRSSMiB()) MiB")
            }
        }
        let rss = peakRSSMiB()
        let seconds = Date().timeIntervalSince(started)
        print("imglab fuzz: \(count) inputs in \(String(format: "%.1f", seconds)) s: \(decoded) decoded, \(rejected) rejected with a typed error (\(errorKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); 0 crashes, 0 hangs; peak RSS \(rss) MiB")
        if rss > maxRSS {
            printError("imglab fuzz: peak RSS \(rss) MiB is over the budget of \(maxRSS) MiB")
            return .failure
        }
        return .ok
    }

    static func kind(_ e: DecodeError) -> String {
        switch e {
        case .malformed: return "malformed"
        case .truncated: return "truncated"
        case .unsupported: return "unsupported"
        case .limitExceeded: return "limit"
        case .unknownFormat: return "unknown-format"
        case .io: return "io"
        }
    }

    /// Peak resident set size of this process in MiB (getrusage's ru_maxrss is in KiB on Linux).
    static func peakRSSMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1024
    }

    /// Small images in every container and in several pixel formats, made by imglab's encoders.
    static func syntheticSeeds() -> [MutationFuzzer.Seed] {
        var seeds: [MutationFuzzer.Seed] = []
        let formats: [(String, PixelFormat)] = [("rgba8", .rgba8), ("rgb8", .rgb8), ("gray8", .gray8), ("rgb16", .rgb16)]
        for (name, format) in formats {
            guard let bitmap = gradient(width: 23, height: 17, format: format) else { continue }
            var image = Image(bitmap: bitmap, orientation: .right)
            image.metadata.iccProfile = nil
            for container in ContainerFormat.allCases {
                for (variant, options) in [("plain", EncodeOptions()), ("interlaced", EncodeOptions(jpegProgressive: true, interlaced: true, tiffCompression: .deflate, tiffPlanar: true, bmpTopDown: true))] {
                    if let bytes = try? ImageCodecs.encode(image, as: container, options: options) {
                        seeds.append(.init(name: "\(container.rawValue)-\(name)-\(variant)", bytes: bytes))
                    }
                }
            }
            // Indexed versions for palette containers.
            if let indexed = try? bitmap.converted(to: .rgb8).withExactPalette(bitsPerComponent: 8) {
                for container in [ContainerFormat.png, .gif, .bmp, .tiff] {
                    if let bytes = try? ImageCodecs.encode(Image(bitmap: indexed), as: container) {
                        seeds.append(.init(name: "\(container.rawValue)-indexed", bytes: bytes))
                    }
                }
            }
        }
        return seeds
    }

    /// A smooth gradient with a few distinct colours, in `format` (posterised so palettes fit).
    static func gradient(width: Int, height: Int, format: PixelFormat) -> Bitmap? {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                bytes[i] = UInt8((x * 255 / (width - 1)) & 0xF0)
                bytes[i + 1] = UInt8((y * 255 / (height - 1)) & 0xC0)
                bytes[i + 2] = UInt8(((x + y) & 1) * 200)
                bytes[i + 3] = x < 3 ? 0 : 255
            }
        }
        guard let rgba = try? Bitmap(width: width, height: height, format: .rgba8, bytes: bytes) else { return nil }
        return try? rgba.converted(to: format)
    }

    /// Image files under `dir` (sorted, at most 256 KiB each) as extra seeds.
    static func fileSeeds(under dir: String) -> [MutationFuzzer.Seed] {
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        var paths: [String] = []
        while let p = walker.nextObject() as? String { paths.append(p) }
        return paths.sorted().compactMap { p in
            let full = (dir as NSString).appendingPathComponent(p)
            guard let data = FileManager.default.contents(atPath: full), data.count <= 256 << 10,
                  ContainerFormat(sniffing: [UInt8](data.prefix(8))) != nil else { return nil }
            return .init(name: p, bytes: [UInt8](data))
        }
    }
}

/// Ends the process when one input takes longer than the timeout: a hang.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (index: Int, seed: String, started: Date)?
    private let timeout: Double

    init(timeout: Double) {
        self.timeout = timeout
        let thread = Thread { [weak self] in
            while let self {
                Thread.sleep(forTimeInterval: 0.5)
                self.lock.lock()
                let c = self.current
                self.lock.unlock()
                if let c, Date().timeIntervalSince(c.started) > self.timeout {
                    printError("imglab fuzz: HANG on input \(c.index) (seed \(c.seed)) after \(self.timeout) s; reproduce with --replay \(c.index) --out hang.bin")
                    exit(3)
                }
            }
        }
        thread.start()
    }

    func begin(_ index: Int, seed: String) {
        lock.lock(); current = (index, seed, Date()); lock.unlock()
    }

    func end() {
        lock.lock(); current = nil; lock.unlock()
    }
}
