import Foundation
import ImageCore
import ImageCorpus
import ImageMetrics

/// The scale profile made ready to measure (``ScaleSession/prepare(status:)``): the sources
/// streamed into a folder, each selected pair with its oracle rendered from the scene, the gates
/// that judge them, and each pair's floor once measured. Several resizers measured over one plan
/// share all of it, so a league's or a selftest's resizers face the same sources, oracles and
/// floors, and the work is done once.
public struct ScalePlan: PairSource {
    /// One pair to measure.
    public struct Pair: Sendable {
        var pair: LabPair
        var scaleCase: CorpusCase
        var operation: LabOperation
        var placement: OraclePlacement
        /// The source file's path.
        var source: String
    }

    var selection: RunSelection
    var gates: GateBook
    var costGate: GateExpression
    var canaries: [Canaries.Failure]
    /// The pairs, in manifest order.
    var planned: [Pair]
    /// Per pair, its oracle (`nil`: it could not be rendered, and the pair is an error).
    var oracles: [Image?]
    /// Selected pairs whose source cannot be streamed.
    var skipped: [RunResults.SkippedPair]
    /// A temporary folder for the floors' and the resizers' calls (and the sources, unless
    /// they are kept), removed by ``discard()``.
    var workFolder: String
    /// Each pair's floor, measured by the first resizer over the plan.
    let floors: FloorBook

    init(selection: RunSelection, gates: GateBook, costGate: GateExpression, canaries: [Canaries.Failure], pairs: [Pair],
         oracles: [Image?], skipped: [RunResults.SkippedPair], workFolder: String) {
        self.selection = selection
        self.gates = gates
        self.costGate = costGate
        self.canaries = canaries
        planned = pairs
        self.oracles = oracles
        self.skipped = skipped
        self.workFolder = workFolder
        self.floors = FloorBook(count: pairs.count)
    }

    /// The number of pairs to measure.
    public var count: Int { planned.count }

    /// The pairs to measure, in manifest order.
    public func pairs() -> [Pair] { planned }

    /// Removes the temporary folder (with the sources, unless they were kept).
    public func discard() {
        try? FileManager.default.removeItem(atPath: workFolder)
    }

    /// Each pair's floor once measured, shared by the resizers measured over one plan.
    final class FloorBook: @unchecked Sendable {
        // Guarded by `lock`.
        private var costs: [ProcessCost?]
        private let lock = NSLock()

        init(count: Int) { costs = Array(repeating: nil, count: count) }

        /// The floor of pair `index`: the recorded one, or `measure()`'s, then recorded.
        func floor(_ index: Int, measure: () throws(ResizerError) -> ProcessCost) throws(ResizerError) -> ProcessCost {
            if let known = lock.withLock({ costs[index] }) { return known }
            let cost = try measure()
            lock.withLock { costs[index] = cost }
            return cost
        }
    }
}
