import ImageCore
import ImageCodecs

/// The decode stage of a pair of files (`imglab diff` of two files, each pair of a folder diff,
/// the fuzzed diff pipeline): each file is read (refused beyond the budget) with its header, and
/// the memory the comparison needs is checked against the budget (`limits.maxBytes`) before any
/// pixel is decoded; then the sides are decoded, each decoder getting what the others and the
/// judgement leave it.
public enum PairDecoding {
    /// One compared file: the decoded image and the file's bytes.
    public struct Side: Sendable {
        /// The decoded image, named by its path.
        public var compared: ComparedImage
        /// The file's bytes (the report embeds them as they are); empty when the caller did not keep them.
        public var bytes: [UInt8]
    }

    /// A file read, not yet decoded: its path, bytes and header.
    public struct File: Sendable {
        /// The path as given.
        public var path: String
        /// The whole file.
        public var bytes: [UInt8]
        /// Its header, read without decoding a pixel.
        public var header: ImageHeader
    }

    /// Bytes of working memory the judgement needs per displayed pixel of the larger image, on
    /// top of both files and both decoded images: the value images of both sides (up to 8
    /// bytes a pixel each; an 8-bit image's are its codes, those of a tight 8-bit RGB(A) image
    /// its decoded bytes, so this over-counts them), the float planes of SSIM, MS-SSIM and SSIMULACRA 2 and the
    /// diagnosis's candidate renderings, which are banded. Measured: the peak RSS of
    /// `imglab diff --report` grows by 20–34 bytes a pixel, decoded images included, over
    /// 1–16 MP pairs of 8- and 16-bit RGBA and gray (`benchmarks/memory-budget.sh`).
    public static let workingBytesPerPixel = 32

    /// The bytes comparing files with these headers needs: the files, the decoded images (every
    /// frame of an animation) and the working memory.
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

    /// Reads a file (refused beyond `options.limits.maxBytes`) and its header.
    /// - Throws: ``FileComparisonError/unreadable(_:_:)``.
    public static func read(_ path: String, options: DecodeOptions) throws(FileComparisonError) -> File {
        do throws(DecodeError) {
            let bytes = try ImageCodecs.readFile(path, limit: options.limits.maxBytes)
            return File(path: path, bytes: bytes, header: try ImageCodecs.readHeader(bytes, options: options))
        } catch { throw .unreadable(path, error) }
    }

    /// Checks the budget (`options.limits.maxBytes`) for the files together, then decodes them on
    /// up to `threads` threads (each decoder is single-threaded).
    /// - Throws: ``FileComparisonError/overBudget(needed:budget:sizes:)`` before any pixel is
    ///   decoded, or ``FileComparisonError/unreadable(_:_:)`` for the first file that fails.
    public static func decode(_ files: [File], options: DecodeOptions, threads: Int) throws(FileComparisonError) -> [Side] {
        let budget = options.limits.maxBytes, headers = files.map(\.header)
        let needed = memoryNeeded(headers, fileBytes: files.map(\.bytes.count))
        guard needed <= budget else {
            throw .overBudget(needed: needed, budget: budget, sizes: headers.map { "\($0.width)×\($0.height)" })
        }
        var sideOptions = options
        sideOptions.limits.maxBytes = budget - (needed - (headers.map { memoryNeeded([$0], fileBytes: [0]) }.max() ?? 0))
        let fixed = sideOptions
        let decoded = ParallelMap.run(files.count, threads: max(1, min(threads, files.count))) { i -> Result<Side, DecodeError> in
            do throws(DecodeError) {
                let image = try ImageCodecs.decode(files[i].bytes, options: fixed)
                return .success(Side(compared: ComparedImage(image: image, name: files[i].path, container: files[i].header.container),
                                     bytes: files[i].bytes))
            } catch {
                return .failure(error)
            }
        }
        var sides: [Side] = []
        for (file, result) in zip(files, decoded) {
            switch result {
            case .success(let side): sides.append(side)
            case .failure(let error): throw .unreadable(file.path, error)
            }
        }
        return sides
    }
}
