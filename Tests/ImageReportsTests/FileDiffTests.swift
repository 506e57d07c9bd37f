import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics

/// `imglab diff` as a library call: decode, judge, exit status, JSON, report.
@Suite("file diff")
struct FileDiffTests {
    /// A 40×30 RGB PNG (R = 6x, G = 8y, B = 200 − x; R and B swapped when `swap`) in a fresh folder.
    static func png(swap: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<30 { for x in 0..<40 { let r = UInt8(6 * x), g = UInt8(8 * y), b = UInt8(200 - x); bytes += swap ? [b, g, r] : [r, g, b] } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-filediff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(swap ? "swapped.png" : "plain.png").path
        try Data(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 40, height: 30, format: .rgb8, bytes: bytes)), as: .png))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a failed canary exits 2 and says so; the JSON carries canaries.passed = false and no gate")
    func failedCanary() throws {
        let a = try Self.png()
        let broken = Canaries.Failure(metric: "psnr", pair: "disturbed", reason: "reports inf for a pair that must differ")
        let outcome = try FileDiff(expected: a, actual: a, gate: try GateExpression("exact.max <= 1"), canaries: .checked([broken])).run()
        #expect(outcome.exitStatus == 2)
        #expect(outcome.problem == "metric canaries failed, the gate was not evaluated: canary 'disturbed': psnr reports inf for a pair that must differ")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any])
        let canaries = try #require(object["canaries"] as? [String: Any])
        #expect(canaries["passed"] as? Bool == false)
        #expect(object["gate"] == nil)
    }

    @Test("swapped channels fail the gate (exit 1) and the report names channel-order; an unreadable file throws")
    func failureAndReport() throws {
        let a = try Self.png(), b = try Self.png(swap: true)
        let folder = URL(fileURLWithPath: b).deletingLastPathComponent().appendingPathComponent("report-\(UUID().uuidString)").path
        let report = folder + "/index.html"
        let outcome = try FileDiff(expected: a, actual: b, gate: try GateExpression("exact.max <= 1"), reportFolder: folder).run()
        #expect(outcome.reportPath == report && outcome.screen.contains(report), "the screen names the page written")
        #expect(outcome.exitStatus == 1 && outcome.problem == nil)
        #expect(outcome.screen.contains("✗ exact.max 200 > 1: fails"))
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<strong>channel-order</strong>"))
        #expect(throws: FileDiffError.self) { _ = try FileDiff(expected: a, actual: a + ".missing").run() }
    }
}
