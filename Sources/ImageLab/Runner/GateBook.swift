import ImageCorpus
import Foundation
import ImageMetrics

/// The reviewed gates file, `Corpus/gates.json`: one gate expression per family of cases, and
/// the canary pairs that must fail.
///
/// A pair belongs to the first family whose selectors all match it (absent selectors match
/// everything); a pair that no family takes is an `error` verdict, never a silent pass.
/// Gate expressions use ``GateExpression``'s grammar and ``MetricCatalog``'s names; they are
/// parsed when the file is loaded, so a typo fails the run (exit 2) before any case runs.
public struct GateBook: Sendable {
    /// The file's schema identifier.
    public static let schema = "imglab-gates/1"
    /// The file name inside a corpus folder.
    public static let fileName = ReviewedGates.fileName

    /// One family of cases and its gate.
    public struct Family: Sendable, Hashable, Codable {
        /// The family's name in results and the report.
        public var name: String
        /// Why the bounds are what they are (the observed worst value and the margin).
        public var rationale: String?
        /// Operation names (``OperationRecord/kind``) taken; all when absent.
        public var operations: [String]?
        /// Lossy (JPEG) sources only, or lossless only; both when absent.
        public var lossy: Bool?
        /// Glob patterns over the encoding id (``RunSelection``'s glob); all when absent.
        public var encodings: [String]?
        /// Enlarging operations only (output area larger than the displayed source), or
        /// non-enlarging only; both when absent.
        public var enlarges: Bool?
        /// Scenes taken (``CaseRecord/scene``: `checkerAndGray`, `landscape`, …); all when absent.
        /// Smooth scenes allow little kernel blur, scenes with pixel-level detail more.
        public var scenes: [String]?
        /// The oracle the family's bounds are measured against: `kernel` (the kernel-exact
        /// oracle of a resizer that declares its kernel) or `box` (the ideal oracle); `box` when absent.
        public var oracle: OracleKind?
        /// `true` when every bound of the gate is derived by arithmetic (output and oracle-file
        /// rounding, stated in ``rationale``) rather than set from observed values: such a bound
        /// is the exact tolerance, so no lax-bound warning (``LaxBound``) is raised when a corpus
        /// happens not to reach it. Observed bounds when absent.
        public var derivedBounds: Bool?
        /// The gate, e.g. `visible.max <= 40 && deltaE00.p99 <= 6 && ssim >= 0.9`.
        public var gate: String

        /// Whether the family takes a pair judged against `oracle`.
        public func takes(_ pair: LabPair, oracle kind: OracleKind = .box) -> Bool {
            if (oracle ?? .box) != kind { return false }
            if let operations, !operations.contains(pair.entry.operation.kind) { return false }
            if let lossy, lossy != pair.record.lossy { return false }
            if let encodings, !encodings.contains(where: { RunSelection.matches($0, pair.record.encoding) }) { return false }
            if let scenes, !scenes.contains(pair.record.scene) { return false }
            if let enlarges, enlarges != (pair.entry.outputWidth * pair.entry.outputHeight > pair.record.displayWidth * pair.record.displayHeight) {
                return false
            }
            return true
        }
    }

    /// A pair run through a deliberately broken adapter before the real run; its gate must fail.
    public struct Canary: Sendable, Hashable, Codable {
        /// `CASE/OPERATION`, or a glob over it (``RunSelection``'s: `*`, `?`) that stands for the
        /// first matching pair in manifest order, e.g. `png-rgba8-colorPatches-*/resize-aspectFit-*`
        /// (the 48 × 32 case in the quick profile, the 96 × 64 one in the full profile).
        public var pair: String
        /// The mutant's id in ``MutantCatalogue`` (e.g. `swap-rb`).
        public var mutant: String
        /// The diagnosis class the failure must name (``Diagnosis/bugClass``), when given.
        public var diagnosis: String?

        /// Whether the pair `id` is this canary's: equal to ``pair``, or matched by it as a glob.
        public func matches(_ id: String) -> Bool {
            pair.contains("*") || pair.contains("?") ? RunSelection.matches(pair, id) : pair == id
        }
    }

    /// The file as stored.
    public struct File: Sendable, Hashable, Codable {
        public var schema: String
        /// Free text: how the bounds were set.
        public var about: String?
        public var families: [Family]
        public var canaries: [Canary]
        /// The invisible-pixel invariance gate over `hidden.delta`, applied to every pair whose
        /// case has a hidden-colour twin (``CaseRecord/hiddenTwin``); none when absent.
        public var invariance: String?
        /// The cost gate of the scale profile (`imglab run --profile scale`), over the `cost.*`
        /// and `floor.*` metrics of a resizer measured in a child process; none when absent.
        public var cost: CostGate?
    }

    /// The scale profile's gate on what a resizer costs, and why its bounds are what they are.
    public struct CostGate: Sendable, Hashable, Codable {
        /// e.g. `cost.rss <= 48 && cost.cpu.ratio <= 2`.
        public var gate: String
        public var rationale: String?
    }

