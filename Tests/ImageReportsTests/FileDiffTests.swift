import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
import ImageMetrics
import TestSupport

/// `imglab diff` as a library call: decode, judge, exit status, JSON, report.
@Suite("file diff")
struct FileDiffTests {
    /// A 40×30 RGB PNG (R = 6x, G = 8y, B = 200 − x; R and B swapped when `swap`) in a fresh folder.
    static func png(swap: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<30 { for x in 0..<40 { let r = UInt8(6 * x), g = UInt8(8 * y), b = UInt8(200 - x); bytes += swap ? [b, g, r] : [r, g, b] } }
        let dir = try ScratchFolder.new("imglab-filediff")
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

    @Test("the anti-aliasing counts are computed only when a results file, a report or the gate asks for them, and then the same")
    func antiAliasingCountsWhenAsked() throws {
        let a = try Self.png(), b = try Self.png(swap: true)
        let folder = URL(fileURLWithPath: b).deletingLastPathComponent()
        defer {
            for f in [folder, URL(fileURLWithPath: a).deletingLastPathComponent()] { try? FileManager.default.removeItem(at: f) }
        }
        func metric(_ request: DiffRequest) throws -> (value: Double?, missing: String?, screen: String) {
            let outcome = try request.run()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any])
            let metrics = try #require(object["metrics"] as? [String: Any])
            let count = try #require(metrics["exact.over.5.nonAA"] as? [String: Any])
            return (count["value"] as? Double, count["missingReason"] as? String, outcome.screen)
        }
        let kept = try metric(DiffRequest(expected: a, actual: b, gate: nil))
        let value = try #require(kept.value, "a kept result carries the count")
        #expect(value > 0, "red and blue swapped: edges differ by more than 5 codes away from anti-aliasing")
        let screenOnly = try metric(DiffRequest(expected: a, actual: b, gate: nil, keepsResults: false))
        #expect(screenOnly.value == nil && screenOnly.missing?.contains("not computed") == true)
        #expect(screenOnly.screen == kept.screen, "the screen does not show the counts, so it is the same without them")
        let gated = try metric(DiffRequest(expected: a, actual: b, gate: try GateExpression("exact.over.5.nonAA <= 0"),
                                           keepsResults: false))
        #expect(gated.value == value)
        var reported = DiffRequest(expected: a, actual: b, gate: nil, keepsResults: false)
        reported.reportFolder = folder.appendingPathComponent("report").path
        #expect(try metric(reported).value == value)
    }
}
