/// Candidates for an output one row or one column off: the picture cut at an edge (a crop that
/// loses the last row, an off-by-one in a crop rectangle), padded at an edge with the edge
/// repeated, or resampled onto a canvas one row or column short or long (a size rounded the
/// wrong way, the picture stretched onto it). Their parameters are `rows` and `columns`, the
/// change of height and width in pixels.
enum EdgeRowCandidates {
    static let all: [Candidate] = edges.flatMap { [cut($0), padded($0)] } + stretches

    /// An edge of the picture: which dimension it changes and whether it is the far one (bottom,
    /// right).
    struct Edge: Sendable {
        var name: String
        var vertical: Bool
        var far: Bool
    }

    static let edges = [
        Edge(name: "bottom", vertical: true, far: true), Edge(name: "top", vertical: true, far: false),
        Edge(name: "right", vertical: false, far: true), Edge(name: "left", vertical: false, far: false),
    ]

    static func parameters(_ edge: Edge, _ change: Int) -> [String: Double] {
        ["rows": edge.vertical ? Double(change) : 0, "columns": edge.vertical ? 0 : Double(change)]
    }

    /// The row or column at `edge` lost: the rest exact.
    static func cut(_ edge: Edge) -> Candidate {
        let line = edge.vertical ? "row" : "column"
        var c = Candidate(id: "crop.\(line)-lost-\(edge.name)", bugClass: "crop",
                          name: "the \(edge.name) \(line) lost: the picture cut one \(line) short (an off-by-one in a crop or size)",
                          size: { edge.vertical ? ($0, $1 - 1) : ($0 - 1, $1) }) { e, x, y in
            edge.far ? e.pixel(x, y) : e.pixel(edge.vertical ? x : x + 1, edge.vertical ? y + 1 : y)
        }
        c.parameters = parameters(edge, -1)
        return c
    }

    /// A row or column added at `edge`, the edge repeated: the rest exact.
    static func padded(_ edge: Edge) -> Candidate {
        let line = edge.vertical ? "row" : "column"
        var c = Candidate(id: "crop.\(line)-added-\(edge.name)", bugClass: "crop",
                          name: "a \(line) added at the \(edge.name): the picture padded one \(line) long (an off-by-one in a canvas or crop)",
                          size: { edge.vertical ? ($0, $1 + 1) : ($0 + 1, $1) }) { e, x, y in
            edge.far ? e.pixel(x, y) : e.pixel(edge.vertical ? x : x - 1, edge.vertical ? y - 1 : y)
        }
        c.parameters = parameters(edge, 1)
        return c
    }

    /// The picture resampled onto a canvas one row or column short or long.
    static let stretches: [Candidate] = [(true, -1), (true, 1), (false, -1), (false, 1)].map { vertical, change in
        let line = vertical ? "row" : "column"
        let edge = Edge(name: "", vertical: vertical, far: true)
        var c = Candidate(id: "size.\(line)-\(change < 0 ? "short" : "long")", bugClass: "size-rounding",
                          name: "one \(line) \(change < 0 ? "short" : "long"): the size rounded \(change < 0 ? "down" : "up") and the picture resampled onto it",
                          references: ["B22"], size: { vertical ? ($0, $1 + change) : ($0 + change, $1) }) { e, x, y in
            GeometryCandidates.stretched(e, x, y, toWidth: vertical ? e.width : e.width + change,
                                         height: vertical ? e.height + change : e.height)
        }
        c.parameters = parameters(edge, change)
        return c
    }
}
