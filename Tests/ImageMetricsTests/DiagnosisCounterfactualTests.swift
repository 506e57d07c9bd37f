import Testing
import ImageCore
@testable import ImageMetrics

/// Counterfactual candidates (``Counterfactual``): scored like any exact candidate, admitted only
/// when they separate from their control, ignored when their size differs. The images are
/// synthetic 8 × 8 grays, so every explained fraction below is arithmetic on code values.
@Suite("diagnosis counterfactuals")
struct DiagnosisCounterfactualTests {
    /// An 8 × 8 gray ramp (value 20 + 3·(x + 8y), 20…209).
    static let expected: [UInt8] = (0..<64).map { UInt8(20 + 3 * $0) }

    /// The pixels the "bug" changes: an irregular pattern no transform of the image predicts.
    static func changed(_ i: Int) -> Bool { ((i % 8) * 3 + (i / 8) * 5) % 7 < 3 }

    /// The ramp with `amount` added where ``changed(_:)``.
    static func moved(by amount: Int) -> [UInt8] {
        expected.enumerated().map { i, v in changed(i) ? UInt8(Int(v) + amount) : v }
    }

    static func image(_ values: [UInt8], width: Int = 8, height: Int = 8) throws -> Image {
        Image(bitmap: try Bitmap(width: width, height: height, format: .gray8, bytes: values))
    }

    static func diagnose(actual: [UInt8], counterfactuals: [Counterfactual]) throws -> Diagnosis {
        Comparison(expected: ComparedImage(image: try image(expected), name: "expected"),
                   actual: ComparedImage(image: try image(actual), name: "actual"),
                   options: ComparisonOptions(structural: false), counterfactuals: counterfactuals).diagnosis
    }

    @Test("without counterfactuals the irregular change gets no diagnosis (the catalogue cannot predict it)")
    func catalogueAlone() throws {
        let d = try Self.diagnose(actual: Self.moved(by: 40), counterfactuals: [])
        #expect(d.bugClass == nil, "\(d.summary)")
        #expect(d.version == "diagnosis/6")
    }

    @Test("a counterfactual equal to the actual image explains all of it and names its class")
    func exactCounterfactual() throws {
        let actual = Self.moved(by: 40)
        let cf = Counterfactual(id: "counterfactual.test", bugClass: "test-class", name: "the test bug", references: ["D0"],
                                predicted: try Self.image(actual))
        let d = try Self.diagnose(actual: actual, counterfactuals: [cf])
        #expect(d.bugClass == "test-class" && d.candidate == "counterfactual.test")
        #expect(abs((d.explained ?? 0) - 1) < 1e-12)
        #expect(d.references == ["D0"])
        #expect(d.confidence >= 0.5)
    }

    @Test("half of the change predicted explains 1 − 0.5² = 75 % and is named when no control is given")
    func partialCounterfactual() throws {
        let cf = Counterfactual(id: "counterfactual.test", bugClass: "test-class", name: "half", predicted: try Self.image(Self.moved(by: 20)))
        let d = try Self.diagnose(actual: Self.moved(by: 40), counterfactuals: [cf])
        #expect(d.candidate == "counterfactual.test")
        #expect(abs((d.explained ?? 0) - 0.75) < 1e-9)
    }

    @Test("a counterfactual whose control explains nearly as much is not admitted (75 % vs 1 − 0.6² = 64 %: confidence 0.75 × 0.458 < 0.5)")
    func controlRemovesCounterfactual() throws {
        let cf = Counterfactual(id: "counterfactual.test", bugClass: "test-class", name: "half",
                                predicted: try Self.image(Self.moved(by: 20)), control: try Self.image(Self.moved(by: 16)))
        let d = try Self.diagnose(actual: Self.moved(by: 40), counterfactuals: [cf])
        #expect(d.candidate == nil, "\(d.summary)")
        #expect(!d.ranking.contains { $0.id == "counterfactual.test" || $0.id.hasSuffix(".control") })
        // Separation of 0.75 from 0.64: max(0.11 / 0.25, 1.5 · 0.11 / 0.36) = 0.4583.
        #expect(abs(Diagnoser.separation(0.75, from: 0.64) - 1.5 * 0.11 / 0.36) < 1e-12)
    }

    @Test("a counterfactual that separates from its control is admitted (100 % vs 64 %)")
    func controlAdmitsCounterfactual() throws {
        let actual = Self.moved(by: 40)
        let cf = Counterfactual(id: "counterfactual.test", bugClass: "test-class", name: "exact",
                                predicted: try Self.image(actual), control: try Self.image(Self.moved(by: 16)))
        let d = try Self.diagnose(actual: actual, counterfactuals: [cf])
        #expect(d.candidate == "counterfactual.test")
    }

    @Test("a counterfactual of another size is ignored")
    func otherSize() throws {
        let cf = Counterfactual(id: "counterfactual.test", bugClass: "test-class", name: "wrong size",
                                predicted: try Self.image([UInt8](repeating: 0, count: 4), width: 2, height: 2))
        let d = try Self.diagnose(actual: Self.moved(by: 40), counterfactuals: [cf])
        #expect(d.candidate == nil)
        #expect(!d.ranking.contains { $0.id == "counterfactual.test" })
    }
}
