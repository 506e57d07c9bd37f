import Foundation
import Testing
import ImageCore
import ImageCodecs

/// Every number `imglab resize` reads is checked before use: NaN,
/// infinities, integers past Int, and sizes beyond the output limit (65535 pixels a side,
/// 16383² = 268402689 pixels in all) are usage errors (exit 2) naming the value, never a trap.
@Suite("command-line numbers")
struct CommandLineNumberTests {
    static func input() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-numbers-\(UUID().uuidString).png").path
        let bytes = [UInt8](repeating: 90, count: 8 * 6 * 3)
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 8, height: 6, format: .rgb8, bytes: bytes)), as: .png), to: path)
        return path
    }

    @Test("sizes, scales and rectangles that are not finite or beyond the limits exit 2 with the value or the limit in the message",
          arguments: [
            (["--size", "9223372036854775807x9223372036854775807"], "65535 pixels a side"),
            (["--size", "99999999x1"], "65535 pixels a side"),
            (["--size", "100000x100000"], "65535 pixels a side"),
            // 20000 × 20000 = 400,000,000 pixels > 268,402,689, each side within 65535.
            (["--size", "20000x20000"], "268402689 pixels in all"),
            // 1000 pt at scale 100 = 100,000 px a side.
            (["--size", "1000x1000", "--scale", "100"], "65535 pixels a side"),
            (["--size", "10x10", "--scale", "1e308"], "--scale must be a number in 0.01…1000"),
            (["--size", "10x10", "--scale", "nan"], "--scale must be a number"),
            (["--size", "10x10", "--scale", "inf"], "--scale must be a number"),
            (["--rounded-corners", "1e308"], "--rounded-corners must be a number in 0…65535"),
            // A border within its own range that frames a box beyond the limit: 100 + 2 × 10000 a side, 20100² pixels.
            (["--size", "100x100", "--transparent-border", "10000"], "with --transparent-border 10000"),
            (["--crop", "nan,0,5,5"], "x nan is not a finite number"),
            (["--crop", "0,0,5,inf"], "height inf is not a finite number"),
            (["--crop", "0,0,5e300,5"], "width 5e+300 is not a finite number of pixels within ±2147483648"),
            (["--crop", "0,0,-5,5"], "W and H must be positive"),
            (["--crop", "0,0,5"], "needs X,Y,W,H"),
            (["--size", "4x4", "--from-rect", "0,0,inf,5"], "width inf is not a finite number"),
          ])
    func badNumbers(arguments: [String], message: String) throws {
        let input = try Self.input(), output = input + ".out.png"
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
        let run = try ImglabRun.run(["resize", input] + arguments + ["-o", output])
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("the output limit is stated in resize --help")
    func limitInHelp() throws {
        let run = try ImglabRun.run(["resize", "--help"])
        #expect(run.status == 0)
        let words = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("the box in pixels at most 65535 pixels a side and 268402689 pixels in all"))
    }

    @Test("a box at the limit's edge is accepted: --size 65535x1 writes a 65535×1 image")
    func edgeOfTheLimit() throws {
        let input = try Self.input(), output = input + ".out.png"
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
        let run = try ImglabRun.run(["resize", input, "--size", "65535x1", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try ImageCodecs.decode(contentsOf: output)
        #expect((out.width, out.height) == (65535, 1))
    }
}
