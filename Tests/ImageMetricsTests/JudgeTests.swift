import Testing
import ImageCore
import ImageMetrics

/// The one judge: compare → canaries → gate → diagnosis, on small images whose differences are
/// known by arithmetic.
@Suite("judge")
struct JudgeTests {
    /// A `width`×30 RGB image: R = 6x, G = 8y, B = 200 − x, each plus `red` / with R and B swapped.
    static func image(width: Int = 40, red: Int = 0, swap: Bool = false, name: String) throws -> ComparedImage {
        var bytes: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<width {
                let r = UInt8(6 * x + red), g = UInt8(8 * y), b = UInt8(200 - x)
                bytes += swap ? [b, g, r] : [r, g, b]
            }
        }
        return ComparedImage(image: Image(bitmap: try Bitmap(width: width, height: 30, format: .rgb8, bytes: bytes)), name: name)
    }

    @Test("red raised by 3 everywhere passes 'exact.max <= 3' without running the diagnosis")
    func gatePass() throws {
        var diagnosisCalls = 0
        let judgement = Judge(gate: try GateExpression("exact.max <= 3 && alpha.max <= 0"))
            .judge(expected: try Self.image(name: "e"), actual: try Self.image(red: 3, name: "a")) { diagnosisCalls += 1; return [] }
        #expect(judgement.verdict == .pass)
        #expect(judgement.gate?.clauses.map(\.text) == ["exact.max 3 <= 3: holds", "alpha.max 0 <= 0: holds"])
        #expect(judgement.comparison.value("exact.pixels") == 1200)  // 40 × 30, every pixel
        #expect(!judgement.diagnosed && diagnosisCalls == 0)
        #expect(judgement.comparison.diagnosis.summary == "not run")
        #expect(judgement.canaryFailures == nil, "the canaries run only when asked")
    }

    @Test("R and B swapped fails 'exact.max <= 1' with exact.max = 200 and is diagnosed channel-order")
    func gateFailureDiagnosed() throws {
        var diagnosisCalls = 0
        let judgement = Judge(gate: try GateExpression("exact.max <= 1"))
            .judge(expected: try Self.image(name: "e"), actual: try Self.image(swap: true, name: "a")) { diagnosisCalls += 1; return [] }
        #expect(judgement.verdict == .fail)
        // |R − B| = |6x − (200 − x)| = |7x − 200|, largest at x = 0: 200.
        #expect(judgement.failedClauses == ["exact.max 200 > 1: fails"])
        #expect(judgement.diagnosed && diagnosisCalls == 1)
        #expect(judgement.comparison.diagnosis.bugClass == "channel-order")
        #expect(judgement.comparison.diagnosis.sentence.hasPrefix("channel-order (confidence "))
    }

    @Test("a failed canary stops before the gate: canariesFailed, no gate result, no diagnosis")
    func failedCanaryStops() throws {
        let broken = Canaries.Failure(metric: "ssim", pair: "disturbed", reason: "reports 1 for a pair that must differ")
        let judgement = Judge(gate: try GateExpression("exact.max <= 255"), canaries: .checked([broken]))
            .judge(expected: try Self.image(name: "e"), actual: try Self.image(swap: true, name: "a"))
        #expect(judgement.verdict == .canariesFailed)
        #expect(judgement.gate == nil, "a gate that would pass is not evaluated")
        #expect(judgement.canaryFailures == [broken])
        #expect(!judgement.diagnosed)
        // Passed canaries are recorded and let the gate decide.
        let passed = Judge(gate: try GateExpression("exact.max <= 255"), canaries: .checked([]))
            .judge(expected: try Self.image(name: "e"), actual: try Self.image(swap: true, name: "a"))
        #expect(passed.verdict == .pass && passed.canaryFailures == [])
    }

    @Test("different sizes: no gate evaluated, the size finding, diagnosed")
    func differentSizes() throws {
        let judgement = Judge(gate: try GateExpression("exact.max <= 1"))
            .judge(expected: try Self.image(width: 40, name: "e"), actual: try Self.image(width: 30, name: "a"))
        #expect(judgement.verdict == .differentSizes)
        #expect(judgement.gate == nil)
        #expect(judgement.sizeFinding == "size 30×30, expected 40×30")
        #expect(judgement.diagnosed)
        #expect(judgement.comparison.value("exact.max") == nil)
    }

    @Test("a gate metric with no value (MS-SSIM needs 176 px; these have 30) makes the gate unusable, not passed")
    func metricWithoutValue() throws {
        let judgement = Judge(gate: try GateExpression("msssim >= 0.9"))
            .judge(expected: try Self.image(name: "e"), actual: try Self.image(name: "a"))
        #expect(judgement.verdict == .gateUnusable(.missingValue("msssim")))
        #expect(!judgement.passed && judgement.gate == nil && !judgement.diagnosed)
    }

    @Test("a 40×5 pair has no SSIM (11-pixel window) and size.min 5, so '(ssim >= 0.99 || size.min < 11)' rests on the other terms")
    func thinImagesWithoutSSIM() throws {
        func thin(red: Int) throws -> ComparedImage {
            let full = try Self.image(red: red, name: "t").image.bitmap
            let rows = Array(full.bytes[0..<(40 * 5 * 3)])
            return ComparedImage(image: Image(bitmap: try Bitmap(width: 40, height: 5, format: .rgb8, bytes: rows)), name: "t")
        }
        let gate = try GateExpression("(ssim >= 0.99 || size.min < 11) && exact.max <= 1")
        let same = Judge(gate: gate).judge(expected: try thin(red: 0), actual: try thin(red: 0))
        #expect(same.comparison.value("ssim") == nil)
        #expect(same.comparison.value("size.min") == 5)
        #expect(same.verdict == .pass)
        #expect(Judge(gate: gate).judge(expected: try thin(red: 0), actual: try thin(red: 3)).verdict == .fail)
        #expect(Judge(gate: gate).judge(expected: try Self.image(name: "e"), actual: try Self.image(name: "a")).comparison.value("size.min") == 30)
    }

    @Test("without a gate: identical by value passes, any difference fails; 'always' diagnoses a pass too")
    func noGate() throws {
        let e = try Self.image(name: "e")
        #expect(Judge(gate: nil).judge(expected: e, actual: try Self.image(name: "a")).verdict == .pass)
        #expect(Judge(gate: nil).judge(expected: e, actual: try Self.image(red: 3, name: "a")).verdict == .fail)
        let always = Judge(gate: try GateExpression("exact.max <= 3"), diagnosing: .always).judge(expected: e, actual: try Self.image(red: 3, name: "a"))
        #expect(always.verdict == .pass && always.diagnosed && always.comparison.diagnosis.summary != "not run")
    }
}
