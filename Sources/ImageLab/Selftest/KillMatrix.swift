import ImageCore
import ImageCorpus
import Foundation

/// The result of `imglab selftest`: how the lab did against every mutant of
/// ``MutantCatalogue`` — the kill matrix (mutant × gate family: pairs run, caught, named) and,
/// per mutant, the pairs caught, the pairs whose diagnosis names the mutant's class and the
/// accuracy — plus the built-in resizer's own run, and the verdict with its reasons.
///
/// *Caught*: the pair's verdict fails a run (`fail`, `changed-further` or `error`). *Named*: a caught `fail` whose diagnosis
/// class is the mutant's ``Mutant/bugClass``, or a caught `error` whose message carries
/// Quartz's context-creation text (``BitmapContextFailure/quartzText``), which the selftest
/// files under the class `bitmap-context`. *Accuracy* = named / caught.
///
/// Columns are the gate families of `gates.json` (the family that judged each pair), so a
/// column says which gate caught the mutant there. Each mutant runs on the pairs of its
/// ``Mutant/triggers`` (or on every pair with `allPairs`); the matrix records how many ran.
///
/// *Caught / triggered*: of the pairs a mutant's ``Mutant/triggers`` select (among those run),
/// how many were caught: how much of the damage the bug can do the gates see.
///
/// Verdict: every mutant caught on at least one pair; accuracy at least 90 % for every mutant
/// (80 % for a ``Mutant/subtle`` one), without exception; the built-in resizer passing every pair.
public struct KillMatrix: Sendable, Hashable, Codable {
    /// The schema identifier of the JSON.
    public static let schema = "imglab-selftest/1"
    /// Least accuracy a gross mutant must reach (a subtle one: ``Mutant/requiredAccuracy(subtle:)``).
    public static let requiredAccuracy = Mutant.requiredAccuracy(subtle: false)

    /// One cell: a mutant's pairs in one gate family.
    public struct Cell: Sendable, Hashable, Codable {
        /// Pairs of the family the mutant ran on.
        public var run: Int
        /// Of those, caught (a verdict that fails a run).
        public var caught: Int
        /// Of those, named with the mutant's class.
        public var named: Int
    }

    /// A caught pair whose diagnosis did not name the mutant's class.
    public struct Miss: Sendable, Hashable, Codable {
        /// `CASE/OPERATION`.
        public var pair: String
        /// What the diagnosis said instead (class, or `none`), with its summary or the error message.
        public var diagnosis: String
    }

    /// One mutant's row.
    public struct Row: Sendable, Hashable, Codable {
        public var id: String
        public var topic: String
        public var title: String
        public var bugClass: String
        public var references: [String]
        /// Whether the mutant is subtle (``Mutant/subtle``).
        public var subtle: Bool
        /// The accuracy it must reach (0.9, or 0.8 when subtle).
        public var requiredAccuracy: Double
        /// Pairs run (its triggers, or every pair).
        public var run: Int
        /// Of the pairs run, those its triggers select (all of them unless every pair ran).
        public var triggered: Int
        /// Of those, caught.
        public var caughtTriggered: Int
        /// Pairs caught (a verdict that fails a run).
        public var caught: Int
        /// Caught pairs whose diagnosis names ``bugClass``.
        public var named: Int
        /// named / caught, `nil` when nothing was caught.
        public var accuracy: Double?
        /// Per gate family (``KillMatrix/families`` order; families without a run pair omitted).
        public var cells: [String: Cell]
        /// The caught pairs that were not named, in manifest order.
        public var misses: [Miss]
    }

    /// The built-in resizer's run over every pair.
    public struct Builtin: Sendable, Hashable, Codable {
        public var pairs: Int
        public var pass: Int
        /// The pairs that did not pass, with their message.
        public var failures: [Miss]
        /// Lax-bound warnings of the run.
        public var warnings: [String]
    }

    public var schema: String = KillMatrix.schema
    /// Which imglab wrote the file: version and commit (``ImglabBuild/identity``); absent in files written before it was recorded.
    public var imglab: String? = ImglabBuild.identity
    /// The corpus profile.
    public var profile: String
    /// Whether every mutant ran on every pair (`--all-pairs`) rather than on its triggers.
    public var allPairs: Bool
    /// The gate families (columns), in `gates.json` order.
    public var families: [String]
    public var builtin: Builtin
    public var mutants: [Row]
    /// Whether the selftest passed.
    public var passed: Bool
    /// Why not, one line each (empty when passed).
    public var reasons: [String]

