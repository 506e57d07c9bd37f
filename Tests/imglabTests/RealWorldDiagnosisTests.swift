import Foundation
import Testing

/// `imglab diff` on the real-world pair set (Tests/Fixtures/real-world, made by
/// scripts/make-real-world-pairs.py with ImageMagick, libvips, Pillow, NumPy and SciPy): each
/// pair's difference named with its class and parameters, the controls (re-encoding, noise, a
/// lossless re-save, chroma subsampling) named by no class and said to be what they are, and no
/// pair given a name of another class.
@Suite("Real-world diagnosis")
struct RealWorldDiagnosisTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real-world")

    struct Pair: Decodable, Sendable, CustomTestStringConvertible {
        struct Expected: Decodable, Sendable {
            var `class`: String?
            var candidate: String?
            var parameters: [String: Double]
            var tolerance: [String: Double]?
            /// What an unnamed control must be said to be: `JPEG`, `JPEG-like` or `noise`.
            var statement: String?
            /// Phrases the summary must contain.
            var says: [String]?
        }
        var id: String, a: String, b: String, tool: String, how: String
        var expected: Expected
        var control: Bool
        var testDescription: String { id }
    }

    static let pairs: [Pair] = {
        struct Manifest: Decodable { var pairs: [Pair] }
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.pairs
    }()

    /// Pairs the diagnosis does not name yet, each with why; a known issue, not a pass.
    static let notYetNamed: [String: String] = [:]

    /// How far a fitted parameter may be from the value the script used.
    static func tolerance(_ key: String, _ pair: Pair) -> Double {
        if let t = pair.expected.tolerance?[key] { return t }
        switch key {
        case let k where k.hasPrefix("gain."): return 0.03
        case let k where k.hasPrefix("offset."): return 3
        case let k where k.hasPrefix("m"): return 0.05
        case "gamma": return 0.05 * (pair.expected.parameters[key] ?? 1)
        case "black", "white": return 0.02
        case "dx", "dy": return 0.25
        case let k where k.hasPrefix("scale."): return 0.001
        case "rows", "columns": return 0
        default: return 0
        }
    }

    @Test("the manifest lists pairs, controls among them, and each file exists")
    func manifestIsWhole() {
        #expect(Self.pairs.count >= 30 && Self.pairs.contains { $0.control })
        for pair in Self.pairs {
            for file in [pair.a, pair.b] {
                #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(file).path), "\(pair.id): \(file)")
            }
        }
    }

    @Test("imglab diff names each real-world difference with its class and parameters; controls and wrong classes are never named",
          arguments: pairs)
    func diagnosis(_ pair: Pair) throws {
        let run = try ImglabRun.run(["diff", Self.folder.appendingPathComponent(pair.a).path,
                                     Self.folder.appendingPathComponent(pair.b).path, "--json", "-"])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnosis = object["diagnosis"] as? [String: Any] ?? [:]
        let named = diagnosis["class"] as? String
        let summary = diagnosis["summary"] as? String ?? ""
        // Never a false name: a control stays unnamed, a named class is the expected one.
        if pair.control { #expect(named == nil, "\(pair.how): named \(named ?? "") — \(summary)") }
        // A control is said to be what it is: a JPEG at the quality it was saved with, a JPEG saved
        // again as PNG at about that quality (read from its block grid), or noise of about its σ.
        switch pair.expected.statement {
        case "JPEG":
            #expect(diagnosis["reEncoding"] as? String == "JPEG, quality about \(Int(pair.expected.parameters["quality"] ?? 0))", "\(summary)")
        case "JPEG-like":
            let said = (diagnosis["reEncoding"] as? String).flatMap { $0.hasPrefix("JPEG-like, quality about ") ? Double($0.dropFirst(25)) : nil }
            #expect(said.map { abs($0 - (pair.expected.parameters["quality"] ?? 0)) <= 5 } == true, "\(summary)")
        case "noise":
            let sigma = diagnosis["noise"] as? Double
            #expect(sigma.map { abs($0 - (pair.expected.parameters["sigma"] ?? 0)) <= 0.5 } == true, "\(summary)")
        default:
            #expect(diagnosis["reEncoding"] == nil && diagnosis["noise"] == nil, "\(pair.how): said to be a re-encoding or noise — \(summary)")
        }
        for phrase in pair.expected.says ?? [] { #expect(summary.contains(phrase), "\(pair.id): «\(phrase)» not in \(summary)") }
        if let named { #expect(named == pair.expected.class, "\(pair.how): named \(named) — \(summary)") }
        guard !pair.control, let expected = pair.expected.class else { return }
        if let why = Self.notYetNamed[pair.id] {
            withKnownIssue(Comment(rawValue: why)) { #expect(named == expected, "\(summary)") }
            return
        }
        #expect(named == expected, "\(pair.how): \(summary)")
        if let candidate = pair.expected.candidate { #expect(diagnosis["candidate"] as? String == candidate, "\(summary)") }
        let fitted = diagnosis["parameters"] as? [String: Double] ?? [:]
        for (key, value) in pair.expected.parameters {
            let got = try #require(fitted[key], "\(pair.id): no parameter \(key) in \(fitted) — \(summary)")
            #expect(abs(got - value) <= Self.tolerance(key, pair), "\(pair.id): \(key) \(got), made with \(value) — \(summary)")
        }
    }
}
