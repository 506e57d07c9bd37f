import Foundation
import Testing
import ImageReports
import ImageCore
import ImageMetrics
@testable import ImageLab
@testable import ImageCorpus

/// The lab runner over the committed quick corpus (`Corpus/`, verified bit for bit by
/// `imglab corpus --check`) and its reviewed gates (`Corpus/gates.json`).
@Suite("Lab runner")
struct RunnerTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    static func runner(_ resizer: any Resizer, filter: String? = nil, gates: GateBook? = nil) throws -> LabRunner {
        LabRunner(corpus: corpus, resizer: resizer, gates: try gates ?? GateBook.load(corpus: corpus),
                  selection: try RunSelection(filter: filter), threads: 2)
    }

    @Test("every pair of the quick lab passes through the built-in adapter, with no lax bound")
    func quickLabPasses() throws {
        let results = try Self.runner(BuiltinResizer()).run().results
        let manifest = try LabRunner.manifest(corpus: Self.corpus)
        #expect(results.summary.pairs == manifest.cases.reduce(0) { $0 + $1.operations.count })
        for p in results.pairs where p.verdict != .pass {
            Issue.record("\(p.pair): \(p.verdict.rawValue) — \(p.message ?? "")")
        }
        #expect(results.exitStatus == 0)
        #expect(results.warnings.isEmpty, "\(results.warnings)")
        // The canaries ran and failed, as they must.
        #expect(!results.canaries.isEmpty && results.canaries.allSatisfy { $0.verdict == .fail })
    }

    @Test("an adapter that swaps R and B fails every colour-patch pair, diagnosed channel-order, and JUnit lists each failure")
    func swappedChannelsFail() throws {
        let results = try Self.runner(ChannelSwapMutant(BuiltinResizer()), filter: "colorPatches").run().results
        #expect(results.summary.pairs > 10)
        #expect(results.exitStatus == 1)
        for p in results.pairs {
            #expect(p.verdict == .fail, "\(p.pair) passed with R and B swapped")
            #expect(p.diagnosis?.bugClass == "channel-order", "\(p.pair): \(p.diagnosis?.summary ?? "no diagnosis")")
        }
        let xml = JUnitReport.xml(results)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == results.summary.fail)
        #expect(xml.contains("failures=\"\(results.summary.fail)\""))
        // One message naming the family and the clause that failed, then the diagnosis.
        #expect(xml.contains("message=\"family kernel: visible.max "))
        #expect(xml.contains(": fails — diagnosis channel-order\""))
    }

    @Test("gates that let an R↔B swap through make the run fail closed")
    func laxGatesFailClosed() throws {
        let lax = """
        {"schema": "imglab-gates/1", "families": [{"name": "all", "gate": "visible.max <= 255"}],
         "canaries": [{"pair": "png-rgba8-colorPatches-48x32/resize-aspectFit-24x24", "mutant": "swap-rb", "diagnosis": "channel-order"}]}
        """
        let gates = try GateBook(data: Data(lax.utf8))
        let error = #expect(throws: RunError.self) { try Self.runner(BuiltinResizer(), filter: "png-rgb8", gates: gates).run() }
        guard case .canaryPassed(let pairs) = error else { Issue.record("expected canaryPassed, got \(String(describing: error))"); return }
        #expect(pairs.count == 1 && pairs[0].hasPrefix("png-rgba8-colorPatches-48x32/resize-aspectFit-24x24"))
    }

    @Test("a canary given as a glob stands for its first pair in manifest order; one that matches no pair stops the run")
    func canaryGlobResolves() throws {
        let lax = """
        {"schema": "imglab-gates/1", "families": [{"name": "all", "gate": "visible.max <= 255"}],
         "canaries": [{"pair": "png-rgba8-colorPatches-*/resize-aspectFit-*", "mutant": "swap-rb"}]}
        """
        let error = #expect(throws: RunError.self) { try Self.runner(BuiltinResizer(), filter: "png-rgb8", gates: GateBook(data: Data(lax.utf8))).run() }
        guard case .canaryPassed(let pairs) = error else { Issue.record("expected canaryPassed, got \(String(describing: error))"); return }
        // The quick case's operations are orient, then the 24 × 24 fit: the first fit in manifest order.
        #expect(pairs.count == 1 && pairs[0].hasPrefix("png-rgba8-colorPatches-48x32/resize-aspectFit-24x24 "), "\(pairs)")

        let nowhere = """
        {"schema": "imglab-gates/1", "families": [{"name": "all", "gate": "visible.max <= 1"}],
         "canaries": [{"pair": "png-rgba8-colorPatches-*/resize-aspectFit-999x*", "mutant": "swap-rb"}]}
        """
        let missing = #expect(throws: RunError.self) { try Self.runner(BuiltinResizer(), filter: "png-rgb8", gates: GateBook(data: Data(nowhere.utf8))).run() }
        #expect(missing?.description.contains("matches no pair of the corpus") == true, "\(String(describing: missing))")
    }

    @Test("a pair no family takes is an error verdict, not a pass")
    func unclaimedPairIsAnError() throws {
        let text = """
        {"schema": "imglab-gates/1", "families": [{"name": "orient only", "oracle": "kernel", "operations": ["orient"], "gate": "-2 <= cast.b <= 2"}],
         "canaries": [{"pair": "jpeg-444-colorPatches-48x32/orient", "mutant": "swap-rb"}]}
        """
        let results = try Self.runner(BuiltinResizer(), filter: "png-rgb8-colorPatches", gates: GateBook(data: Data(text.utf8))).run().results
        #expect(results.pairs.contains { $0.operation == "orient" && $0.verdict == .pass })
        let others = results.pairs.filter { $0.operation != "orient" }
        #expect(!others.isEmpty && others.allSatisfy { $0.verdict == .error && $0.family == nil })
        #expect(results.exitStatus == 1)
    }

    @Test("the gates file is checked before any pair runs", arguments: [
        #"{"schema": "imglab-gates/1", "families": [{"name": "x", "gate": "ssim_typo >= 0.9"}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}"#,
        #"{"schema": "imglab-gates/1", "families": [{"name": "x", "gate": "ssim >= "}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}"#,
        #"{"schema": "imglab-gates/1", "families": [{"name": "x", "gate": "ssim >= 0.9"}], "canaries": []}"#,
        #"{"schema": "imglab-gates/2", "families": [{"name": "x", "gate": "ssim >= 0.9"}], "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}"#,
        #"{"schema": "imglab-gates/1", "families": [{"name": "x", "gate": "ssim >= 0.9"}], "canaries": [{"pair": "a/b", "mutant": "blur"}]}"#,
        #"{"schema": "imglab-gates/1", "families": []"#,
    ])
    func badGatesFile(_ text: String) {
        #expect(throws: RunError.self) { try GateBook(data: Data(text.utf8)) }
    }

    @Test("results are the same for one thread and two")
    func deterministic() throws {
        var one = try Self.runner(BuiltinResizer(), filter: "png-rgba8-softAlpha,gif-anim-none")
        one.threads = 1
        let a = try one.run().results, b = try Self.runner(BuiltinResizer(), filter: "png-rgba8-softAlpha,gif-anim-none").run().results
        #expect(try a.jsonData() == b.jsonData())
        #expect(a.pairs.contains { $0.frames == 3 })
    }

    @Test("results JSON round-trips, infinite PSNR included")
    func jsonRoundTrip() throws {
        let results = try Self.runner(BuiltinResizer(), filter: "png-rgb8-colorPatches-48x32/orient").run().results
        #expect(results.pairs.count == 1)
        #expect(results.pairs[0].metrics["psnr"] == .infinity)
        let data = try results.jsonData()
        let back = try RunResults.decode(data)
        #expect(back == results)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"schema\" : \"imglab-run\\/1\"") || text.contains("\"schema\" : \"imglab-run/1\""))
        #expect(back.metricDefinitions["ssim"]?.version == MetricCatalog.definition(named: "ssim")?.version)
    }
}

