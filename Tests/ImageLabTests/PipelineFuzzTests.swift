import Testing
import ImageCodecs
import ImageReports
@testable import ImageLab

/// The pipeline fuzzer as a library: deterministic inputs, every outcome a result or a typed error.
@Suite("Pipeline fuzz")
struct PipelineFuzzTests {
    static let seeds = FuzzSeeds.synthetic()

    @Test("the same run seed gives the same inputs; another run seed gives others")
    func determinism() throws {
        let a = try #require(MutationFuzzer(seeds: Self.seeds, runSeed: 7))
        let b = try #require(MutationFuzzer(seeds: FuzzSeeds.synthetic(), runSeed: 7))
        let c = try #require(MutationFuzzer(seeds: Self.seeds, runSeed: 8))
        for i in 0..<64 { #expect(a.input(i) == b.input(i), "input \(i)") }
        #expect((0..<64).contains { a.input($0).bytes != c.input($0).bytes })
    }

    @Test("input i starts from seed i mod n with mutation kind (i / n) mod 8")
    func schedule() throws {
        let fuzzer = try #require(MutationFuzzer(seeds: Self.seeds, runSeed: 1))
        let n = Self.seeds.count
        #expect(n >= 20, "every container in several formats")
        for i in [0, 1, n - 1, n, 3 * n + 2, 8 * n + 5] {
            let input = fuzzer.input(i)
            #expect(input.seed == Self.seeds[i % n].name)
            #expect(input.mutations.first == MutationFuzzer.Mutation.allCases[(i / n) % 8])
            #expect((1...3).contains(input.mutations.count))
        }
        #expect(MutationFuzzer(seeds: [], runSeed: 1) == nil)
    }

    @Test("a tiny seed set through every mutation kind and every pipeline: each input completes or is refused with a typed error and a message",
          arguments: FuzzPipeline.allCases)
    func crashFreeCount(pipeline: FuzzPipeline) throws {
        let tiny = ["png-rgba8-plain", "gif-indexed"].compactMap { name in Self.seeds.first { $0.name == name } }
        #expect(tiny.count == 2)
        let fuzzer = try #require(MutationFuzzer(seeds: tiny, runSeed: 3))
        var progressCalls = 0
        let report = try PipelineFuzz(fuzzer: fuzzer, count: 2 * 8 * 4, pipeline: pipeline).run { _, _ in progressCalls += 1 }
        #expect(report.completed + report.rejected == 64)
        #expect(report.errorKinds.values.reduce(0, +) == report.rejected)
        #expect(report.errorKinds["other"] == nil, "every refusal is one of imglab's typed errors")
        #expect(report.silent == 0)
        #expect(report.rejected > 0 && report.completed > 0, "bit flips keep some files readable, truncations break others")
        #expect(progressCalls == 0, "progress comes every 10 000 inputs")
    }
    @Test("the extreme-shape seeds (rows and columns of 1,000,000, 65,500, 16,383 and 16,384 pixels, a 2000² one-colour GIF) through thumbnail and resize: no input adds more than the 64 MiB budget",
          arguments: [FuzzPipeline.thumbnail, .resize])
    func shapesWithinBudget(pipeline: FuzzPipeline) throws {
        let shapes = FuzzSeeds.shapes()
        // Two a container: PNG, TIFF, JPEG, GIF, BMP, WebP, HEIF, AVIF, and the 2000² GIF; WebP's and HEIF/AVIF's
        // need their libraries.
        let expected = 11 + (WebPCodec.availability.available ? 2 : 0) + (HEIFFamily.availability.available ? 4 : 0)
        #expect(shapes.count == expected, "\(shapes.map(\.name))")
        let fuzzer = try #require(MutationFuzzer(seeds: shapes, runSeed: 4))
        let report = try PipelineFuzz(fuzzer: fuzzer, count: 2 * shapes.count, pipeline: pipeline).run { _, _ in }
        #expect(report.completed > 0, "some shapes are resized, not only refused")
        let top = try #require(report.largestInputs.first, "the meter measured no input")
        #expect(top.growthMiB < 64, "input \(top.input) added \(top.growthMiB) MiB")
        #expect(FuzzScreen.overBudget(report, pipeline: pipeline, limits: PipelineFuzz.defaultLimits) == nil)
    }

    @Test("a run fails naming the input that added more than the budget")
    func overBudgetInputFails() {
        var report = PipelineFuzz.Report()
        report.largestInputs = [.init(input: 1234, growthMiB: 700), .init(input: 5, growthMiB: 3)]
        let why = FuzzScreen.failure([(pipeline: .thumbnail, report: report)], limits: PipelineFuzz.defaultLimits, peakRSS: 50, maxRSS: 200)
        #expect(why?.contains("thumbnail input 1234: 700.0 MiB") == true, "\(why ?? "passed")")
        report.largestInputs = [.init(input: 5, growthMiB: 3)]
        #expect(FuzzScreen.failure([(pipeline: .thumbnail, report: report)], limits: PipelineFuzz.defaultLimits, peakRSS: 50, maxRSS: 200) == nil)
    }
}
