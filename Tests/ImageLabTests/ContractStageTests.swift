import Foundation
import ImageCore
import ImageCorpus
import Testing
@testable import ImageLab

/// The contract stage of a run and the precision model, checked on a resizer written here from
/// its definition (not from the kernel oracle): a tent filter averaging sRGB-encoded 8-bit values
/// in two passes, each rounded to 8 bits (the way Pillow's 8-bit modes work).
@Suite("Contract stage and precision")
struct ContractStageTests {
    /// Opaque RGB(A) 8-bit in, tent (triangle) filter widened when shrinking, centres at
    /// `(i + ½)·scale`, weights normalised over the taps inside the image, horizontal pass first,
    /// both passes rounded to 8 bits. Every frame of an animation becomes frame 0 only.
    struct EightBitTentResizer: Resizer {
        var name = "eight-bit-tent"

        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
            guard case .resize(let w, let h, .scaleToFill) = operation else { throw .unsupported("only scaleToFill") }
            let upright = source.oriented().bitmap
            guard let rgba = try? upright.converted(to: .rgba8) else { throw .failed("not RGBA") }
            let sw = rgba.width, sh = rgba.height
            func taps(_ n: Int, _ m: Int) -> [[(Int, Double)]] {
                let scale = Double(n) / Double(m), widen = max(scale, 1)
                return (0..<m).map { i in
                    let centre = (Double(i) + 0.5) * scale
                    var list: [(Int, Double)] = []
                    for j in 0..<n {
                        let wgt = max(0, 1 - abs(Double(j) + 0.5 - centre) / widen)
                        if wgt > 0 { list.append((j, wgt)) }
                    }
                    let total = list.reduce(0) { $0 + $1.1 }
                    return list.map { ($0.0, $0.1 / total) }
                }
            }
            func code(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
            let across = taps(sw, w), down = taps(sh, h)
            var middle = [UInt8](repeating: 0, count: sh * w * 4)
            for y in 0..<sh { for (i, t) in across.enumerated() { for c in 0..<4 {
                middle[(y * w + i) * 4 + c] = code(t.reduce(0) { $0 + Double(rgba.bytes[y * rgba.bytesPerRow + $1.0 * 4 + c]) * $1.1 })
            } } }
            var out = [UInt8](repeating: 0, count: w * h * 4)
            for (k, t) in down.enumerated() { for x in 0..<w { for c in 0..<4 {
                out[(k * w + x) * 4 + c] = code(t.reduce(0) { $0 + Double(middle[($1.0 * w + x) * 4 + c]) * $1.1 })
            } } }
            return Image(bitmap: Bitmap(uncheckedWidth: w, height: h, format: .rgba8, bytesPerRow: w * 4, bytes: out))
        }
    }

    @Test("an 8-bit two-pass sRGB tent resizer is fingerprinted as triangle, sRGB, an 8-bit intermediate, first frame only")
    func eightBitPipeline() {
        let f = ContractFingerprint.infer(EightBitTentResizer())
        #expect(f.finding("kernel")?.value == "triangle", "\(f.findings.map { "\($0.aspect)=\($0.value) (\($0.evidence))" })")
        #expect(f.finding("light space")?.kind == .design)
        #expect(f.finding("precision")?.kind == .design, "\(f.finding("precision").map { "\($0.value): \($0.evidence)" } ?? "none")")
        #expect(f.finding("animation")?.value == "first frame only")
        let policy = f.contractPolicy()
        #expect(policy.kernel == .triangle && policy.lightSpace == .srgb && policy.intermediateBits == 8)
        #expect(policy.firstFrameOnly && policy.inferred)
        // What a user requires is judged as the built-in design has it.
        let required = f.contractPolicy(requiring: [.linearLight, .fullPrecision, .everyFrame])
        #expect(required.lightSpace == .linear && required.intermediateBits == nil && !required.firstFrameOnly)
        #expect(required.kernel == .triangle)
    }