/// Invisible-pixel invariance: each alpha source's twin differs only under α = 0, so outputs
/// that differ show hidden colour leaking into visible pixels.
@Suite("Invisible-pixel invariance")
struct HiddenColourInvarianceTests {
    @Test("the built-in resizer gives every twin the same visible output: hidden.delta is 0 on every pair with a twin")
    func builtinIsInvariant() throws {
        let results = try RunnerTests.runner(BuiltinResizer(), filter: "png-rgba8-halo,png-rgba16-softAlpha,bmp-bgra32-v5").run().results
        let deltas = results.pairs.compactMap { $0.metrics["hidden.delta"] }
        #expect(deltas.count >= 10)
        #expect(deltas.allSatisfy { $0 == 0 })
    }

    /// Straight RGBA 8 made opaque before the built-in resize: the colour stored under α = 0 shows.
    struct HiddenColourShown: Resizer {
        let name = "hidden-colour-shown"
        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
            var opaque = source
            do {
                var rgba = try source.bitmap.converted(to: .rgba8)
                for i in stride(from: 3, to: rgba.bytes.count, by: 4) { rgba.bytes[i] = 255 }
                opaque.bitmap = rgba
            } catch { throw .failed("\(error)") }
            return try BuiltinResizer().apply(operation, to: opaque)
        }
    }

    @Test("a resizer that shows the colour under α = 0 fails the invariance gate")
    func leakFailsTheGate() throws {
        let results = try RunnerTests.runner(HiddenColourShown(), filter: "png-rgba8-halo-48x32/resize-aspectFit-24x24").run().results
        let pair = try #require(results.pairs.first)
        // Magenta (255, 0, 255) against green (0, 255, 0) under α = 0: the visible difference is a full code range.
        #expect((pair.metrics["hidden.delta"] ?? 0) > 100)
        #expect(pair.verdict == .fail)
    }

    @Test("the invariance gate may name only hidden.delta")
    func invarianceGateNamesOnlyHiddenDelta() {
        let text = """
        {"schema": "imglab-gates/1", "families": [{"name": "all", "gate": "visible.max <= 1"}], "invariance": "visible.max <= 0",
         "canaries": [{"pair": "a/b", "mutant": "swap-rb"}]}
        """
        #expect(throws: RunError.self) { try GateBook(data: Data(text.utf8)) }
    }
}
