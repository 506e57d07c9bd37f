import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageLab

/// `--performance-mutant ID` on `imglab resize` and `imglab thumbnail`: each variant writes the
/// same pixels as the built-in (within one code value), at another cost (measured by
/// `imglab run --profile scale`, not here).
@Suite("performance mutants: the built-in's pixels at the wrong cost")
struct PerformanceMutantCommandTests {
    /// A 90×60 picture with orientation 6 (displayed 60×90): RGB for JPEG, RGBA with varying
    /// alpha for PNG. Small enough that no operation below reaches a DCT scale, so the built-in
    /// reads it at full size too: the boxes need 90 / 2 ≥ 2 · 30 (false), the thumbnail of 50
    /// (stored 50×33) needs ⌈90 / 2⌉ = 45 ≥ 50 (false).
    static func writeInput(_ container: ContainerFormat) throws -> String {
        let alpha = container == .png
        var bytes: [UInt8] = []
        for y in 0..<60 {
            for x in 0..<90 {
                bytes += [UInt8(x * 2), UInt8(y * 4), UInt8((x * y) % 256)]
                if alpha { bytes.append(UInt8(255 - (x + y))) }
            }
        }
        let image = Image(bitmap: try Bitmap(width: 90, height: 60, format: alpha ? .rgba8 : .rgb8, bytes: bytes), orientation: .right)
        let path = ResizeCommandTests.temporaryPath(container.fileExtension)
        try Data(try ImageCodecs.encode(image, as: container)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let operations: [[String]] = [
        ["resize", "--size", "30x30", "--mode", "aspectFit"],
        ["resize", "--size", "30x20", "--mode", "aspectFill", "--anchor", "top"],
        ["resize", "--size", "25x35"],
        ["resize", "--size", "20x20", "--mode", "aspectFillWithoutCrop", "--scale", "2"],
        ["thumbnail", "--max-pixel-size", "50"],
    ]

    @Test("every mutant's output is within one code value of the built-in's, for every operation, on a JPEG and an RGBA PNG",
          arguments: PerformanceMutant.allCases)
    func samePixels(mutant: PerformanceMutant) throws {
        for container in [ContainerFormat.jpeg, .png] {
            let input = try Self.writeInput(container)
            defer { try? FileManager.default.removeItem(atPath: input) }
            for operation in Self.operations {
                let normal = ResizeCommandTests.temporaryPath("png"), wasteful = ResizeCommandTests.temporaryPath("png")
                defer { [normal, wasteful].forEach { try? FileManager.default.removeItem(atPath: $0) } }
                let command = [operation[0], input] + operation.dropFirst()
                let a = try ImglabRun.run(command + ["-o", normal])
                let b = try ImglabRun.run(command + ["--performance-mutant", mutant.id, "-o", wasteful])
                #expect(a.status == 0 && b.status == 0, "\(container) \(operation): \(a.stderr)\(b.stderr)")
                let x = try ImageCodecs.decode(contentsOf: normal), y = try ImageCodecs.decode(contentsOf: wasteful)
                #expect((x.width, x.height, x.format) == (y.width, y.height, y.format), "\(container) \(operation)")
                let worst = zip(x.bitmap.bytes, y.bitmap.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 1, "\(mutant.id) \(container) \(operation): worst difference \(worst)")
            }
        }
    }

    @Test("an unknown mutant id is a usage error that lists the valid ones")
    func unknownId() throws {
        let input = try Self.writeInput(.png)
        defer { try? FileManager.default.removeItem(atPath: input) }
        for command in [["resize", input, "--size", "10x10"], ["thumbnail", input, "--max-pixel-size", "10"]] {
            let run = try ImglabRun.run(command + ["--performance-mutant", "slow", "-o", ResizeCommandTests.temporaryPath("png")])
            #expect(run.status == 2)
            #expect(run.stderr.contains("--performance-mutant must be no-shrink-on-load, whole-image, per-pixel-allocation or full-size-float, not 'slow'"),
                    "\(run.stderr)")
        }
    }

    @Test("a mutant with an operation it does not cover (crop, border) is a usage error")
    func uncoveredOperation() throws {
        let input = try Self.writeInput(.png)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let run = try ImglabRun.run(["resize", input, "--size", "10x10", "--border", "2", "--performance-mutant", "whole-image",
                                     "-o", ResizeCommandTests.temporaryPath("png")])
        #expect(run.status == 2 && run.stderr.contains("--performance-mutant whole-image"), "\(run.stderr)")
    }

    @Test("each mutant is named by its cost diagnosis")
    func diagnoses() {
        #expect(PerformanceMutant.allCases.map(\.id) == ["no-shrink-on-load", "whole-image", "per-pixel-allocation", "full-size-float"])
        #expect(PerformanceMutant.noShrinkOnLoad.diagnosis == "no DCT-domain scaling: decodes the JPEG at full size")
        #expect(PerformanceMutant.wholeImage.diagnosis == "memory grows with the input, not the output: the whole image is held")
        #expect(PerformanceMutant.perPixelAllocation.diagnosis == "CPU grows with allocations: one per pixel")
        #expect(PerformanceMutant.fullSizeFloat.diagnosis == "memory grows with the input: a full-size float working image")
    }
}