    /// The verdict: every mutant caught on at least one pair, each with accuracy ≥ 90 %, and
    /// the built-in resizer passing every pair. Returns the reasons it fails (empty = pass).
    public static func reasons(builtin: Builtin, mutants: [Row]) -> [String] {
        var out: [String] = []
        if builtin.pass != builtin.pairs {
            out.append("the built-in resizer failed \(builtin.pairs - builtin.pass) of \(builtin.pairs) pairs: " +
                       builtin.failures.prefix(5).map(\.pair).joined(separator: ", ") + (builtin.failures.count > 5 ? ", …" : ""))
        }
        for m in mutants {
            if m.run == 0 {
                out.append("\(m.id): no pair of the corpus triggers it, so it was never run")
            } else if m.caught == 0 {
                out.append("\(m.id): never caught (0 of \(m.run) pairs failed a gate): the gates cannot see this bug")
            } else if let a = m.accuracy, !m.meetsAccuracy {
                out.append("\(m.id): diagnosis names '\(m.bugClass)' on \(m.named) of \(m.caught) caught pairs (\(String(format: "%.0f", a * 100)) % < \(String(format: "%.0f", m.requiredAccuracy * 100)) %)")
            }
        }
        return out
    }

    /// The row of one mutant from its judged pairs; `triggered` tells which of them (by pair id)
    /// the mutant's triggers select (all, when it ran on its triggers only).
    public static func row(for mutant: Mutant, results: [PairResult], triggered: (String) -> Bool = { _ in true }) -> Row {
        var cells: [String: Cell] = [:]
        var caught = 0, named = 0, inTriggers = 0, caughtInTriggers = 0
        var misses: [Miss] = []
        for r in results {
            let family = r.family ?? "none"
            var cell = cells[family] ?? Cell(run: 0, caught: 0, named: 0)
            cell.run += 1
            let selected = triggered(r.pair)
            if selected { inTriggers += 1 }
            if r.verdict.kind.fails {
                caught += 1; cell.caught += 1
                if selected { caughtInTriggers += 1 }
                let cls = diagnosedClass(r)
                if cls == mutant.bugClass {
                    named += 1; cell.named += 1
                } else {
                    let said = r.verdict == .error ? "error: \(r.message ?? "")" : "\(cls ?? "none"): \(r.diagnosis?.summary ?? r.message ?? "")"
                    misses.append(Miss(pair: r.pair, diagnosis: said))
                }
            }
            cells[family] = cell
        }
        return Row(id: mutant.id, topic: mutant.topic, title: mutant.title, bugClass: mutant.bugClass, references: mutant.references,
                   subtle: mutant.subtle, requiredAccuracy: mutant.requiredAccuracy,
                   run: results.count, triggered: inTriggers, caughtTriggered: caughtInTriggers,
                   caught: caught, named: named, accuracy: caught > 0 ? Double(named) / Double(caught) : nil,
                   cells: cells, misses: misses)
    }

    /// The class a caught pair is filed under: the diagnosis class of a failure, or
    /// `bitmap-context` for an error whose message carries Quartz's context-creation text.
    public static func diagnosedClass(_ r: PairResult) -> String? {
        switch r.verdict {
        case .pass, .changedCloser: return nil
        case .fail, .changedFurther: return r.diagnosis?.bugClass
        case .error: return BitmapContextFailure.isQuartzContextError(r.message ?? "") ? "bitmap-context" : nil
        }
    }

    /// The gate families that judged at least one mutant pair, in ``families`` order, then
    /// `none` when a pair had no family (an error before one was chosen).
    public var familiesRun: [String] {
        families.filter { f in mutants.contains { $0.cells[f] != nil } } + (mutants.contains { $0.cells["none"] != nil } ? ["none"] : [])
    }

    /// The JSON (sorted keys, pretty), the same bytes for the same results.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension KillMatrix.Row {
    /// Whether the accuracy reaches ``requiredAccuracy`` (named × 1 ≥ caught × required, so
    /// 8 of 10 meets 80 %); false when nothing was caught.
    public var meetsAccuracy: Bool {
        caught > 0 && Double(named) >= Double(caught) * requiredAccuracy - 1e-9
    }

    /// `caught/triggered`, e.g. `43/53`.
    public var caughtOfTriggered: String { "\(caughtTriggered)/\(triggered)" }
}
