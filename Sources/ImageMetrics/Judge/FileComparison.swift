import ImageCore
import ImageCodecs

/// Two image files judged by value (`imglab diff`, and its fuzzed pipeline): both headers are
/// read and the memory the comparison needs is checked against the budget
/// (`decode.limits.maxBytes`) before any pixel is decoded; then both are decoded at once
/// (each decoder is single-threaded) and judged (``Judge``: the canaries guard a gate, the
/// diagnosis always runs).
public struct FileComparison: Sendable {
    /// The file the actual image is compared against.
    public var expectedPath: String
    public var actualPath: String
    /// The gate; `nil`: the files pass only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double
    /// The decode options of both files; `limits.maxBytes` is the whole comparison's memory budget.
    public var decode: DecodeOptions
    /// The canaries that guard the gate (tests inject a failing result).
    public var canaries: Judge.CanaryCheck

    public init(expected: String, actual: String, gate: GateExpression? = nil, tolerance: Double = 0,
                decode: DecodeOptions = DecodeOptions(), canaries: Judge.CanaryCheck = .run) {
        self.expectedPath = expected
        self.actualPath = actual
        self.gate = gate
        self.tolerance = tolerance
        self.decode = decode
        self.canaries = canaries
    }

    /// One compared file: the decoded image and the file's bytes.
    public struct Side: Sendable {
        public var compared: ComparedImage
        public var bytes: [UInt8]
    }

    /// Bytes of working memory the judgement needs per displayed pixel of the larger image, on
    /// top of both files and both decoded images: the 16-bit value images of both sides
    /// (8 bytes a pixel each), the float planes of SSIM, MS-SSIM and SSIMULACRA 2 and the
    /// diagnosis's candidate renderings, which are banded. Measured: the peak RSS of
    /// `imglab diff --report` grows by 20–34 bytes a pixel, decoded images included, over
    /// 1–16 MP pairs of 8- and 16-bit RGBA and gray (`benchmarks/memory-budget.sh`).
    public static let workingBytesPerPixel = 32

    /// The bytes comparing two files with these headers needs: both files, both decoded
    /// images (every frame of an animation) and the working memory.
    public static func memoryNeeded(_ headers: [ImageHeader], fileBytes: [Int]) -> Int {
        var total = fileBytes.reduce(0, +), largest = 0
        for h in headers {
            let pixels = h.width.multipliedReportingOverflow(by: h.height)
            guard !pixels.overflow else { return .max }
            let decoded = pixels.partialValue.multipliedReportingOverflow(by: max(h.format.bitsPerPixel, 8) * max(h.frameCount, 1) / 8 + 1)
            guard !decoded.overflow else { return .max }
            total = total.addingReportingOverflow(decoded.partialValue).overflow ? .max : total + decoded.partialValue
            largest = max(largest, pixels.partialValue)
        }
        let work = largest.multipliedReportingOverflow(by: workingBytesPerPixel)
        guard !work.overflow, !total.addingReportingOverflow(work.partialValue).overflow else { return .max }
        return total + work.partialValue
    }

    /// Reads both headers, checks the budget, decodes and judges.
    /// - Throws: ``FileComparisonError``: a file that cannot be read or decoded, or a pair
    ///   whose comparison needs more memory than the budget.
    public func run() throws(FileComparisonError) -> (judgement: Judgement, expected: Side, actual: Side) {
        let paths = [expectedPath, actualPath], budget = decode.limits.maxBytes
        var read: [(bytes: [UInt8], header: ImageHeader)] = []
        for path in paths {
            do throws(DecodeError) {
                let bytes = try ImageCodecs.readFile(path, limit: budget)
                read.append((bytes, try ImageCodecs.readHeader(bytes, options: decode)))
            } catch { throw .unreadable(path, error) }
        }
        let files = read.map(\.bytes), headers = read.map(\.header)
        let needed = Self.memoryNeeded(headers, fileBytes: files.map(\.count))
        guard needed <= budget else {
            throw .overBudget(needed: needed, budget: budget, sizes: headers.map { "\($0.width)×\($0.height)" })
        }
        // Each decoder gets what the other side and the judgement leave it.
        var sideOptions = decode
        sideOptions.limits.maxBytes = budget - (needed - (headers.map { Self.memoryNeeded([$0], fileBytes: [0]) }.max() ?? 0))
        let options = sideOptions
        let decoded = ParallelMap.run(2, threads: 2) { i -> Result<Side, DecodeError> in
            do throws(DecodeError) {
                let image = try ImageCodecs.decode(files[i], options: options)
                return .success(Side(compared: ComparedImage(image: image, name: paths[i], container: headers[i].container), bytes: files[i]))
            } catch {
                return .failure(error)
            }
        }
        var sides: [Side] = []
        for (path, result) in zip(paths, decoded) {
            switch result {
            case .success(let side): sides.append(side)
            case .failure(let error): throw .unreadable(path, error)
            }
        }
        let judgement = Judge(gate: gate, tolerance: tolerance, canaries: canaries, diagnosing: .always)
            .judge(expected: sides[0].compared, actual: sides[1].compared)
        return (judgement, sides[0], sides[1])
    }
}

/// Why ``FileComparison`` could not compare two files (exit status 2).
public enum FileComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file that cannot be read or decoded (within the limits).
    case unreadable(String, DecodeError)
    /// Comparing the files needs `needed` bytes, more than the `budget` (`--max-memory`).
    case overBudget(needed: Int, budget: Int, sizes: [String])

    public var description: String {
        switch self {
        case .unreadable(let path, let error): return "\(path): \(error)"
        case .overBudget(let needed, let budget, let sizes):
            return "comparing \(sizes.joined(separator: " and ")) images needs about \(needed >> 20) MiB, over the memory budget of \(budget >> 20) MiB; raise it with --max-memory"
        }
    }
}
