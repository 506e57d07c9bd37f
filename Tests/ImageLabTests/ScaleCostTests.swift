import Foundation
import Testing
import ImageCorpus
import ImageMetrics
@testable import ImageLab

/// The scale profile's cost model: the floor's DCT scale, the cost metrics and the cost gate.
@Suite("scale costs")
struct ScaleCostTests {
    /// The scale case with this encoding and size.
    static func scaleCase(_ encoding: String, _ width: Int) throws -> CorpusCase {
        try #require(ScaleProfile.cases.first { $0.encoding.id == encoding && $0.width == width })
    }

    @Test("the floor decodes a JPEG thumbnail at the largest 1/d that covers the output, a resize at the largest that leaves 2x; other containers at 1/1")
    func floorScale() throws {
        let jpeg = try Self.scaleCase("jpeg-progressive", 6000)
        func scale(_ op: LabOperation, container: String = "jpeg") throws -> Int {
            ScaleCost.floorScale(container: container, width: 6000, height: 4000, operation: op, placement: try ScaleProfile.placement(of: op, on: jpeg))
        }
        // Thumbnail 640 × 427 over the whole 6000 × 4000: 1/8 gives 750 × 500, enough.
        #expect(try scale(.maxPixelSize(640)) == 8)
        // Fit 800 × 533: leaving 2x needs 1600 × 1066, so 6000/d ≥ 1600 and 4000/d ≥ 1066: d = 2 (1/4 gives 1500).
        #expect(try scale(.resize(width: 800, height: 600, mode: .aspectFit)) == 2)
        // Fill 256 × 256 from the centred 4000 × 4000: 4000/d ≥ 512 on both axes: d = 4 (1/8 gives 500).
        #expect(try scale(.resize(width: 256, height: 256, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5))) == 4)
        #expect(try scale(.maxPixelSize(640), container: "png") == 1)
    }

    @Test("cost metrics: MiB and seconds from the two processes, memory over the floor, CPU as a ratio to it")
    func values() {
        let mib = 1_048_576
        let cost = ScaleCost(resizer: ProcessCost(peakRSSBytes: 40 * mib, cpuSeconds: 0.9, wallSeconds: 1),
                             floor: ProcessCost(peakRSSBytes: 30 * mib, cpuSeconds: 0.3, wallSeconds: 0.4), floorScale: 8, gate: nil)
        let v = cost.values
        #expect(v["cost.rss"] == 40 && v["floor.rss"] == 30 && v["cost.rss.overFloor"] == 10)
        #expect(v["cost.cpu"] == 0.9 && v["floor.cpu"] == 0.3 && v["cost.wall"] == 1)
        #expect(abs((v["cost.cpu.ratio"] ?? 0) - 3) < 1e-12)
        let free = ScaleCost(resizer: cost.resizer, floor: ProcessCost(peakRSSBytes: mib, cpuSeconds: 0, wallSeconds: 0), floorScale: 1, gate: nil)
        #expect(free.values["cost.cpu.ratio"] == nil)  // no ratio to a floor of no time: the gate cannot pass on it
    }

    @Test("the meter's line 'maxrss_kib user_us system_us' reads as bytes and seconds; anything else is refused")
    func meterLine() {
        let c = ProcessCost(meterLine: "2048 250000 50000\n", wallSeconds: 0.5)
        #expect(c == ProcessCost(peakRSSBytes: 2048 * 1024, cpuSeconds: 0.3, wallSeconds: 0.5))
        #expect(ProcessCost(meterLine: "", wallSeconds: 0) == nil)
        #expect(ProcessCost(meterLine: "1 2", wallSeconds: 0) == nil)
        #expect(ProcessCost(meterLine: "-1 2 3", wallSeconds: 0) == nil)
    }

    @Test("a gates file's cost gate may name only cost and floor metrics; the committed one parses")
    func costGateNames() throws {
        func book(cost: String) throws -> GateBook {
            try GateBook(data: Data(#"{"schema": "imglab-gates/1", "families": [{"name": "f", "gate": "exact.max <= 1"}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}], "cost": {"gate": "\#(cost)"}}"#.utf8))
        }
        #expect(try book(cost: "cost.rss.overFloor <= 24 && cost.cpu.ratio <= 4").cost?.metricNames == ["cost.rss.overFloor", "cost.cpu.ratio"])
        #expect(throws: RunError.self) { try book(cost: "ssim >= 0.9") }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try GateBook.load(corpus: root.appendingPathComponent("Corpus").path)
        #expect(committed.cost != nil)
    }
}
