/// A run's failures grouped by the cause the diagnosis names: each bug class with the pairs it
/// covers and the forms it took (the candidates' names: what each prediction assumed went wrong),
/// and the undiagnosed remainder apart. "14 failures, one cause: orientation" reads better than
/// fourteen lines, and a design choice misjudged as a defect shows up as one large group instead of
/// a flood. Accumulated pair by pair (a streamed run keeps no pair list).
public struct FailureCauses: Sendable, Hashable {
    /// The failures one bug class explains.
    public struct Group: Sendable, Hashable {
        /// The bug class (`premultiplication`); `nil` for the undiagnosed.
        public var bugClass: String?
        /// Each form the cause took (the candidate's name) with its failures, most frequent first
        /// (ties in order of first appearance).
        public var forms: [Form]
        /// Failed pairs it explains.
        public var count: Int
        /// The first few of them, in manifest order.
        public var examples: [String]
    }

    /// One candidate's name and how many failures it explains.
    public struct Form: Sendable, Hashable {
        public var name: String
        public var count: Int
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
            var g = undiagnosed ?? Group(bugClass: nil, forms: [], count: 0, examples: [])
            Self.count(p, name: nil, in: &g)
            undiagnosed = g
            return
        }
        if let k = groups.firstIndex(where: { $0.bugClass == bugClass }) {
            Self.count(p, name: d.name, in: &groups[k])
        } else {
            var g = Group(bugClass: bugClass, forms: [], count: 0, examples: [])
            Self.count(p, name: d.name, in: &g)
            groups.append(g)
        }
    }

    private static func count(_ p: PairResult, name: String?, in g: inout Group) {
        g.count += 1
        if g.examples.count < examplesKept { g.examples.append(p.pair) }
        guard let name else { return }
        if let k = g.forms.firstIndex(where: { $0.name == name }) {
            g.forms[k].count += 1
            // Keep the most frequent first; a form only moves ahead of one it now outnumbers.
            var i = k
            while i > 0 && g.forms[i - 1].count < g.forms[i].count { g.forms.swapAt(i - 1, i); i -= 1 }
        } else {
            g.forms.append(Form(name: name, count: 1))
        }
    }

    /// The named groups, largest first (ties in order of first appearance).
    public var byCount: [Group] {
        groups.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }.map(\.element)
    }

    /// A group's forms in words: the most frequent one, and how many others there are.
    public static func formsText(_ g: Group) -> String {
        guard let first = g.forms.first else { return "" }
        let others = g.forms.count - 1
        return first.name + (others > 0 ? " (and \(others) other form\(others == 1 ? "" : "s"))" : "")
    }

    /// One line per group: `14 failures, one cause: orientation — NAME (and 6 other forms), e.g. A, B, C`;
    /// then `N failures undiagnosed …, e.g. …`.
    public var lines: [String] {
        var out = byCount.map { g in
            "\(g.count) failure\(g.count == 1 ? "" : "s"), one cause: \(g.bugClass ?? "") — \(Self.formsText(g)), e.g. "
                + g.examples.joined(separator: ", ")
        }
        if let u = undiagnosed {
            out.append("\(u.count) failure\(u.count == 1 ? "" : "s") undiagnosed (no cause explains half the difference), e.g. "
                       + u.examples.joined(separator: ", "))
        }
        return out
    }
}
