import Foundation
import Testing
import ImageCore
import ImageCodecs

/// `imglab-measure`, `imglab decode` and the scale profile's command line.
@Suite("scale profile commands")
struct ScaleProfileCommandTests {
    /// `imglab-measure` beside the built imglab.
    static var meter: String { (ImglabRun.executable as NSString).deletingLastPathComponent + "/imglab-measure" }

    /// Runs `imglab-measure FILE program args…` and returns its exit status and the cost line's
    /// three numbers (KiB, µs, µs).
    static func measure(_ program: [String]) throws -> (status: Int32, fields: [Int]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-meter-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: meter)
        process.arguments = [file] + program
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let line = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return (process.terminationStatus, line.split(whereSeparator: \.isWhitespace).compactMap { Int($0) })
    }

    @Test("imglab-measure reports the program's own peak memory: dd with a 64 MiB buffer peaks at 64 MiB or more, true at a few MiB")
    func meterPeak() throws {
        let big = try Self.measure(["/bin/dd", "if=/dev/zero", "of=/dev/null", "bs=64M", "count=1"])
        #expect(big.status == 0 && big.fields.count == 3)
        #expect(big.fields.first ?? 0 >= 64 * 1024)
        // Not the parent's peak (this test process holds far more than 8 MiB).
        let small = try Self.measure(["/bin/true"])
        #expect(small.status == 0 && small.fields.count == 3)
        #expect(small.fields.first ?? .max < 8 * 1024)
    }

    @Test("imglab-measure exits with the program's status and 127 when the program cannot start")
    func meterStatus() throws {
        #expect(try Self.measure(["/bin/sh", "-c", "exit 3"]).status == 3)
        #expect(try Self.measure(["/nonexistent/program"]).status == 127)
    }

    @Test("imglab decode --average-to adds every delivered byte once: the mean byte of a known image, and its size")
    func decodeAverages() throws {
        // A 6 × 4 grey image whose byte at (x, y) is 10·x + y: the mean is 10·2.5 + 1.5 = 26.5.
        var bytes: [UInt8] = []
        for y in 0..<4 { for x in 0..<6 { bytes.append(UInt8(10 * x + y)) } }
        let png = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 6, height: 4, format: .gray8, bytes: bytes)), as: .png)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-decode-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(png).write(to: URL(fileURLWithPath: path))
        let run = try ImglabRun.run(["decode", path, "--average-to", "3x2"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("6×4"))
        #expect(run.stdout.contains("mean byte 26.500"))
        #expect(try ImglabRun.run(["decode", path, "--average-to", "0x2"]).status == 2)
        #expect(try ImglabRun.run(["decode", path + ".missing"]).status == 1)
    }

    @Test("run --profile scale refuses --inputs and a resizer that is not a process (exit 2, saying why)")
    func scaleUsage() throws {
        let inputs = try ImglabRun.run(["run", "--profile", "scale", "--inputs", "/tmp", "--report", "none"])
        #expect(inputs.status == 2 && inputs.stderr.contains("--profile scale"))
        let mutant = try ImglabRun.run(["run", "--profile", "scale", "--resizer", "mutant:swap-rb", "--report", "none"])
        #expect(mutant.status == 2 && mutant.stderr.contains("child process"))
    }
}
