import ImageCorpus
/// The handful of pairs `imglab reproduce` runs a mutant on: a deterministic, representative
/// subset of the pairs its ``Mutant/triggers`` select.
///
/// Rule: the candidates are grouped by scene; scenes are taken in order of preference (the
/// topic's own scenes, then ``TopicEvidence/colourfulScenes``, then any other in manifest
/// order). Up to three scenes are drawn from at a time, round-robin, one pair per turn; a scene
/// that runs out is replaced by the next. Within a scene, colour sources come before gray ones
/// (``TopicEvidence/hasColour(_:)``), and every case gives one pair before any
/// case gives a second, and case `i` starts at its operation `i mod n`, so the sample spans
/// encodings and operations instead of one case's every operation. Same manifest → same sample.
enum ReproduceSample {
    /// Scenes drawn from at once.
    static let breadth = 3

    /// Up to `limit` pairs of `candidates` (in manifest order), most telling first.
    static func pick(_ candidates: [LabPair], preferring preferred: [String], limit: Int) -> [LabPair] {
        guard limit > 0 else { return [] }
        var sceneOrder: [String] = []
        var byScene: [String: [LabPair]] = [:]
        for pair in candidates {
            if byScene[pair.record.scene] == nil { sceneOrder.append(pair.record.scene) }
            byScene[pair.record.scene, default: []].append(pair)
        }
        let ranking = preferred + TopicEvidence.colourfulScenes
        let rank = { (scene: String) -> Int in ranking.firstIndex(of: scene) ?? ranking.count }
        // Stable: scenes of equal rank keep their manifest order.
        let scenes = sceneOrder.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        var queues = scenes.map { spread(byScene[$0] ?? []) }
        var picked: [LabPair] = []
        var active = Array(queues.indices.prefix(breadth)), next = active.count
        while picked.count < limit && !active.isEmpty {
            var k = 0
            while k < active.count && picked.count < limit {
                let q = active[k]
                if queues[q].isEmpty {
                    if next < queues.count { active[k] = next; next += 1 } else { active.remove(at: k) }
                    continue
                }
                picked.append(queues[q].removeFirst())
                k += 1
            }
        }
        return picked
    }

    /// One scene's pairs ordered so that every case gives one pair per round (colour cases
    /// first), case `i` starting at its operation `i mod n`.
    static func spread(_ pairs: [LabPair]) -> [LabPair] {
        var caseOrder: [String] = []
        var byCase: [String: [LabPair]] = [:]
        let colourFirst = pairs.filter(TopicEvidence.hasColour) + pairs.filter { !TopicEvidence.hasColour($0) }
        for pair in colourFirst {
            if byCase[pair.record.id] == nil { caseOrder.append(pair.record.id) }
            byCase[pair.record.id, default: []].append(pair)
        }
        let lists = caseOrder.map { byCase[$0] ?? [] }
        var out: [LabPair] = []
        let rounds = lists.map(\.count).max() ?? 0
        for round in 0..<rounds {
            for (i, list) in lists.enumerated() where round < list.count {
                out.append(list[(i + round) % list.count])
            }
        }
        return out
    }
}
