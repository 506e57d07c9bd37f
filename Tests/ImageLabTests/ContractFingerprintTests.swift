import Foundation
import Testing
@testable import ImageLab

/// The contract fingerprint, checked on resizers whose design is known: the built-in resizer
/// (Lanczos 3 in linear light, premultiplied, widened, renormalised edges, centre-aligned,
/// rounded, orientation applied, 16 bits kept, sizes half up) and the mutants of the catalogue,
/// each of which departs from it in the one way its catalogue entry says.
@Suite("Contract fingerprint")
struct ContractFingerprintTests {
    static func fingerprint(_ spec: String) throws -> ContractFingerprint {
        ContractFingerprint.infer(try ResizerChoice.adapter(spec))
    }

    @Test("the built-in resizer's fingerprint is its design, every finding correct or a design of its own")
    func builtin() throws {
        let f = try Self.fingerprint("builtin")
        let expected: [String: String] = ["kernel": "lanczos3", "light space": "linear light", "edges": "renormalize",
                                          "antialiasing": "the kernel widens when shrinking", "pixel centres": "at i + ½ (centre-aligned)",
                                          "output rounding": "rounded", "channel order": "RGB", "alpha": "premultiplied while resampling",
                                          "orientation": "applied", "16-bit samples": "kept", "size rounding": "half up",
                                          "precision": "no loss between passes", "animation": "every frame resized"]
        for (aspect, value) in expected {
            #expect(f.finding(aspect)?.value == value, "\(aspect): \(f.finding(aspect).map { "\($0.value) (\($0.evidence))" } ?? "none")")
        }
        #expect(f.findings.allSatisfy { $0.kind == .correct || $0.aspect == "kernel" }, "\(f.findings.filter { $0.kind != .correct })")
        #expect(f.failures.isEmpty)
        #expect(f.inferredPolicy.kernel == .lanczos3 && f.inferredPolicy.lightSpace == .linear && f.inferredPolicy.rounding == .builtin)
    }

    /// Each mutant and what its catalogue entry says it does to the contract.
    static let departures: [(mutant: String, aspect: String, value: String)] = [
        ("srgb-averaging", "light space", "sRGB-encoded values (fine detail darkens)"),
        ("power-gamma", "light space", "linear light through a pure power 2.2 curve, not the sRGB curve"),
        // It point-samples only when shrinking; an enlargement is the base resizer's (SamplingMutants).
        ("nearest-neighbour", "kernel", "nearest to shrink, lanczos3 to enlarge"),
        ("fixed-support", "antialiasing", "none: a fixed support aliases"),
        ("wrap-edges", "edges", "wrap"),
        ("half-pixel", "pixel centres", "at i (shifted by half a pixel)"),
        ("half-pixel-x", "pixel centres", "at i across, i + ½ down (shifted across)"),
        ("truncation", "output rounding", "truncated (values low by up to a code)"),
        ("swap-rb", "channel order", "red and blue swapped"),
        ("straight-resampling", "alpha", "straight colour averaged (halo)"),
        ("alpha-dropped-hidden", "alpha", "dropped: flattened"),
        ("alpha-over-black", "alpha", "dropped: flattened"),
        ("orientation-ignored", "orientation", "ignored (the stored pixels squeezed into the displayed size)"),
        ("orientation-twice", "orientation", "applied twice (and squeezed)"),
        ("16bit-low-byte", "16-bit samples", "the picture is lost"),
        ("8bit-intermediate", "16-bit samples", "an 8-bit intermediate (256 levels in 16 bits)"),
        ("size-overshoot", "size rounding", "none of half up, to even, down or up"),
    ]

    @Test("each mutant's fingerprint shows its departure from the built-in design", arguments: departures.indices)
    func mutant(_ i: Int) throws {
        let d = Self.departures[i]
        let f = try Self.fingerprint("mutant:" + d.mutant)
        let found = f.finding(d.aspect)
        #expect(found?.value == d.value, "\(d.mutant) \(d.aspect): \(found.map { "\($0.value) (\($0.evidence))" } ?? "none"); all: \(f.findings.map { "\($0.aspect)=\($0.value)" })")
    }
}

