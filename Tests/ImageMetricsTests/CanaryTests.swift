import Testing
import ImageCore
import ImageMetrics

/// Fail closed: the canaries pass with the real metrics and catch metrics that cannot fail.
@Suite("canaries")
struct CanaryTests {
    @Test("every real metric tells the must-differ pair from the must-match pairs")
    func realMetricsPass() {
        let failures = Canaries.check()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("metrics stuck at 'identical' are caught, each by name")
    func stuckMetrics() {
        let stuck: [String: Double] = ["ssim": 1, "msssim": 1, "psnr": .infinity, "deltaE00.p99": 0, "alpha.max": 0, "exact.over.5": 0,
                                       "ssimulacra2": 100, "hidden.pixels": 0, "bias.translucent.g": 0, "cast.b": 0]
        let failures = Canaries.check { e, a, o in
            var c = Comparison(expected: e, actual: a, options: o)
            for (name, value) in stuck { c.metrics[name]?.value = value }
            return c
        }
        for name in stuck.keys {
            #expect(failures.contains { $0.metric == name && $0.pair == "disturbed" }, "\(name) not caught: \(failures)")
        }
    }

    @Test("a metric that always reports a difference is caught")
    func alwaysDifferent() {
        let failures = Canaries.check { e, a, o in
            var c = Comparison(expected: e, actual: a, options: o)
            c.metrics["deltaE00.mean"]?.value = 0.5
            return c
        }
        #expect(failures.contains { $0.metric == "deltaE00.mean" && $0.pair == "16-bit copy" })
    }

    @Test("a diagnosis that names nothing is caught")
    func blindDiagnosis() {
        let failures = Canaries.check { e, a, o in
            Comparison(expected: e, actual: a, options: ComparisonOptions(tolerance: o.tolerance, diagnose: false, structural: o.structural))
        }
        #expect(failures.contains { $0.metric == "diagnosis" })
    }
}