    /// The file's content.
    public var file: File
    /// Each family's parsed gate, in family order.
    public var gates: [GateExpression]
    /// The parsed ``File/invariance`` gate.
    public var invariance: GateExpression?
    /// The parsed ``File/cost`` gate.
    public var cost: GateExpression?

    /// Parses and checks a gates file. Operation names and canary pair ids of manifest version 1
    /// are read as the current ones (``ManifestV1Names``).
    /// - Throws: ``RunError/gates(_:)`` on malformed JSON, a wrong schema, a gate syntax error
    ///   or an unknown metric name, or no canary (a run without canaries cannot fail closed).
    public init(data: Data) throws(RunError) {
        var file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch { throw .gates("\(Self.fileName) is not a gates file: \(error)") }
        for i in file.families.indices { file.families[i].operations = file.families[i].operations?.map(ManifestV1Names.operationName) }
        for i in file.canaries.indices { file.canaries[i].pair = ManifestV1Names.pairID(file.canaries[i].pair) }
        guard file.schema == Self.schema else { throw .gates("schema is '\(file.schema)', expected '\(Self.schema)'") }
        guard !file.families.isEmpty else { throw .gates("no family") }
        guard !file.canaries.isEmpty else { throw .gates("no canary: a run must be able to fail (fail closed)") }
        var gates: [GateExpression] = []
        for family in file.families {
            do { gates.append(try GateExpression(family.gate)) } catch { throw .gates("family '\(family.name)': \(error)") }
        }
        for canary in file.canaries where MutantCatalogue.mutant(canary.mutant) == nil {
            throw .gates("canary \(canary.pair): unknown mutant '\(canary.mutant)' (known: \(MutantCatalogue.all.map(\.id).joined(separator: ", ")))")
        }
        if let text = file.invariance {
            do { invariance = try GateExpression(text) } catch { throw .gates("invariance: \(error)") }
            guard invariance?.metricNames == ["hidden.delta"] else { throw .gates("invariance: the gate may name only hidden.delta") }
        }
        if let text = file.cost?.gate {
            do { cost = try GateExpression(text) } catch { throw .gates("cost: \(error)") }
            guard cost?.metricNames.allSatisfy(ScaleCost.names.contains) == true else {
                throw .gates("cost: the gate may name only \(ScaleCost.names.joined(separator: ", "))")
            }
        }
        self.file = file
        self.gates = gates
    }

    /// Loads `DIR/gates.json`, or the reviewed gates built into imglab (``ReviewedGates``) when the
    /// folder has none (a corpus written before `imglab corpus` wrote them).
    /// - Throws: ``RunError/gates(_:)`` when the file exists but cannot be read or is not a gates file.
    public static func load(corpus folder: String) throws(RunError) -> GateBook {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return builtIn }
        guard let data = FileManager.default.contents(atPath: path) else { throw .gates("cannot read \(path)") }
        return try GateBook(data: data)
    }

    /// Loads a gates file named by the user (`imglab run --gates FILE`).
    /// - Throws: ``RunError/gates(_:)`` when it cannot be read or is not a gates file.
    public static func load(file path: String) throws(RunError) -> GateBook {
        guard let data = FileManager.default.contents(atPath: path) else { throw .gates("cannot read \(path)") }
        return try GateBook(data: data)
    }

    /// The gates of a run: the file `override` when given, else the corpus folder's (``load(corpus:)``).
    public static func load(corpus folder: String, override: String?) throws(RunError) -> GateBook {
        if let override { return try load(file: override) }
        return try load(corpus: folder)
    }

    /// The book with every family judged by `gate` instead of its own (`imglab run --gate EXPR`);
    /// canaries stay, so a gate too lax to fail them still stops the run.
    public func judging(every gate: GateExpression) -> GateBook {
        var book = self
        for i in book.file.families.indices { book.file.families[i].gate = gate.text }
        book.gates = book.gates.map { _ in gate }
        return book
    }

    /// The reviewed gates built into imglab (``ReviewedGates``).
    public static var builtIn: GateBook {
        // The built-in text is held to Corpus/gates.json by BuiltInFilesTests and by every corpus --check.
        do { return try GateBook(data: Data(ReviewedGates.text.utf8)) } catch { preconditionFailure("the built-in gates do not parse: \(error)") }
    }

    /// The index of the family that takes the pair judged against `oracle`, if any.
    public func family(of pair: LabPair, oracle: OracleKind = .box) -> Int? {
        file.families.firstIndex { $0.takes(pair, oracle: oracle) }
    }

    /// Which oracle a family's bounds are measured against.
    public enum OracleKind: String, Sendable, Hashable, Codable {
        /// The ``KernelOracle`` of the resizer's declared kernel: bounds of a code value or so.
        case kernel
        /// The box-filtered ideal ``Oracle`` (committed files): bounds calibrated per scene family.
        case box
    }
}
