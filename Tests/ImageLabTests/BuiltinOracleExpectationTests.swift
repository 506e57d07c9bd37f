import Foundation
import Testing
import ImageCore
import ImageCodecs
import ImageLabTesting
@testable import ImageLab
@testable import ImageCorpus

/// The project's own use of the assertion API (`ImageLabTesting.expectImage`): outputs of the
/// built-in resizer checked against the analytic oracle images of `Corpus/oracle`, each under
/// its reviewed gate (`Corpus/gates.json`), and exact copies under a strict gate of their own.
@Suite("Built-in resizer vs the analytic oracle (expectImage)")
struct BuiltinOracleExpectationTests {
    static let corpus = RunnerTests.corpus

    static func decode(_ relative: String) throws -> Image {
        let path = URL(fileURLWithPath: corpus).appendingPathComponent(relative).path
        return try ImageCodecs.decode([UInt8](try #require(FileManager.default.contents(atPath: path))))
    }

    /// The pairs of the straight-alpha 8-bit PNG and 16-bit TIFF sources: every operation kind.
    static func pairs() throws -> [LabPair] {
        let manifest = try LabRunner.manifest(corpus: corpus)
        return LabPair.all(in: manifest).filter { $0.record.encoding == "png-rgba8" || $0.record.encoding == "tiff-rgba16-assoc" }
    }

    @Test("every operation of the built-in resizer on 8- and 16-bit RGBA sources stays within its family's gate of the oracle")
    func withinFamilyGates() throws {
        let gates = try GateBook.load(corpus: Self.corpus)
        let pairs = try Self.pairs()
        #expect(pairs.count >= 20)
        for pair in pairs {
            let family = try #require(gates.family(of: pair), "\(pair.id): no family")
            let operation = try #require(pair.entry.operation.operation)
            let output = try BuiltinResizer().apply(operation, to: Self.decode(pair.record.file))
            let oracle = try Self.decode(pair.entry.oracle[0])
            let still = Image(bitmap: output.animation?.frames[0].canvas ?? output.bitmap, orientation: output.orientation)
            try expectImage(still, matches: oracle, gate: gates.file.families[family].gate, name: pair.id.replacingOccurrences(of: "/", with: "__"))
        }
    }

    @Test("orient, crop and transparent border copy pixels: within one 8-bit code value of the oracle (its quantisation)")
    func exactCopies() throws {
        let copies = try Self.pairs().filter { ["orient", "crop", "transparentBorder"].contains($0.entry.operation.kind) }
        #expect(copies.count >= 4)
        for pair in copies {
            let output = try BuiltinResizer().apply(try #require(pair.entry.operation.operation), to: Self.decode(pair.record.file))
            try expectImage(output, matches: try Self.decode(pair.entry.oracle[0]), gate: "visible.max <= 1 && alpha.max <= 1",
                            name: pair.id.replacingOccurrences(of: "/", with: "__"))
        }
    }
}