    @Test("with an 8-bit intermediate, a resample along one axis is the full-precision result rounded to 8-bit codes")
    func intermediateRoundsTheFirstPass() throws {
        let source = CalibrationImages.detail()
        let placement = try OracleGeometry.placement(of: .resize(width: 15, height: 40, mode: .scaleToFill), width: 40, height: 40)
        var exact = KernelOracle.Design(kernel: .lanczos3, lightSpace: .srgb)
        var stored = exact
        stored.intermediateBits = 8
        exact.intermediateBits = nil
        let a = try KernelOracle.render(source: source, placement: placement, design: exact)
        let b = try KernelOracle.render(source: source, placement: placement, design: stored)
        var largest = 0.0
        for y in 0..<40 {
            for x in 0..<15 {
                let e = a.encodedPixel(x: x, y: y), s = b.encodedPixel(x: x, y: y)
                for (v, q) in [(e.red, s.red), (e.green, s.green), (e.blue, s.blue)] {
                    // The horizontal pass is the only pass: its value clamped and rounded to a code.
                    let expected = (min(max(v, 0), 1) * 255).rounded() / 255
                    largest = max(largest, abs(q - expected) * 255)
                }
            }
        }
        #expect(largest < 1e-6, "largest difference from the rounded full-precision values: \(largest) codes")
    }

    @Test("a resizer that declares its policy, or a run that requires the built-in design, is not fingerprinted")
    func declaredIsNotFingerprinted() throws {
        let declared = try ResizerChoice.adapter("builtin")
        #expect(ContractStage.prepare(declared).fingerprint == nil)
        let command = CommandResizer(name: "never-run", template: try CommandTemplate("false {in} {out}"))
        #expect(ContractStage.prepare(command, requiring: [.builtinDesign]).fingerprint == nil)
        #expect(ContractStage.Requirement.parseList("linear-light,antialiasing") == [.linearLight, .antialiasing])
        #expect(ContractStage.Requirement.parseList("linear-light,,x") == nil && ContractStage.Requirement.parseList("") == nil)
    }

    @Test("a command that fails every calibration image keeps the built-in design, and the run says so")
    func failingCommandKeepsTheBuiltinDesign() throws {
        let command = CommandResizer(name: "fails", template: try CommandTemplate("false {in} {out}"))
        let (judged, fingerprint) = ContractStage.prepare(command)
        let f = try #require(fingerprint)
        #expect(f.finding("kernel")?.kind == .unknown && judged.policy == .builtin)
        #expect(ContractStage.summary(f, judgedBy: judged.policy).contains("could not be inferred"))
    }

    /// A resizer judged against a policy of the test's choosing: the contract a run would give it.
    struct Contracted: Resizer {
        var base: any Resizer
        var policy: ResizerPolicy
        var name: String { base.name }
        func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image { try base.apply(operation, to: source) }
    }

    @Test("a mutant that departs from the built-in only by a design choice (sRGB averaging, nearest sampling, no antialiasing) is a design finding of its contract, and judged against it its resize pairs pass where the built-in design fails them",
          arguments: ["srgb-averaging", "nearest-neighbour", "fixed-support"])
    func designOnlyMutantsPassTheirContract(_ id: String) throws {
        let mutant = try #require(MutantCatalogue.mutant(id)).make(BuiltinResizer())
        let fingerprint = ContractFingerprint.infer(mutant)
        #expect(!fingerprint.findings.contains { $0.kind == .defect }, "\(fingerprint.findings.filter { $0.kind == .defect })")
        #expect(fingerprint.findings.contains { $0.kind == .design && $0.aspect != "kernel" || $0.value.hasPrefix("nearest") },
                "\(fingerprint.findings.map { "\($0.aspect)=\($0.value) (\($0.kind))" })")
        let filter = "*/resize-aspectFit-24x24"
        let asBuiltin = try RunnerTests.runner(mutant, filter: filter).run().results.pairs
        let asContract = try RunnerTests.runner(Contracted(base: mutant, policy: fingerprint.contractPolicy()), filter: filter).run().results.pairs
        let failing = asBuiltin.filter { $0.verdict.kind == .fail }.map(\.pair)
        #expect(failing.count >= 10, "the built-in design must see the departure: \(failing.count) of \(asBuiltin.count) fail")
        let still = asContract.filter { $0.verdict.kind != .pass }.map { "\($0.pair): \($0.message ?? "")" }
        #expect(still.isEmpty, "\(still.count) of \(asContract.count) still fail against the contract: \(still.prefix(5))")
    }
}
