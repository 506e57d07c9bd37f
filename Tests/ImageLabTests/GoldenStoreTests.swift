import Foundation
import Testing
import ImageReports
import ImageCore
@testable import ImageLab
@testable import ImageCorpus

@Suite("Golden store")
struct GoldenStoreTests {
    static func image(_ values: [UInt8]) throws -> Image {
        Image(bitmap: try Bitmap(width: 2, height: 1, format: .rgb8, bytes: values))
    }

    @Test("the pixel hash reads values, not storage: an RGB image and its RGBA16 copy share it; one code value changes it")
    func pixelHash() throws {
        let rgb = try Self.image([10, 20, 30, 40, 50, 60])
        let deep = Image(bitmap: try rgb.bitmap.converted(to: .rgba16))
        #expect(try GoldenStore.pixelHash(rgb) == GoldenStore.pixelHash(deep))
        #expect(try GoldenStore.pixelHash(rgb) != GoldenStore.pixelHash(Self.image([10, 20, 30, 40, 50, 61])))
    }

    @Test("a blessed output matches; another is closer or further by its oracle distance")
    func regression() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = GoldenStore(folder: folder)
        let blessed = try Self.image([10, 20, 30, 40, 50, 60])
        #expect(try store.bless([("c/o", blessed, "test", ["visible.mean": 2])]) == 1)
        #expect(try store.bless([("c/o", blessed, "test", ["visible.mean": 2])]) == 0)
        let goldens = try store.load().goldens["c/o"] ?? []
        #expect(goldens.count == 1)
        #expect(try GoldenStore.pixelHash(store.image(goldens[0])) == goldens[0].hash)
        let match = GoldenRegression.classify(blessed, distance: 2, goldens: goldens)
        #expect(match.verdict == .pass && match.text.hasPrefix("matches golden ") && match.golden == goldens[0])
        let other = try Self.image([0, 0, 0, 40, 50, 60])
        let closer = GoldenRegression.classify(other, distance: 1.5, goldens: goldens)
        #expect(closer.verdict == .changedCloser && closer.text.hasPrefix("changed, closer to the oracle"))
        let further = GoldenRegression.classify(other, distance: 2.5, goldens: goldens)
        #expect(further.verdict == .changedFurther && further.text.hasPrefix("changed, further from the oracle"))
        let none = GoldenRegression.classify(other, distance: 1, goldens: [])
        #expect(none.verdict == .pass && none.text == "no golden")
    }

    @Test("blessings of one store from many threads at once lose no golden: each re-reads the index under the store's lock")
    func concurrentBlessings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 8 writers, each blessing 6 pairs of its own; a lost update would drop a whole writer's pairs.
        let writers = 8, pairs = 6
        let added = ParallelMap.run(writers, threads: writers) { w -> Int in
            let outputs = (0..<pairs).compactMap { p in
                (try? Self.image([UInt8(w), UInt8(p), 1, 2, 3, 4])).map { ("w\(w)/p\(p)", $0, "writer \(w)", ["visible.mean": 0.0]) }
            }
            return (try? GoldenStore(folder: folder).bless(outputs)) ?? -1
        }
        #expect(added == Array(repeating: pairs, count: writers))
        let index = try GoldenStore(folder: folder).load()
        #expect(index.goldens.count == writers * pairs)
        #expect(index.goldens.values.allSatisfy { $0.count == 1 })
    }

    @Test("with several goldens, only an output further from the oracle than every one of them is a regression")
    func severalGoldens() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = GoldenStore(folder: folder)
        try store.bless([("c/o", try Self.image([1, 2, 3, 4, 5, 6]), "a", ["visible.mean": 1]),
                         ("c/o", try Self.image([9, 9, 9, 9, 9, 9]), "b", ["visible.mean": 3])])
        let goldens = try store.load().goldens["c/o"] ?? []
        #expect(goldens.count == 2)
        let output = try Self.image([0, 0, 0, 40, 50, 60])
        // Between the two accepted distances (1 and 3): not a regression; measured against the best (1).
        let between = GoldenRegression.classify(output, distance: 2, goldens: goldens)
        #expect(between.verdict == .changedCloser && between.golden?.resizer == "a")
        #expect(GoldenRegression.classify(output, distance: 3, goldens: goldens).verdict == .changedCloser)
        #expect(GoldenRegression.classify(output, distance: 3.01, goldens: goldens).verdict == .changedFurther)
        // A golden without a recorded distance cannot be compared: error, never a silent pass.
        var broken = goldens
        broken[1].oracleDistance = [:]
        #expect(GoldenRegression.classify(output, distance: 0.5, goldens: broken).verdict == .error)
    }

    @Test("a run after a bless of the same resizer finds every output among the goldens")
    func runMatchesBless() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var runner = try RunnerTests.runner(BuiltinResizer(), filter: "png-rgba8-softAlpha,gif-anim-none")
        runner.keepEvidence = true
        let first = try runner.run()
        let outputs = zip(first.results.pairs, first.evidence).compactMap { r, e in
            e.map { (pair: r.pair, image: $0.actual.image, resizer: "builtin", oracleDistance: ["visible.mean": $0.comparison.value("visible.mean") ?? 0]) }
        }
        #expect(outputs.count == first.results.pairs.count)
        try GoldenStore(folder: folder).bless(outputs)
        runner.goldens = try GoldenStore(folder: folder).load()
        let second = try runner.run().results
        #expect(!second.pairs.isEmpty && second.pairs.count == first.results.pairs.count)
        for p in second.pairs {
            #expect(p.golden?.hasPrefix("matches golden ") == true, "\(p.pair): \(p.golden ?? "nil")")
            #expect(p.verdict == .pass && p.goldenHash != nil)
        }
    }

    /// The built-in resizer judged against the box oracle (it declares no kernel), whose
    /// families leave room for a drift: goldens decide only among outputs the gate accepts.
    struct BoxJudged: Resizer {
        let name = "builtin"
        var policy: ResizerPolicy { ResizerPolicy(kernel: nil) }
        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
            try BuiltinResizer().apply(operation, to: source)
        }
    }

    /// The built-in resizer, then every visible R, G and B raised by 3 code values (clamped): an
    /// output that most box-oracle gates still accept but that drifted away from the oracle.
    struct Brightened: Resizer {
        let name = "brightened(builtin)"
        var policy: ResizerPolicy { ResizerPolicy(kernel: nil) }
        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
            let out = try BuiltinResizer().apply(operation, to: source)
            do {
                var rgba = try out.orientation.apply(to: out.bitmap).converted(to: .rgba8)
                for i in stride(from: 0, to: rgba.bytes.count, by: 4) where rgba.bytes[i + 3] > 0 {
                    for c in 0..<3 { rgba.bytes[i + c] = UInt8(min(255, Int(rgba.bytes[i + c]) + 3)) }
                }
                return Image(bitmap: rgba)
            } catch { throw .failed("\(error)") }
        }
    }

    @Test("with goldens, a drift away from the oracle inside the gate is changed-further (exit 1), a move closer is changed-closer (exit 0)")
    func goldenVerdicts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-golden-\(UUID().uuidString)").path
        defer { for f in [folder, folder + "-b"] { try? FileManager.default.removeItem(atPath: f) } }
        func bless(_ resizer: any Resizer, into store: String) throws {
            var runner = try RunnerTests.runner(resizer, filter: "png-rgba8-colorPatches-48x32")
            runner.keepEvidence = true
            let outcome = try runner.run()
            try GoldenStore(folder: store).bless(zip(outcome.results.pairs, outcome.evidence).compactMap { r, e in
                e.map { (pair: r.pair, image: $0.actual.image, resizer: resizer.name, oracleDistance: ["visible.mean": $0.comparison.value("visible.mean") ?? .infinity]) }
            })
        }
        func run(_ resizer: any Resizer, against store: String) throws -> RunResults {
            var runner = try RunnerTests.runner(resizer, filter: "png-rgba8-colorPatches-48x32")
            runner.goldens = try GoldenStore(folder: store).load()
            return try runner.run().results
        }
        try bless(BoxJudged(), into: folder)
        let drifted = try run(Brightened(), against: folder)
        #expect(drifted.exitStatus == 1)
        #expect(drifted.summary.changedFurther > 0)
        for p in drifted.pairs {
            // The exact-copy gate (visible.max <= 1.21) rejects a +3 shift: a gate failure stays `fail`.
            if p.family == "exact-copy" {
                #expect(p.verdict == .fail, "\(p.pair): \(p.verdict.rawValue)")
            } else {
                #expect(p.verdict == .changedFurther, "\(p.pair): \(p.verdict.rawValue) \(p.golden ?? "")")
                #expect(p.golden?.hasPrefix("changed, further from the oracle") == true && p.message == p.golden)
            }
        }
        #expect(JUnitReport.xml(drifted).contains("<failure type=\"regression\""))

        try bless(Brightened(), into: folder + "-b")
        let back = try run(BoxJudged(), against: folder + "-b")
        #expect(back.exitStatus == 0)
        #expect(back.pairs.allSatisfy { $0.verdict == .changedCloser }, "\(back.pairs.map { "\($0.pair) \($0.verdict.rawValue)" })")
        #expect(back.summary.changedCloser == back.pairs.count && back.summary.pass == 0)
    }
}
