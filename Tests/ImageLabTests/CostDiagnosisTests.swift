import Testing
import ImageMetrics
@testable import ImageLab
@testable import ImageCorpus

/// The cost diagnosis names a failing scale pair from its measured figures; the figures here
/// are made up so that each rule's arithmetic decides alone.
@Suite("Cost diagnosis")
struct CostDiagnosisTests {
    static let mib = 1_048_576
    static let gate = "cost.rss.overFloor <= 24 && cost.cpu.ratio <= 4"

    /// A cost whose floor took `floorCPU` s and `floorMiB`, the resizer `cpu` s and `mib`, judged by ``gate``.
    func cost(cpu: Double, mib: Int, floorCPU: Double, floorMiB: Int = 20, floorScale: Int = 8) throws -> ScaleCost {
        var c = ScaleCost(resizer: ProcessCost(peakRSSBytes: mib * Self.mib, cpuSeconds: cpu, wallSeconds: cpu),
                          floor: ProcessCost(peakRSSBytes: floorMiB * Self.mib, cpuSeconds: floorCPU, wallSeconds: floorCPU),
                          floorScale: floorScale, gate: nil)
        let values = c.values
        c.gate = try GateExpression(Self.gate).evaluate { values[$0] }
        return c
    }

    @Test("a CPU overrun that is mostly what the call costs on an output-sized source is a fixed cost per call")
    func fixedCost() throws {
        // 0.28 s against a 0.05 s floor (×5.6); the same call on a small source takes 0.15 s: over half.
        let c = try cost(cpu: 0.28, mib: 30, floorCPU: 0.05)
        let finding = CostDiagnosis.finding(c, sourcePixels: 6019 * 6019, decodedBytesPerPixel: 3, fullDecode: ProcessCost(peakRSSBytes: 0, cpuSeconds: 0.24, wallSeconds: 0.24),
                                            fixedCost: ProcessCost(peakRSSBytes: 0, cpuSeconds: 0.15, wallSeconds: 0.15))
        #expect(finding?.bugClass == "cpu-fixed-cost")
    }

    @Test("CPU beyond the fixed cost reaching 80 % of a full JPEG decode is no DCT scaling")
    func noDCTScaling() throws {
        // 0.30 s − 0.02 s fixed = 0.28 s ≥ 0.8 × 0.30 s = 0.24 s.
        let c = try cost(cpu: 0.30, mib: 30, floorCPU: 0.05)
        let full = ProcessCost(peakRSSBytes: 0, cpuSeconds: 0.30, wallSeconds: 0.30)
        #expect(CostDiagnosis.finding(c, sourcePixels: 6019 * 6019, decodedBytesPerPixel: 3, fullDecode: full,
                                      fixedCost: ProcessCost(peakRSSBytes: 0, cpuSeconds: 0.02, wallSeconds: 0.02))?.bugClass == "no-dct-scaling")
        // The same CPU with 0.12 s of it fixed: 0.18 s < 0.24 s, and 0.12 < half of 0.30, so work per pixel.
        #expect(CostDiagnosis.finding(c, sourcePixels: 6019 * 6019, decodedBytesPerPixel: 3, fullDecode: full,
                                      fixedCost: ProcessCost(peakRSSBytes: 0, cpuSeconds: 0.12, wallSeconds: 0.12))?.bugClass == "cpu-per-pixel")
    }

    @Test("memory over the floor is named by its share of the decoded image: under 0.6 a part, to 2.5 the image, beyond several images")
    func memoryPerPixel() throws {
        // 6000 × 4000 = 24 M pixels of 3 bytes decoded (68.7 MiB): 30 MiB more is 1.3 bytes a pixel (0.44 of it),
        // 96 MiB 4.2 (1.4 of it), 400 MiB 17.5 (5.8 of it).
        let buffers = try cost(cpu: 0.1, mib: 20 + 30, floorCPU: 0.1)
        #expect(CostDiagnosis.finding(buffers, sourcePixels: 24_000_000, decodedBytesPerPixel: 3, fullDecode: nil)?.bugClass == "memory-partial-image")
        let held = try cost(cpu: 0.1, mib: 20 + 96, floorCPU: 0.1)
        #expect(CostDiagnosis.finding(held, sourcePixels: 24_000_000, decodedBytesPerPixel: 3, fullDecode: nil)?.bugClass == "memory-whole-image")
        // The same 4.2 bytes a pixel on a 16-bit RGB source (6 bytes decoded) is 0.7 of the image: still held whole.
        #expect(CostDiagnosis.finding(held, sourcePixels: 24_000_000, decodedBytesPerPixel: 6, fullDecode: nil)?.bugClass == "memory-whole-image")
        let copies = try cost(cpu: 0.1, mib: 20 + 400, floorCPU: 0.1)
        #expect(CostDiagnosis.finding(copies, sourcePixels: 24_000_000, decodedBytesPerPixel: 3, fullDecode: nil)?.bugClass == "memory-image-copies")
        // 17.5 bytes a pixel is 2.2 images of 8 bytes (RGBA 16-bit): two images' worth, not copies.
        #expect(CostDiagnosis.finding(copies, sourcePixels: 24_000_000, decodedBytesPerPixel: 8, fullDecode: nil)?.bugClass == "memory-whole-image")
    }

    @Test("a cost within the gate has no finding")
    func passingCost() throws {
        let c = try cost(cpu: 0.1, mib: 25, floorCPU: 0.05)
        #expect(c.gate?.passed == true)
        #expect(CostDiagnosis.finding(c, sourcePixels: 24_000_000, decodedBytesPerPixel: 3, fullDecode: nil) == nil)
    }

    @Test("the fixed-cost source keeps the case's container and aspect and just covers the output")
    func fixedCostSource() throws {
        let c = try #require(ScaleProfile.cases.first { $0.width == 6000 && $0.height == 4000 && $0.encoding.container == .jpeg })
        let fill = CostDiagnosis.fixedCostSource(of: c, output: (256, 256))
        #expect((fill.width, fill.height) == (384, 256))
        let fit = CostDiagnosis.fixedCostSource(of: c, output: (800, 533))
        #expect((fit.width, fit.height) == (800, 534))
        #expect(fit.encoding == c.encoding)
    }
}
