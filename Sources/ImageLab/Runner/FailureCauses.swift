/// A run's failures grouped by the cause the diagnosis names: each counterfactual (the bug
/// hypothesis whose prediction explains the failure) with the pairs it covers, and the
/// undiagnosed remainder apart. "37 failures, one cause" reads better than 37 lines, and a
/// design choice misjudged as a defect shows up as one large group instead of a flood.
/// Accumulated pair by pair (a streamed run keeps no pair list).
public struct FailureCauses: Sendable, Hashable {
    /// The failures one cause explains.
    public struct Group: Sendable, Hashable {
        /// Its bug class (`premultiplication`).
        public var bugClass: String?
        /// The cause in words (the candidate's name: what its prediction assumes went wrong).
        public var name: String?
        /// Failed pairs it explains.
        public var count: Int
        /// The first few of them, in manifest order.
        public var examples: [String]
    }

    /// The groups in order of first appearance; the undiagnosed one, when any, is ``undiagnosed``.
    public private(set) var groups: [Group] = []
    /// The failures no candidate explains.
    public private(set) var undiagnosed: Group?
    /// The examples kept per group.
    public static let examplesKept = 3

    public init() {}

    /// Counts `p` when it failed (a fail or a change further from the oracle; errors are not failures of the pixels).
    public mutating func add(_ p: PairResult) {
        guard p.verdict == .fail || p.verdict == .changedFurther else { return }
        guard let d = p.diagnosis, let bugClass = d.bugClass else {
            var g = undiagnosed ?? Group(bugClass: nil, name: nil, count: 0, examples: [])
            g.count += 1
            if g.examples.count < Self.examplesKept { g.examples.append(p.pair) }
            undiagnosed = g
            return
        }
        if let k = groups.firstIndex(where: { $0.bugClass == bugClass && $0.name == d.name }) {
            groups[k].count += 1
            if groups[k].examples.count < Self.examplesKept { groups[k].examples.append(p.pair) }
        } else {
            groups.append(Group(bugClass: bugClass, name: d.name, count: 1, examples: [p.pair]))
        }
    }

    /// The named groups, largest first (ties in order of first appearance).
    public var byCount: [Group] {
        groups.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }.map(\.element)
    }

    /// One line per group: `20 failures, one cause: aliasing — NAME, e.g. A, B`; then
    /// `N failures undiagnosed, e.g. …`.
    public var lines: [String] {
        var out = byCount.map { g in
            "\(g.count) failure\(g.count == 1 ? "" : "s"), one cause: \(g.bugClass ?? "") — \(g.name ?? ""), e.g. "
                + g.examples.joined(separator: ", ")
        }
        if let u = undiagnosed {
            out.append("\(u.count) failure\(u.count == 1 ? "" : "s") undiagnosed (no cause explains half the difference), e.g. "
                       + u.examples.joined(separator: ", "))
        }
        return out
    }
}
