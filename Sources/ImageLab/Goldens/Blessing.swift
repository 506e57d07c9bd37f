import ImageCore
import Foundation

/// `imglab bless`: runs a resizer over the selected pairs exactly as `imglab run` does and adds
/// each output to the golden store (``GoldenStore/bless(_:)``: content-addressed files written
/// atomically before the index), with its distance to the oracle (`visible.mean`,
/// `deltaE00.p99`). Pairs that fail their gate are blessed too: a golden records what the
/// resizer does, the oracle says whether it is right.
public struct Blessing: Sendable {
    /// The corpus folder.
    public var corpus: String
    /// The golden store; `nil` means `CORPUS/goldens`.
    public var goldens: String?
    public var resizer: any Resizer
    /// Filter patterns (``RunSelection``); `nil` takes every pair.
    public var filter: String?
    /// Worker threads.
    public var threads: Int
    /// Passed to the store (``GoldenStore/afterWrite``): called after each file written.
    public var afterWrite: (@Sendable (_ writes: Int) -> Void)?

    public init(corpus: String = "Corpus", goldens: String? = nil, resizer: any Resizer = BuiltinResizer(), filter: String? = nil,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) {
        self.corpus = corpus
        self.goldens = goldens
        self.resizer = resizer
        self.filter = filter
        self.threads = threads
        self.afterWrite = afterWrite
    }

    /// The store folder.
    public var folder: String { goldens ?? corpus + "/goldens" }

    /// What a blessing did.
    public struct Outcome: Sendable, Hashable {
        /// Goldens added.
        public var added: Int
        /// Outputs offered (each pair's output that the run produced).
        public var outputs: Int
        /// Blessed pairs that fail their gate.
        public var failing: Int
    }

    /// The metrics each golden records as its distance to the oracle.
    public static let distanceMetrics = ["visible.mean", "deltaE00.p99"]

    /// Runs the resizer and blesses its outputs.
    /// - Throws: ``BlessError/run(_:)`` when the run cannot judge (nothing is written),
    ///   ``BlessError/store(_:)`` when the store cannot be read or written.
    public func run() throws(BlessError) -> Outcome {
        let outcome: LabRunner.Outcome
        do {
            let runner = LabRunner(corpus: corpus, resizer: resizer, gates: try GateBook.load(corpus: corpus),
                                   selection: try RunSelection(filter: filter), threads: threads, keepEvidence: true)
            outcome = try runner.run()
        } catch { throw .run(error) }
        var outputs: [(pair: String, image: Image, resizer: String, oracleDistance: [String: Double])] = []
        for (result, evidence) in zip(outcome.results.pairs, outcome.evidence) {
            guard let evidence else { continue }
            var distance: [String: Double] = [:]
            for m in Self.distanceMetrics { distance[m] = evidence.comparison.value(m) }
            outputs.append((result.pair, evidence.actual.image, resizer.name, distance))
        }
        do {
            let added = try GoldenStore(folder: folder, afterWrite: afterWrite).bless(outputs)
            return Outcome(added: added, outputs: outputs.count, failing: outcome.results.summary.fail)
        } catch { throw .store(error) }
    }
}

/// Why a blessing failed.
public enum BlessError: Error, Sendable, CustomStringConvertible {
    /// The run could not judge the resizer; nothing was written.
    case run(RunError)
    /// The golden store could not be read or written; the previous goldens are intact.
    case store(GoldenStore.StoreError)

    public var description: String {
        switch self {
        case .run(let error): return error.description
        case .store(let error): return error.description
        }
    }
}
